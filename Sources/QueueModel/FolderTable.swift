// The queue's URI folders ("/srv/signage/day-0000001/", "https://cms.example/v1/"), each stored once: their
// bytes packed in a TextArena of their own, their places in pages of TextRefs, and an open-addressing hash
// index in pages. A copy of the queue (a snapshot, the network items' look) shares all of it, and the next
// edit copies the one page it writes — with a String and a Dictionary entry per folder, an insert that met a
// new folder while a copy was alive copied a million of each (205 ms at a million items of a folder each),
// and a folder cost ~200 bytes instead of its own bytes and ~16. Index 0 is "". Owned by QueueEntries.
// Hand-written because no listed package offers a paged interning table. Compared by bytes, never as
// Strings: String's == is canonical equivalence, so "café/" with é as one scalar or as e and a combining
// accent would be one folder, while on disk they are two (a URI must come back with its own bytes).

struct FolderTable: Sendable {
    /// Pages of 4096 refs and of 4096 buckets.
    private static let pageBits = 12
    private static let pageSize = 1 << pageBits
    private static let firstCapacity = 1 << 6

    private var names = TextArena()
    /// Folder index → where its bytes are.
    private var refs: [[TextRef]] = [[.empty]]
    /// Folder index + 1 per slot (0: free), `capacity` slots in pages; at most half are taken.
    private var buckets: [[UInt32]] = [[UInt32](repeating: 0, count: firstCapacity)]
    private var capacity = firstCapacity
    private(set) var count = 1

    init() {}

    subscript(index: Int) -> String {
        names.string(refs[index >> Self.pageBits][index & (Self.pageSize - 1)])
    }

    /// The index of `name`, if it is in the table.
    func index(of name: Substring) -> UInt32? {
        if name.isEmpty { return 0 }
        var slot = Self.hash(name) & (capacity - 1)
        while true {
            let value = bucket(slot)
            if value == 0 { return nil }
            if names.holds(ref(Int(value - 1)), name.utf8) { return value - 1 }
            slot = (slot + 1) & (capacity - 1)
        }
    }

    /// The index of `name`, added if it was not there.
    mutating func intern(_ name: Substring) -> UInt32 {
        if let known = index(of: name) { return known }
        if (count + 1) * 2 > capacity { grow() }
        let index = UInt32(count)
        let ref = names.store(name.utf8)
        if refs[refs.count - 1].count == Self.pageSize { refs.append([]) }
        refs[refs.count - 1].append(ref)
        count += 1
        place(index, hash: Self.hash(name))
        return index
    }

    /// Bytes held (names' pages, refs, buckets), for the memory accounting.
    var storageBytes: Int {
        names.capacityBytes + refs.reduce(0) { $0 + $1.capacity } * MemoryLayout<TextRef>.stride + capacity * 4
    }

    // MARK: Slots

    private func ref(_ index: Int) -> TextRef { refs[index >> Self.pageBits][index & (Self.pageSize - 1)] }

    private func bucket(_ slot: Int) -> UInt32 {
        buckets[slot >> Self.pageBits][slot & (Self.pageSize - 1)]
    }

    private mutating func place(_ index: UInt32, hash: Int) {
        var slot = hash & (capacity - 1)
        while bucket(slot) != 0 { slot = (slot + 1) & (capacity - 1) }
        buckets[slot >> Self.pageBits][slot & (Self.pageSize - 1)] = index + 1
    }

    /// Twice the slots, every folder placed again (amortised: once per doubling).
    private mutating func grow() {
        capacity *= 2
        let pageSize = min(capacity, Self.pageSize)
        buckets = [[UInt32]](repeating: [UInt32](repeating: 0, count: pageSize), count: capacity / pageSize)
        for index in 1..<count {
            let hash = names.withBytes(ref(index)) { Self.hash(bytes: $0) }
            place(UInt32(index), hash: hash)
        }
    }

    static func hash(_ name: Substring) -> Int {
        if let hash = name.utf8.withContiguousStorageIfAvailable({ hash(bytes: UnsafeRawBufferPointer($0)) }) {
            return hash
        }
        return Array(name.utf8).withUnsafeBytes { hash(bytes: $0) }
    }

    static func hash(bytes: UnsafeRawBufferPointer) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes: bytes)
        return hasher.finalize()
    }
}

/// Names met lately, by hash, in a small direct-mapped table: whether a name comes again soon after. A hash
/// that collides with another's answers yes (a folder kept once more than it needed: harmless).
struct RecentNames: Sendable {
    private static let slots = 512
    private var hashes: [Int] = []

    /// Whether `hash` was met lately; notes it either way.
    mutating func metAgain(_ hash: Int) -> Bool {
        if hashes.isEmpty { hashes = [Int](repeating: 0, count: Self.slots) }
        let slot = Int(UInt(bitPattern: hash) % UInt(Self.slots))
        if hashes[slot] == hash { return true }
        hashes[slot] = hash
        return false
    }
}
