// A QueueItem (Protocol/queued.openrpc.json, components/schemas) as the client shows it: decoded leniently from the daemon's JSON
// so that a field added to the schema later, or a null where a number is usual, never breaks `ls`.

import QueueRPC

public struct QueueItemView: Sendable, Equatable {
    public var id: Int64
    public var uri: String
    public var title: String?
    /// Plays per pass; 0 = forever.
    public var loops: Int64
    /// Plays done this pass.
    public var plays: Int64
    /// Seconds, when known.
    public var duration: Double?
    /// The play window in the file, when set.
    public var start: Double?
    public var end: Double?
    /// "auto" | "shortest" | "longest", or nil for the daemon's default.
    public var trackEnd: String?
    /// "queued" | "playing" | "played" | "failed" (kept as text: an unknown state is still shown).
    public var state: String
    public var error: String?

    public init(id: Int64, uri: String, title: String? = nil, loops: Int64 = 1, plays: Int64 = 0,
                duration: Double? = nil, state: String = "queued", error: String? = nil) {
        self.id = id
        self.uri = uri
        self.title = title
        self.loops = loops
        self.plays = plays
        self.duration = duration
        self.state = state
        self.error = error
    }

    /// nil when `json` lacks the two fields every row needs: an integer id and a string uri.
    public init?(json: JSONValue) {
        guard let id = json["id"]?.intValue, let uri = json["uri"]?.stringValue else { return nil }
        self.init(
            id: id, uri: uri, title: json["title"]?.stringValue, loops: json["loops"]?.intValue ?? 1,
            plays: json["plays"]?.intValue ?? 0, duration: json["duration"]?.doubleValue,
            state: json["state"]?.stringValue ?? "queued", error: json["error"]?.stringValue)
        start = json["start"]?.doubleValue
        end = json["end"]?.doubleValue
        trackEnd = json["trackEnd"]?.stringValue
    }

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
               let value = UInt8(String(decoding: bytes[(index + 1)...(index + 2)], as: UTF8.self), radix: 16) {
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
