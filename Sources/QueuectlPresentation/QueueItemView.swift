// A QueueItem as the client shows it: the shared wire shape (QueueRPC.RPCQueueItem, decoded leniently so
// that a field added to the schema later, or a null where a number is usual, never breaks `ls`), plus how
// queuectl names it.

import QueueRPC

public typealias QueueItemView = RPCQueueItem

extension RPCQueueItem {
    /// The title when the item has a non-empty one, else the file name from the uri.
    public var displayName: String {
        if let title, !title.isEmpty { return title }
        return QueueItemView.fileName(of: uri)
    }

    /// Last path component of an absolute path or file:// URL, percent-decoded for URLs.
    static func fileName(of uri: String) -> String {
        let isURL = uri.hasPrefix("file:")
        let trimmed = uri.hasSuffix("/") ? String(uri.dropLast()) : uri
        let last = trimmed.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? uri
        return isURL ? percentDecoded(last) : last
    }

    /// "%20" → " "; malformed escapes are kept as they are (this is only for display).
    static func percentDecoded(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
                let value = UInt8(String(decoding: bytes[(index + 1)...(index + 2)], as: UTF8.self), radix: 16)
            {
                out.append(value)
                index += 3
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
