// The queue's entries in play order, stored so that a million items fit in little memory and every edit
// anywhere stays cheap. Reads hand out `QueueEntry` values; the storage behind them is:
// - one fixed 56-byte `EntryRecord` per entry; the URI's and title's bytes in a paged `TextArena`, a URI's
//   folder (up to its last "/", or the one above when met only once: see `folder(of:)`) kept once for all the
//   entries in it; the fields an entry rarely has (a window, a still's duration, a digest, a schedule, a
//   transition, a motion, a failure message, text over 4 KiB) in a side table.
//   About 110 bytes an item with a 60-byte URI and a title, against ~520 as `[QueueEntry]`.
// - records in chunks of `chunkSize`…2×`chunkSize` (sqrt decomposition), `starts` holding each chunk's
//   first position: position → record is a binary search over the chunks, and an insert, removal or move
//   touches one chunk and the starts after it.
// - id → chunk in pages indexed by the id (ids only grow and arrive in runs), 4 bytes an entry; the place
//   inside the chunk is found by scanning its ids.
// Every part is copy-on-write in pieces: a copy of the queue (a snapshot being written, a listing) costs a
// few references, and the next edit copies one chunk and one page.
//
// Costs, n entries, B = chunkSize: subscript O(log(n/B)); position(of:) O(B); insert k at any index
// O(k + B + n/B); remove k O(k + (chunks touched)·B + n/B); move O(B + n/B); iteration O(n).
// Hand-written: swift-collections has no order-statistic sequence with element → position lookup.

struct EntryRecord: Sendable {
    var id: Int
    var uri: TextRef
    var title: TextRef
    /// Seconds; NaN: unknown.
    var knownDuration: Double
    /// The URI's folder in `QueueEntries.folders`.
    var folder: UInt32
    var loops: UInt32
    var playsDone: UInt32
    /// 0: none; else the index + 1 of the entry's `EntryExtras`.
    var extras: UInt32
    /// 0: unknown.
    var knownWidth: UInt16
    var knownHeight: UInt16
    var state: StateKind

    enum StateKind: UInt8, Sendable {
        case queued, playing, played, failed
    }
}

/// What a record has no room for. Small (~48 bytes): a whole item sits behind a reference, so a queue
/// whose items all failed (a failure message each) does not pay a MediaItem's ~210 bytes per entry.
struct EntryExtras: Sendable {
    /// The whole item, when it has a field a record does not keep (then the record's text is unused).
    var item: MediaItem? {
        get { box?.item }
        set { box = newValue.map(ItemBox.init) }
    }
    var box: ItemBox?
    var failure: String?
    /// A size over 65,535 on a side.
    var knownSize: PictureSize?

    init(item: MediaItem? = nil) {
        box = item.map(ItemBox.init)
    }

    var isEmpty: Bool { box == nil && failure == nil && knownSize == nil }

    /// Never changed once made (copies of the queue share it).
    final class ItemBox: Sendable {
        let item: MediaItem
        init(_ item: MediaItem) { self.item = item }
    }
}

public struct QueueEntries: Sendable {
    static let chunkSize = 1024
    static let idPageBits = 12

    public internal(set) var count = 0
    var chunks: [[EntryRecord]] = []
    /// starts[c]: the position of chunks[c]'s first record.
    var starts: [Int] = []
    /// A stable key per chunk (ids point at keys, which survive chunks before them coming and going).
    var keyOfChunk: [UInt32] = []
    /// key → chunk index (-1: free key).
    var chunkOfKey: [Int32] = []
    var freeKeys: [UInt32] = []
    /// id >> idPageBits → a page of (key + 1) per id (0: not queued); empty pages hold no live id.
    var idPages: [[UInt32]] = []
    var idPageLive: [Int32] = []

    var text = TextArena()
    /// Replaced whenever `text` and `folders` are (a re-pack, a new store): within one lineage a TextRef and a
    /// folder index name the same bytes in every value, which lets `difference` compare records without
    /// reading their text (the arena only appends).
    var lineage = TextLineage()
    /// URI folders ("file:///media/ads/", "https://cms.example/v1/"), index 0 = "", in pages (see FolderTable).
    var folders = FolderTable()
    /// Folders met lately that are not in `folders` (see `folder(of:)`).
    var recentFolders = RecentNames()
    var extras: [EntryExtras] = []
    var freeExtras: [UInt32] = []

    public init() {}

    public init(_ entries: some Sequence<QueueEntry>) {
        append(contentsOf: entries)
    }

    // MARK: Reading

