// What changed between two values of one queue's entries, at the cost of what changed: the network items'
// index (which items use which URL) follows the queue from these differences instead of reading every
// entry after each edit. A chunk neither value wrote since they parted is one buffer shared by both (its
// copy-on-write was never triggered), so only chunks whose buffers differ are read.
// Cost: O(n/B) to compare the chunks' buffers, O(B) per chunk written since `earlier`.

extension QueueEntries {
    /// One entry as the difference names it: its id and its URI, and the digest its item carries.
    public struct URIEntry: Sendable, Equatable {
        public var id: ItemID
        public var uri: String
        public var sha256: String?
    }

    /// The entries whose URI `matches` that are in `earlier` and not in `self` with the same URI and digest
    /// (`removed`), and the other way round (`added`). `earlier` must be an earlier value of this queue
    /// (or of any queue: a queue not sharing storage is read whole). `matches` decides by the URI's
    /// beginning (a prefix ending in "/" that holds at least its scheme and host: see `folder(of:)`) and is asked
    /// once per folder met.
    public func difference(from earlier: QueueEntries, whereURIBeginning matches: (String) -> Bool) -> (
        removed: [URIEntry], added: [URIEntry]
    ) {
        let before = Set(earlier.chunks.map(Self.buffer))
        let after = Set(chunks.map(Self.buffer))
        var left: [Int: EntryRecord] = [:]
        for chunk in earlier.chunks where !after.contains(Self.buffer(chunk)) {
            for record in chunk { left[record.id] = record }
        }
        let sameLineage = earlier.lineage === lineage
        var added: [URIEntry] = []
        var verdicts: [UInt32: Bool] = [:]
        var written: [URIEntry] = []
        for chunk in chunks where !before.contains(Self.buffer(chunk)) {
            for record in chunk {
                if let old = left[record.id] {
                    // Written but naming the same URI (a play began, a duration was learned, it moved): neither
                    // left nor came. Told from the records alone when they share the text's lineage.
                    if sameLineage, Self.sameURI(old, record, earlier.extras, extras) {
                        left[record.id] = nil
                        continue
                    }
                    guard let entry = uriEntry(record, matches, &verdicts) else { continue }
                    written.append(entry)
                } else if let entry = uriEntry(record, matches, &verdicts) {
                    added.append(entry)
                }
            }
        }
        var earlierVerdicts: [UInt32: Bool] = [:]
        var removed: [ItemID: URIEntry] = [:]
        for record in left.values {
            if let entry = earlier.uriEntry(record, matches, &earlierVerdicts) { removed[entry.id] = entry }
        }
        for entry in written {
            if removed[entry.id] == entry { removed[entry.id] = nil } else { added.append(entry) }
        }
        return (removed.values.sorted { $0.id < $1.id }, added)
    }

    /// Whether two records of one lineage name the same URI and digest: the same text, or the same whole item.
    private static func sameURI(
        _ old: EntryRecord, _ new: EntryRecord, _ oldExtras: [EntryExtras], _ newExtras: [EntryExtras]
    ) -> Bool {
        let oldBox = old.extras == 0 ? nil : oldExtras[Int(old.extras - 1)].box
        let newBox = new.extras == 0 ? nil : newExtras[Int(new.extras - 1)].box
        if let oldBox, let newBox { return oldBox === newBox }
        return oldBox == nil && newBox == nil && old.folder == new.folder && old.uri == new.uri
    }

    /// The URI of the entry at `position`, without building the rest of the entry.
    public func uri(at position: Int) -> String {
        let (chunk, offset) = locate(position)
        let record = chunks[chunk][offset]
        if record.extras != 0, let whole = extras[Int(record.extras - 1)].item { return whole.uri }
        return folders[Int(record.folder)] + text.string(record.uri)
    }

    private func uriEntry(_ record: EntryRecord, _ matches: (String) -> Bool, _ verdicts: inout [UInt32: Bool])
        -> URIEntry?
    {
        if record.extras != 0, let whole = extras[Int(record.extras - 1)].item {
            return matches(whole.uri) ? URIEntry(id: ItemID(record.id), uri: whole.uri, sha256: whole.sha256) : nil
        }
        let verdict = verdicts[record.folder] ?? matches(folders[Int(record.folder)])
        verdicts[record.folder] = verdict
        guard verdict else { return nil }
        return URIEntry(id: ItemID(record.id), uri: folders[Int(record.folder)] + text.string(record.uri), sha256: nil)
    }

    /// A chunk's storage, as a name for "the same buffer" (the values compared keep both alive, so an
    /// address is never reused between them). Chunks are never empty.
    private static func buffer(_ chunk: [EntryRecord]) -> UnsafeRawPointer? {
        chunk.withUnsafeBufferPointer { $0.baseAddress.map(UnsafeRawPointer.init) }
    }
}

/// The identity of a text arena and folder table's lineage (see `QueueEntries.lineage`).
final class TextLineage: Sendable {}
