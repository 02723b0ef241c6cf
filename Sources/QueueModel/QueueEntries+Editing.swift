// Editing the compact store (see QueueEntries for the layout and the cost of each edit): inserts that
// split a full chunk, removals that join small neighbours, moves that keep an entry's text where it is, a
// new pass over the records, and the re-pack of the text once more of it is dead than alive.

extension QueueEntries {
    public mutating func append(_ entry: QueueEntry) {
        insert(contentsOf: CollectionOfOne(entry), at: count)
    }

    public mutating func append(contentsOf entries: some Sequence<QueueEntry>) {
        insert(contentsOf: entries, at: count)
    }

    public mutating func insert(_ entry: QueueEntry, at position: Int) {
        insert(contentsOf: CollectionOfOne(entry), at: position)
    }

    public mutating func insert(contentsOf entries: some Sequence<QueueEntry>, at position: Int) {
        var records: [EntryRecord] = []
        records.reserveCapacity(entries.underestimatedCount)
        for entry in entries { records.append(makeRecord(entry)) }
        insertRecords(records, at: position)
    }

    private mutating func insertRecords(_ records: [EntryRecord], at position: Int) {
        precondition(position >= 0 && position <= count, "QueueEntries: insert at \(position) of \(count)")
        guard !records.isEmpty else { return }
        let chunk: Int
        let offset: Int
        if chunks.isEmpty {
            insertChunk([], at: 0)
            (chunk, offset) = (0, 0)
        } else if position == count {
            (chunk, offset) = (chunks.count - 1, chunks[chunks.count - 1].count)
        } else {
            (chunk, offset) = locate(position)
        }
        if chunks[chunk].count + records.count <= 2 * Self.chunkSize {
            chunks[chunk].insert(contentsOf: records, at: offset)
            let key = keyOfChunk[chunk]
            for record in records { setKey(key, for: record.id) }
            if chunks[chunk].count > 2 * Self.chunkSize - Self.chunkSize / 2 { split(chunk) }
            renumber(from: chunk)
            return
        }
        // Many at once: the chunk is cut at `offset`, the new records go in as chunks of their own, and
        // the cut-off tail follows them in a chunk of its own.
        let tail = Array(chunks[chunk][offset...])
        chunks[chunk].removeSubrange(offset...)
        var at = chunk + 1
        var start = 0
        while start < records.count {
            let end = Swift.min(records.count, start + Self.chunkSize)
            insertChunk(Array(records[start..<end]), at: at)
            at += 1
            start = end
        }
        if !tail.isEmpty { insertChunk(tail, at: at) }
        if chunks[chunk].isEmpty { removeChunk(at: chunk) }
        renumber(from: chunk)
    }

    /// Splits a full chunk in two halves; the right half gets a new key. Both halves are made anew at their
    /// size: the left one kept the full chunk's room before, and a queue built one append at a time (a
    /// restore, a script adding items one by one) held ~2.7 records' room per record.
    private mutating func split(_ chunk: Int) {
        let half = chunks[chunk].count / 2
        let right = Array(chunks[chunk][half...])
        var left: [EntryRecord] = []
        left.reserveCapacity(half)
        left.append(contentsOf: chunks[chunk][..<half])
        chunks[chunk] = left
        insertChunk(right, at: chunk + 1)
    }

    /// Removes the entries at `positions` (ascending, no duplicates).
    public mutating func remove(atAscending positions: [Int]) {
        guard !positions.isEmpty else { return }
        for record in takeRecords(atAscending: positions) { release(record) }
        repackIfWasteful()
    }

    @discardableResult
    public mutating func remove(at position: Int) -> QueueEntry {
        let removed = self[position]
        remove(atAscending: [position])
        return removed
    }

    /// Moves the entry at `source` to `destination` (its position once it is in place), keeping its text.
    public mutating func move(from source: Int, to destination: Int) {
        guard source != destination else { return }
        let records = takeRecords(atAscending: [source])
        insertRecords(records, at: destination)
    }

