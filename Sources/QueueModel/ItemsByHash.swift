// Item ids by a 64-bit hash of something they name (the network items by their URL), for a million items:
// 8 bytes a slot, at most half the slots taken (16 MB at a million, where a Dictionary of Int to ItemID
// took ~40). A slot holds the hash's top 24 bits (its tag) and the id (40 bits); the slot a tag starts
// looking from is derived from the tag alone, so removal can close the gap it leaves (backward shift) and
// growing needs nothing but the slots. A lookup answers every id whose tag matches: the caller checks each
// against what it names. Ids past 2^40 (35 years of 1,000 inserts a second) go to a side dictionary.
// Hand-written because no listed package offers a compact multimap. Owned by one thread or lock at a time.

public struct ItemsByHash: Sendable {
    private static let idBits = 40
    private static let idMask: UInt64 = (1 << 40) - 1
    private var slots: [UInt64] = []
    private var overflow: [Int: [ItemID]] = [:]
    public private(set) var count = 0

    public init() {}

    private static func tag(_ hash: Int) -> UInt64 { UInt64(UInt(bitPattern: hash) >> 40) }

    private func home(_ tag: UInt64) -> Int {
        Int(truncatingIfNeeded: (tag &* 0x9E37_79B9_7F4A_7C15) >> 40) & (slots.count - 1)
    }

    public mutating func add(_ id: ItemID, hash: Int) {
        count += 1
        guard UInt64(id.rawValue) < Self.idMask, id.rawValue > 0 else {
            overflow[hash, default: []].append(id)
            return
        }
        if count * 2 > slots.count { grow() }
        place(Self.tag(hash) << Self.idBits | UInt64(id.rawValue))
    }

    public mutating func remove(_ id: ItemID, hash: Int) {
        guard UInt64(id.rawValue) < Self.idMask, id.rawValue > 0 else {
            guard var ids = overflow[hash], let at = ids.firstIndex(of: id) else { return }
            ids.remove(at: at)
            overflow[hash] = ids.isEmpty ? nil : ids
            count -= 1
            return
        }
        guard !slots.isEmpty else { return }
        let value = Self.tag(hash) << Self.idBits | UInt64(id.rawValue)
        let mask = slots.count - 1
        var hole = home(Self.tag(hash))
        while slots[hole] != value {
            if slots[hole] == 0 { return }
            hole = (hole + 1) & mask
        }
        count -= 1
        // Close the gap: a later slot of the run moves into it unless its own start lies after the gap.
        var next = hole
        while true {
            next = (next + 1) & mask
            let moving = slots[next]
            if moving == 0 { break }
            let start = home(moving >> Self.idBits)
            let between = hole <= next ? (hole < start && start <= next) : (hole < start || start <= next)
            if !between {
                slots[hole] = moving
                hole = next
            }
        }
        slots[hole] = 0
    }

    /// Every id added with a hash of the same tag (at least those added with `hash`).
    public func ids(_ hash: Int) -> [ItemID] {
        var found = overflow[hash] ?? []
        guard !slots.isEmpty else { return found }
        let tag = Self.tag(hash)
        let mask = slots.count - 1
        var slot = home(tag)
        while slots[slot] != 0 {
            if slots[slot] >> Self.idBits == tag { found.append(ItemID(Int(slots[slot] & Self.idMask))) }
            slot = (slot + 1) & mask
        }
        return found
    }

    private mutating func place(_ value: UInt64) {
        let mask = slots.count - 1
        var slot = home(value >> Self.idBits)
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = value
    }

    private mutating func grow() {
        let old = slots
        slots = [UInt64](repeating: 0, count: max(64, old.count * 2))
        for value in old where value != 0 { place(value) }
    }
}
