// The bytes of the queue's URIs and titles, packed end to end in 64 KiB pages instead of one String heap
// object each (a 60-byte URI costs ~112 bytes as a String: header, terminator, malloc's rounding). Pages
// are copy-on-write one by one: a copy of the queue shares them, and the next edit copies the page it
// writes to, not the text of a million items. Removed text is only counted; the owner re-packs when
// more is dead than alive (QueueEntries.repackIfWasteful). Hand-written because no listed package offers
// a paged byte arena; it is ~80 lines.

/// Where a text lies in a `TextArena` (8 bytes). `absent` stands for nil.
struct TextRef: Sendable, Equatable {
    var page: UInt32
    var offset: UInt16
    var length: UInt16

    static let absent = TextRef(page: .max, offset: 0, length: 0)
    static let empty = TextRef(page: .max - 1, offset: 0, length: 0)
    var isAbsent: Bool { page == .max }
}

struct TextArena: Sendable {
    static let pageSize = 1 << 16
    /// Longer texts are not packed (the entry keeps its item whole, see EntryExtras).
    static let longest = 4096

    private(set) var pages: [[UInt8]] = []
    /// Bytes referenced by entries, and bytes of removed entries still in the pages.
    private(set) var liveBytes = 0
    private(set) var deadBytes = 0

    /// Stores `text` (at most `longest` bytes) and returns where it is.
    mutating func store<Bytes: Collection<UInt8>>(_ text: Bytes) -> TextRef {
        let count = text.count
        precondition(count <= Self.longest, "TextArena.store: \(count) bytes is over the limit")
        if count == 0 { return .empty }
        if pages.isEmpty || pages[pages.count - 1].count + count > Self.pageSize {
            var page: [UInt8] = []
            page.reserveCapacity(Self.pageSize)
            pages.append(page)
        }
        let last = pages.count - 1
        let offset = pages[last].count
        pages[last].append(contentsOf: text)
        liveBytes += count
        return TextRef(page: UInt32(last), offset: UInt16(offset), length: UInt16(count))
    }

    func string(_ ref: TextRef) -> String {
        guard !ref.isAbsent, ref.length > 0 else { return "" }
        return pages[Int(ref.page)].withUnsafeBufferPointer { buffer in
            String(decoding: UnsafeBufferPointer(rebasing: buffer[Int(ref.offset)..<Int(ref.offset) + Int(ref.length)]), as: UTF8.self)
        }
    }

    /// Whether `ref` holds exactly `text`'s bytes.
    func holds(_ ref: TextRef, _ text: some Collection<UInt8>) -> Bool {
        guard !ref.isAbsent else { return false }
        guard text.count == Int(ref.length) else { return false }
        guard ref.length > 0 else { return true }
        return pages[Int(ref.page)][Int(ref.offset)..<Int(ref.offset) + Int(ref.length)].elementsEqual(text)
    }

    /// `body` with the bytes at `ref` (none for an absent or empty one).
    func withBytes<R>(_ ref: TextRef, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        guard !ref.isAbsent, ref.length > 0 else { return body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        return pages[Int(ref.page)].withUnsafeBytes { buffer in
            body(UnsafeRawBufferPointer(rebasing: buffer[Int(ref.offset)..<Int(ref.offset) + Int(ref.length)]))
        }
    }

    /// The text at `ref` is no longer referenced.
    mutating func release(_ ref: TextRef) {
        guard !ref.isAbsent else { return }
        liveBytes -= Int(ref.length)
        deadBytes += Int(ref.length)
    }

    /// Bytes held in pages (live, dead and the last page's room), for the memory accounting in tests.
    var capacityBytes: Int { pages.count * Self.pageSize }
}
