extension Array {
    /// Removes the elements at `positions` (ascending, no duplicates) with one pass over the tail after the
    /// first of them, instead of one shift per removed element (removing 50,000 of 100,000 items one by one
    /// would move billions of elements).
    mutating func remove(atAscending positions: [Int]) {
        guard let first = positions.first else { return }
        if positions.count == 1 {
            remove(at: first)
            return
        }
        // Keepers are swapped down over the removed elements, which collect at the tail.
        var write = first
        var nextRemoved = 0
        for read in first..<count {
            if nextRemoved < positions.count, positions[nextRemoved] == read {
                nextRemoved += 1
                continue
            }
            swapAt(write, read)
            write += 1
        }
        removeSubrange(write...)
    }
}
