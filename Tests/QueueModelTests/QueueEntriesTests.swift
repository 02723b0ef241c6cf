// The compact entry store against a plain [QueueEntry]: every entry reads back exactly as it was written
// (text in the arena, folders shared, rare fields in the side table, failure messages, sizes), through
// random inserts, removals, moves and in-place changes over many chunks, a re-pack of the text, and a
// copy that must not see later edits; and what 100,000 realistic items cost.

import Testing

@testable import QueueModel

@Suite struct QueueEntriesTests {
    static let folders = [
        "file:///srv/signage/ads/", "https://127.0.0.1/media/v1/campaigns/spring/", "/media/clips/", "",
        "file:///srv/signage/ads/fr/ü/",
    ]

    static func entry(_ id: Int, _ random: inout SplitMix64) -> QueueEntry {
        let folder = folders[Int(random.next() % UInt64(folders.count))]
        var item = MediaItem(
            uri: folder + "clip-\(id)-\(random.next() % 1000).mp4", loops: Int(random.next() % 4),
            title: random.next() % 3 == 0 ? nil : (random.next() % 5 == 0 ? "" : "Title \(id) – café"))
        switch random.next() % 12 {
        case 0: item.start = 1.5
        case 1: item.sha256 = String(repeating: "ab", count: 32)
        case 2: item.uri = "/long/" + String(repeating: "x", count: 5000)
        case 3: item.schedule = ItemSchedule(days: [.mon])
        default: break
        }
        var entry = QueueEntry(id: ItemID(id), item: item, playsDone: Int(random.next() % 3))
        switch random.next() % 5 {
        case 0: entry.state = .played
        case 1: entry.state = .failed(message: "decoder said no \(id)")
        case 2: entry.state = .playing
        default: break
        }
        switch random.next() % 4 {
        case 0: entry.knownSize = PictureSize(width: 1920, height: 1080)
        case 1: entry.knownSize = PictureSize(width: 100_000, height: 3)
        default: break
        }
        if random.next() % 2 == 0 { entry.knownDuration = Double(random.next() % 100) / 4 }
        return entry
    }

    /// `count` random entries with ids from `nextID` on.
    static func entries(_ count: Int, nextID: inout Int, _ random: inout SplitMix64) -> [QueueEntry] {
        var made: [QueueEntry] = []
        for _ in 0..<count {
            made.append(entry(nextID, &random))
            nextID += 1
        }
        return made
    }

    @Test func randomEditsOverManyChunksReadBackExactly() {
        var random = SplitMix64(seed: 0xC0FFEE)
        var nextID = 1
        func make(_ count: Int) -> [QueueEntry] { Self.entries(count, nextID: &nextID, &random) }
        var store = QueueEntries(make(6_000))
        var reference = Array(store)
        #expect(store.structureViolations().isEmpty)
        for step in 0..<600 {
            switch random.next() % 5 {
            case 0:
                let added = make(step % 50 == 0 ? 2_500 : Int(random.next() % 20) + 1)
                let at = Int(random.next() % UInt64(reference.count + 1))
                store.insert(contentsOf: added, at: at)
                reference.insert(contentsOf: added, at: at)
            case 1 where !reference.isEmpty:
                let picks = Set((0..<Int(random.next() % 40) + 1).map { _ in Int(random.next() % UInt64(reference.count)) })
                let ascending = picks.sorted()
                store.remove(atAscending: ascending)
                for position in ascending.reversed() { reference.remove(at: position) }
            case 2 where !reference.isEmpty:
                let from = Int(random.next() % UInt64(reference.count))
                let to = Int(random.next() % UInt64(reference.count))
                store.move(from: from, to: to)
                reference.insert(reference.remove(at: from), at: to)
            case 3 where !reference.isEmpty:
                let at = Int(random.next() % UInt64(reference.count))
                var changed = Self.entry(reference[at].id.rawValue, &random)
                if random.next() % 2 == 0 { changed.item = reference[at].item }
                store[at] = changed
                reference[at] = changed
            default:
                let probe = reference.isEmpty ? nil : reference[Int(random.next() % UInt64(reference.count))]
                if let probe {
                    #expect(store.entry(probe.id) == probe)
                    #expect(store.position(of: probe.id).map { reference[$0].id } == probe.id)
                }
            }
            if step % 100 == 0 {
                #expect(store.structureViolations().isEmpty, "step \(step): \(store.structureViolations().prefix(3))")
                #expect(Array(store) == reference, "step \(step)")
            }
        }
        #expect(Array(store) == reference)
        #expect(store.structureViolations().isEmpty)
        #expect(reference.indices.allSatisfy { store[$0] == reference[$0] })
    }

    @Test func aCopyKeepsWhatItSawAndRemovedTextIsRepacked() {
        var random = SplitMix64(seed: 7)
        let entries = (1...40_000).map { id in
            QueueEntry(
                id: ItemID(id), item: MediaItem(uri: "https://127.0.0.1/assets/\(id)-" + String(repeating: "n", count: 60), title: "Asset number \(id) of the spring campaign"))
        }
        var store = QueueEntries(entries)
        let copy = store
        let before = store.storageBytes
        // Remove nine in ten: more text is dead than alive (over 1 MiB), so the store re-packs.
        let doomed = (0..<40_000).filter { $0 % 10 != 0 }
        store.remove(atAscending: doomed)
        #expect(store.count == 4_000 && store.structureViolations().isEmpty)
        #expect(Array(store) == entries.enumerated().filter { $0.offset % 10 == 0 }.map(\.element))
        #expect(store.storageBytes < before / 4, "re-packed: \(store.storageBytes) of \(before) bytes")
        #expect(copy.count == 40_000 && Array(copy) == entries, "the copy is untouched")
        _ = random.next()
    }