    public func position(of id: ItemID) -> Int? {
        guard let key = key(of: id.rawValue) else { return nil }
        let chunk = Int(chunkOfKey[Int(key)])
        guard let offset = chunks[chunk].firstIndex(where: { $0.id == id.rawValue }) else { return nil }
        return starts[chunk] + offset
    }

    public func entry(_ id: ItemID) -> QueueEntry? {
        position(of: id).map { self[$0] }
    }

    /// The id at `position`, without building the entry.
    public func id(at position: Int) -> ItemID {
        let (chunk, offset) = locate(position)
        return ItemID(chunks[chunk][offset].id)
    }

    /// The ids in order, read from the records (no entry built).
    public var ids: [ItemID] {
        var ids: [ItemID] = []
        ids.reserveCapacity(count)
        for chunk in chunks {
            for record in chunk { ids.append(ItemID(record.id)) }
        }
        return ids
    }

    /// Whether an entry was given a negative play count or an item negative loops (kept as given in the
    /// side table, or counted as 0 in a record): what a damaged state file could hold.
    public private(set) var hasNegativeCounts = false

    /// Positions (ascending) of the entries whose URI `matches`, a test that decides by the URI's beginning
    /// up to a "/" (at least its scheme and host): it is made once per folder, not per entry, and no entry is
    /// built. O(n) over the records; the network items of a million local ones are found in milliseconds.
    public func positions(whereURIBeginning matches: (String) -> Bool) -> [Int] {
        var verdicts = [Bool?](repeating: nil, count: folders.count)
        var found: [Int] = []
        var position = 0
        for chunk in chunks {
            for record in chunk {
                if record.extras != 0, let whole = extras[Int(record.extras - 1)].item {
                    if matches(whole.uri) { found.append(position) }
                } else {
                    let folder = Int(record.folder)
                    if verdicts[folder] == nil { verdicts[folder] = matches(folders[folder]) }
                    if verdicts[folder] == true { found.append(position) }
                }
                position += 1
            }
        }
        return found
    }

    /// Bytes held for the entries (records, text pages, folders, id pages; not the side table's items),
    /// for the memory tests and benchmarks.
    public var storageBytes: Int {
        let records = chunks.reduce(0) { $0 + $1.capacity } * MemoryLayout<EntryRecord>.stride
        let ids = idPages.reduce(0) { $0 + $1.capacity } * 4
        return records + ids + text.capacityBytes + folders.storageBytes
            + starts.count * 16 + extras.count * MemoryLayout<EntryExtras>.stride
    }

    func key(of id: Int) -> UInt32? {
        let page = id >> Self.idPageBits
        guard id >= 0, page < idPages.count, !idPages[page].isEmpty else { return nil }
        let slot = idPages[page][id & ((1 << Self.idPageBits) - 1)]
        return slot == 0 ? nil : slot - 1
    }

