// A URI folder as a dictionary key, compared and hashed by its UTF-8 bytes. String's `==` and hashing are
// by canonical equivalence, so "café/" written with é as one scalar or as e and a combining accent would be
// one key, while on disk they are two folders: a URI must come back with its own bytes. Owned by
// QueueEntries (whoever owns the queue value).

struct FolderKey: Hashable {
    let text: Substring

    init(_ text: Substring) { self.text = text }

    static func == (a: FolderKey, b: FolderKey) -> Bool {
        guard a.text.utf8.count == b.text.utf8.count else { return false }
        let compared = a.text.utf8.withContiguousStorageIfAvailable { x in
            b.text.utf8.withContiguousStorageIfAvailable { y in x.elementsEqual(y) }
        }
        return compared.flatMap { $0 } ?? a.text.utf8.elementsEqual(b.text.utf8)
    }

    func hash(into hasher: inout Hasher) {
        // The same bytes hash the same whether or not the text is contiguous.
        if text.utf8.withContiguousStorageIfAvailable({ hasher.combine(bytes: UnsafeRawBufferPointer($0)) }) != nil {
            return
        }
        Array(text.utf8).withUnsafeBytes { hasher.combine(bytes: $0) }
    }
}