    /// Two folders that differ only in Unicode normalization (é as one scalar or as e and a combining accent)
    /// are two folders on disk: each URI reads back with its own bytes, also after the text is re-packed.
    @Test func foldersEqualOnlyByCanonicalEquivalenceKeepTheirBytes() {
        let composed = "/media/caf\u{E9}/", decomposed = "/media/cafe\u{301}/"
        #expect(composed == decomposed, "Swift's String equality is canonical: the trap this test is about")
        let uris = (1...30_000).map { id in (id % 2 == 0 ? composed : decomposed) + "clip-\(id)-" + String(repeating: "n", count: 40) }
        let entries = uris.enumerated().map { QueueEntry(id: ItemID($0.offset + 1), item: MediaItem(uri: $0.element)) }
        var store = QueueEntries(entries)
        #expect(store.map { Array($0.item.uri.utf8) } == uris.map { Array($0.utf8) })
        // Remove most, so the text is re-packed and the folders are indexed again.
        store.remove(atAscending: (0..<30_000).filter { $0 % 10 != 0 })
        let kept = uris.enumerated().filter { $0.offset % 10 == 0 }.map { Array($0.element.utf8) }
        #expect(store.map { Array($0.item.uri.utf8) } == kept)
        #expect(store.folders.count <= 3, "each spelling is one folder: \(store.folders)")
    }

    /// 100,000 items as a signage playlist has them (a ~60-byte URL in one of a few folders, a title):
    /// ~110 bytes an item in the store, against ~520 as [QueueEntry] with its Strings.
    @Test func aHundredThousandRealisticItemsCostLittle() throws {
        var queue = PlayQueue()
        let items = (0..<100_000).map { index in
            MediaItem(
                uri: "https://127.0.0.1/media/v1/campaigns/2026-spring/clip-\(String(index + 1_000_000)).mp4",
                title: "Spring campaign clip \(index)")
        }
        try queue.append(items)
        let perItem = Double(queue.entries.storageBytes) / 100_000
        print("queue storage: \(queue.entries.storageBytes) bytes for 100,000 items, \(perItem) bytes an item")
        #expect(perItem < 150)
        #expect(queue.entries[54_321].item == items[54_321])
    }

    /// A folder of its own per item (a library's naming, a URL per item): such a folder, met once, stays in
    /// the entry's text under the folder above it (no table entry each); a folder met again soon (an album)
    /// is kept once; every URI reads back with its own bytes, and a copy taken before more came sees none.
    @Test func aFolderPerItemIsStoredCompactlyAndACopyKeepsItsFolders() throws {
        var queue = PlayQueue()
        let items = (0..<100_000).map { index in
            MediaItem(uri: "/srv/signage/day-\(String(index + 1_000_000))/clip.mp4", title: "Day \(index)")
        }
        try queue.append(items)
        #expect(queue.entries.folders.count == 2, "\"\" and /srv/signage/")
        #expect(queue.entries.folders.index(of: "/srv/signage/") == 1)
        #expect(queue.entries.folders.index(of: "/srv/signage/day-1000007/") == nil)
        let perItem = Double(queue.entries.storageBytes) / 100_000
        print("queue storage, a folder per item: \(queue.entries.storageBytes) bytes for 100,000 items, \(perItem) bytes an item")
        #expect(perItem < 120)
        let copy = queue
        let more = (0..<5_000).map { MediaItem(uri: "https://127.0.0.1/v/\($0)-unique/v.mp4") }
        _ = try queue.insert(more, at: 50_000)
        #expect(queue.entries.folders.count == 3 && copy.entries.folders.count == 2)
        #expect(queue.entries.folders.index(of: "https://127.0.0.1/v/") == 2)
        #expect(copy.entries[54_321].item == items[54_321])
        #expect(queue.entries[50_000 + 4_999].item.uri == "https://127.0.0.1/v/4999-unique/v.mp4")
        #expect(queue.entries[99_999 + 5_000].item == items[99_999])
        #expect(Array(queue.entries).map(\.item.uri) == Array(items[..<50_000].map(\.uri) + more.map(\.uri) + items[50_000...].map(\.uri)))
        // An album: its folder is kept once from its second track on.
        let album = (1...10).map { MediaItem(uri: "/music/Artist/Album/\($0) Track.flac") }
        _ = try queue.append(album)
        #expect(queue.entries.folders.index(of: "/music/Artist/Album/") != nil)
        #expect(queue.entries.suffix(10).map(\.item.uri) == album.map(\.uri))
        // Never split inside "//": a URL whose path is one name keeps its host as its folder.
        _ = try queue.append([MediaItem(uri: "http://127.0.0.1/x.mp4"), MediaItem(uri: "https://127.0.0.1//x/y.mp4")])
        #expect(queue.entries.folders.index(of: "http://127.0.0.1/") != nil)
        #expect(queue.entries.suffix(2).map(\.item.uri) == ["http://127.0.0.1/x.mp4", "https://127.0.0.1//x/y.mp4"])
    }

    /// Built one append at a time (a script adding items one by one): the chunks a split leaves hold their
    /// records with little room to spare (each left half kept the whole chunk's room before: ~2.7×).
    @Test func oneAppendAtATimeCostsWhatABulkAddCosts() {
        var store = QueueEntries()
        for index in 0..<100_000 {
            store.append(QueueEntry(id: ItemID(index + 1), item: MediaItem(uri: "/srv/signage/media/clip-\(index).mp4")))
        }
        let records = store.chunks.reduce(0) { $0 + $1.capacity }
        print("one append at a time: \(records) records' room for 100,000 records")
        #expect(records < 140_000)
        #expect(store[77_777].item.uri == "/srv/signage/media/clip-77777.mp4")
    }
}