    func locate(_ position: Int) -> (chunk: Int, offset: Int) {
        precondition(position >= 0 && position < count, "QueueEntries: position \(position) out of 0..<\(count)")
        var low = 0
        var high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= position { low = middle } else { high = middle - 1 }
        }
        return (low, position - starts[low])
    }

    func entry(of record: EntryRecord) -> QueueEntry {
        let extra = record.extras == 0 ? nil : extras[Int(record.extras - 1)]
        let item =
            extra?.item
            ?? MediaItem(
                uri: folders[Int(record.folder)] + text.string(record.uri), loops: Int(record.loops),
                title: record.title.isAbsent ? nil : text.string(record.title))
        let state: ItemState =
            switch record.state {
            case .queued: .queued
            case .playing: .playing
            case .played: .played
            case .failed: .failed(message: extra?.failure ?? "playback failed")
            }
        var entry = QueueEntry(
            id: ItemID(record.id), item: item, playsDone: Int(record.playsDone), state: state,
            knownDuration: record.knownDuration.isNaN ? nil : record.knownDuration)
        entry.knownSize =
            extra?.knownSize
            ?? (record.knownWidth > 0 ? PictureSize(width: Int(record.knownWidth), height: Int(record.knownHeight)) : nil)
        return entry
    }

    // MARK: Records from entries

    /// Whether a record can hold `item` without keeping it whole in the side table.
    static func fitsRecord(_ item: MediaItem) -> Bool {
        item.start == nil && item.end == nil && item.duration == nil && item.trackEnd == nil && item.sha256 == nil
            && item.schedule == nil && item.transition == nil && item.motion == nil && item.onStall == nil
            && item.program == nil && item.latency == nil && item.web == nil
            && item.loops >= 0 && item.loops <= Int(UInt32.max)
            && item.uri.utf8.count <= TextArena.longest && (item.title?.utf8.count ?? 0) <= TextArena.longest
    }

    /// Where a URI's text is split: a folder kept once in `folders`, the rest in the entry's own text. The
    /// folder is the URI up to its last "/" when that folder is shared (met before, or again soon: an album,
    /// a campaign); a folder met once (a folder per item: a CDN's hashed paths, a day per folder) stays in
    /// the entry's text under the folder above it, which costs its bytes and no table entry (~20 bytes
    /// each, and a million of them). Either way the folder begins with the URI's scheme and host.
    mutating func folder(of uri: String) -> (folder: UInt32, rest: Substring.UTF8View) {
        let bytes = uri.utf8
        let slash = UInt8(ascii: "/")
        guard let last = bytes.lastIndex(of: slash) else { return (0, Substring(uri).utf8) }
        let cut = bytes.index(after: last)
        let name = uri[..<cut]  // cut follows an ASCII "/": a Unicode scalar boundary
        if let known = folders.index(of: name) { return (known, uri[cut...].utf8) }
        if recentFolders.metAgain(FolderTable.hash(name)) { return (folders.intern(name), uri[cut...].utf8) }
        // The folder above: never inside "//" (a scheme's, or an empty path segment).
        guard last > bytes.startIndex, case let before = bytes.index(before: last), bytes[before] != slash,
            let parent = bytes[..<before].lastIndex(of: slash),
            parent > bytes.startIndex, bytes[bytes.index(before: parent)] != slash,
            bytes[bytes.index(after: parent)] != slash
        else { return (folders.intern(name), uri[cut...].utf8) }
        let parentCut = bytes.index(after: parent)
        return (folders.intern(uri[..<parentCut]), uri[parentCut...].utf8)
    }

    mutating func makeRecord(_ entry: QueueEntry) -> EntryRecord {
        if entry.playsDone < 0 || entry.item.loops < 0 { hasNegativeCounts = true }
        var record = EntryRecord(
            id: entry.id.rawValue, uri: .absent, title: .absent, knownDuration: entry.knownDuration ?? .nan, folder: 0,
            loops: 0, playsDone: UInt32(clamping: entry.playsDone), extras: 0, knownWidth: 0, knownHeight: 0,
            state: .queued)
        var extra = EntryExtras()
        if Self.fitsRecord(entry.item) {
            let (folder, rest) = folder(of: entry.item.uri)
            record.folder = folder
            record.uri = text.store(rest)
            record.title = entry.item.title.map { text.store($0.utf8) } ?? .absent
            record.loops = UInt32(entry.item.loops)
        } else {
            extra.item = entry.item
        }
        setScalars(of: entry, on: &record, extra: &extra)
        record.extras = storeExtras(extra)
        return record
    }

    /// The playing state, counts and known facts of `entry` onto `record` (and `extra` for what it has no
    /// room for).
    func setScalars(of entry: QueueEntry, on record: inout EntryRecord, extra: inout EntryExtras) {
        record.playsDone = UInt32(clamping: Swift.max(0, entry.playsDone))
        record.knownDuration = entry.knownDuration ?? .nan
        switch entry.state {
        case .queued: record.state = .queued
        case .playing: record.state = .playing
        case .played: record.state = .played
        case .failed(let message):
            record.state = .failed
            extra.failure = message
        }
        if let size = entry.knownSize {
            if size.width > 0, size.height > 0, size.width <= Int(UInt16.max), size.height <= Int(UInt16.max) {
                record.knownWidth = UInt16(size.width)
                record.knownHeight = UInt16(size.height)
            } else {
                extra.knownSize = size
            }
        }
    }

    mutating func storeExtras(_ extra: EntryExtras) -> UInt32 {
        guard !extra.isEmpty else { return 0 }
        if let free = freeExtras.popLast() {
            extras[Int(free)] = extra
            return free + 1
        }
        extras.append(extra)
        return UInt32(extras.count)
    }

    mutating func releaseExtras(_ index: UInt32) {
        guard index != 0 else { return }
        extras[Int(index - 1)] = EntryExtras()
        freeExtras.append(index - 1)
    }

    mutating func release(_ record: EntryRecord) {
        text.release(record.uri)
        text.release(record.title)
        releaseExtras(record.extras)
    }

    // MARK: The id map

    mutating func setKey(_ key: UInt32?, for id: Int) {
        let page = id >> Self.idPageBits
        let slot = id & ((1 << Self.idPageBits) - 1)
        if page >= idPages.count {
            guard key != nil else { return }
            idPages += Array(repeating: [], count: page - idPages.count + 1)
            idPageLive += Array(repeating: 0, count: page - idPageLive.count + 1)
        }
        if idPages[page].isEmpty {
            guard key != nil else { return }
            idPages[page] = Array(repeating: 0, count: 1 << Self.idPageBits)
        }
        let was = idPages[page][slot]
        let now = key.map { $0 + 1 } ?? 0
        idPages[page][slot] = now
        if was == 0 && now != 0 { idPageLive[page] += 1 }
        if was != 0 && now == 0 {
            idPageLive[page] -= 1
            // A page with no queued id goes (ids are never handed out again).
            if idPageLive[page] == 0 { idPages[page] = [] }
        }
    }

    mutating func newKey(for chunk: Int) -> UInt32 {
        if let free = freeKeys.popLast() {
            chunkOfKey[Int(free)] = Int32(chunk)
            return free
        }
        chunkOfKey.append(Int32(chunk))
        return UInt32(chunkOfKey.count - 1)
    }

    /// Chunks from `first` on changed place or size: their starts and their keys' chunk indexes.
    mutating func renumber(from first: Int) {
        var position = first == 0 ? 0 : starts[first - 1] + chunks[first - 1].count
        if starts.count > chunks.count { starts.removeLast(starts.count - chunks.count) }
        for chunk in first..<chunks.count {
            if chunk < starts.count { starts[chunk] = position } else { starts.append(position) }
            chunkOfKey[Int(keyOfChunk[chunk])] = Int32(chunk)
            position += chunks[chunk].count
        }
        count = position
    }

    /// Puts `records` in as a new chunk at index `chunk` (ids pointed at it).
    mutating func insertChunk(_ records: [EntryRecord], at chunk: Int) {
        let key = newKey(for: chunk)
        chunks.insert(records, at: chunk)
        keyOfChunk.insert(key, at: chunk)
        for record in records { setKey(key, for: record.id) }
    }

    mutating func removeChunk(at chunk: Int) {
        let key = keyOfChunk.remove(at: chunk)
        chunks.remove(at: chunk)
        chunkOfKey[Int(key)] = -1
        freeKeys.append(key)
    }
}