    /// Takes the records at `positions` out of their chunks (ids forgotten), returning them in order.
    private mutating func takeRecords(atAscending positions: [Int]) -> [EntryRecord] {
        var taken: [EntryRecord] = []
        taken.reserveCapacity(positions.count)
        var index = 0
        var firstTouched: Int?
        var chunk = locate(positions[0]).chunk
        while index < positions.count {
            // Every position that falls in this chunk, removed in one pass over it.
            let start = starts[chunk]
            let end = start + chunks[chunk].count
            var offsets: [Int] = []
            while index < positions.count, positions[index] < end {
                precondition(positions[index] >= start, "QueueEntries: positions not ascending")
                offsets.append(positions[index] - start)
                index += 1
            }
            if !offsets.isEmpty {
                firstTouched = firstTouched ?? chunk
                for offset in offsets {
                    taken.append(chunks[chunk][offset])
                    setKey(nil, for: chunks[chunk][offset].id)
                }
                chunks[chunk].remove(atAscending: offsets)
            }
            chunk += 1
        }
        guard let touched = firstTouched else { return taken }
        // Empty chunks go; a small one joins a neighbour, so chunks stay about `chunkSize` long.
        var scan = touched
        var lastTouched = chunk - 1
        while scan <= Swift.min(lastTouched, chunks.count - 1) {
            if chunks[scan].isEmpty {
                removeChunk(at: scan)
                lastTouched -= 1
                continue
            }
            if chunks[scan].count < Self.chunkSize / 4, scan + 1 < chunks.count,
                chunks[scan].count + chunks[scan + 1].count <= 2 * Self.chunkSize - Self.chunkSize / 2
            {
                let key = keyOfChunk[scan]
                for record in chunks[scan + 1] { setKey(key, for: record.id) }
                chunks[scan] += chunks[scan + 1]
                removeChunk(at: scan + 1)
                lastTouched -= 1
                continue
            }
            scan += 1
        }
        if chunks.isEmpty {
            starts.removeAll()
            count = 0
        } else {
            renumber(from: Swift.max(0, Swift.min(touched, chunks.count - 1) - 1))
        }
        return taken
    }

    public mutating func removeAll() {
        self = QueueEntries()
    }

    /// A new pass: every entry's plays go back to 0 and played or failed entries to queued, in one pass
    /// over the records (no entry is built). Returns whether anything changed.
    mutating func resetForNewPass() -> Bool {
        var changed = false
        for chunk in chunks.indices {
            for offset in chunks[chunk].indices {
                let record = chunks[chunk][offset]
                guard record.playsDone != 0 || record.state == .played || record.state == .failed else { continue }
                chunks[chunk][offset].playsDone = 0
                if record.state == .played || record.state == .failed {
                    chunks[chunk][offset].state = .queued
                    if record.state == .failed, record.extras != 0 {
                        var extra = extras[Int(record.extras - 1)]
                        extra.failure = nil
                        if extra.isEmpty {
                            releaseExtras(record.extras)
                            chunks[chunk][offset].extras = 0
                        } else {
                            extras[Int(record.extras - 1)] = extra
                        }
                    }
                }
                changed = true
            }
        }
        return changed
    }

    /// Re-packs the text when more of it is dead than alive (and over 1 MiB is): O(n), after removals that
    /// freed at least as much as is left.
    private mutating func repackIfWasteful() {
        guard text.deadBytes > 1 << 20, text.deadBytes > text.liveBytes else { return }
        var packed = TextArena()
        var newFolders = FolderTable()
        for chunk in chunks.indices {
            for offset in chunks[chunk].indices {
                let record = chunks[chunk][offset]
                guard !record.uri.isAbsent else { continue }
                chunks[chunk][offset].folder = newFolders.intern(folders[Int(record.folder)][...])
                chunks[chunk][offset].uri = Self.copy(record.uri, from: text, to: &packed)
                chunks[chunk][offset].title = Self.copy(record.title, from: text, to: &packed)
            }
        }
        text = packed
        folders = newFolders
        lineage = TextLineage()
    }

    private static func copy(_ ref: TextRef, from old: TextArena, to new: inout TextArena) -> TextRef {
        guard !ref.isAbsent else { return .absent }
        guard ref.length > 0 else { return .empty }
        return old.pages[Int(ref.page)].withUnsafeBufferPointer { buffer in
            new.store(UnsafeBufferPointer(rebasing: buffer[Int(ref.offset)..<Int(ref.offset) + Int(ref.length)]))
        }
    }

    /// For tests: whether chunks, starts, keys and the id map agree. Returns what is broken.
    func structureViolations() -> [String] {
        var broken: [String] = []
        var position = 0
        var seen = 0
        for chunk in chunks.indices {
            if chunks[chunk].isEmpty { broken.append("chunk \(chunk) is empty") }
            if starts.count <= chunk || starts[chunk] != position { broken.append("start of chunk \(chunk)") }
            if chunkOfKey[Int(keyOfChunk[chunk])] != Int32(chunk) { broken.append("key of chunk \(chunk)") }
            for record in chunks[chunk] where key(of: record.id) != keyOfChunk[chunk] {
                broken.append("id \(record.id) maps to the wrong chunk")
            }
            position += chunks[chunk].count
            seen += chunks[chunk].count
        }
        if position != count { broken.append("count \(count) != \(position)") }
        if starts.count != chunks.count { broken.append("\(starts.count) starts for \(chunks.count) chunks") }
        let mapped = idPageLive.reduce(0) { $0 + Int($1) }
        if mapped != seen { broken.append("\(mapped) ids mapped for \(seen) entries") }
        return broken
    }
}