extension QueueEntries: RandomAccessCollection {
    public typealias Index = Int
    public typealias Indices = Range<Int>
    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(position: Int) -> QueueEntry {
        get {
            let (chunk, offset) = locate(position)
            return entry(of: chunks[chunk][offset])
        }
        set {
            let (chunk, offset) = locate(position)
            let old = chunks[chunk][offset]
            precondition(old.id == newValue.id.rawValue, "QueueEntries: an entry's id does not change")
            // The text stays where it is unless the item itself changed.
            let oldExtra = old.extras == 0 ? nil : extras[Int(old.extras - 1)]
            let oldItemKept: Bool
            if let whole = oldExtra?.item {
                oldItemKept = whole == newValue.item
            } else {
                oldItemKept =
                    Self.fitsRecord(newValue.item) && Int(old.loops) == newValue.item.loops
                    && old.title.isAbsent == (newValue.item.title == nil)
                    && (newValue.item.title.map { text.holds(old.title, $0.utf8) } ?? true)
                    && entry(of: old).item.uri == newValue.item.uri
            }
            guard oldItemKept else {
                release(old)
                chunks[chunk][offset] = makeRecord(newValue)
                return
            }
            var record = old
            var extra = EntryExtras(item: oldExtra?.item)
            record.knownWidth = 0
            record.knownHeight = 0
            setScalars(of: newValue, on: &record, extra: &extra)
            releaseExtras(old.extras)
            record.extras = storeExtras(extra)
            chunks[chunk][offset] = record
        }
    }

    public func makeIterator() -> Iterator { Iterator(entries: self) }

    /// Walks the chunks in order (no search per element).
    public struct Iterator: IteratorProtocol {
        let entries: QueueEntries
        var chunk = 0
        var offset = 0

        public mutating func next() -> QueueEntry? {
            while chunk < entries.chunks.count {
                if offset < entries.chunks[chunk].count {
                    defer { offset += 1 }
                    return entries.entry(of: entries.chunks[chunk][offset])
                }
                chunk += 1
                offset = 0
            }
            return nil
        }
    }
}

extension QueueEntries: Equatable {
    public static func == (lhs: QueueEntries, rhs: QueueEntries) -> Bool {
        lhs.count == rhs.count && lhs.elementsEqual(rhs)
    }
}

extension QueueEntries: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: QueueEntry...) {
        self.init(elements)
    }
}

extension QueueEntries: Codable {
    public init(from decoder: any Decoder) throws {
        self.init(try [QueueEntry](from: decoder))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for entry in self { try container.encode(entry) }
    }
}
