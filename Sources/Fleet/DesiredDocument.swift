// A fleet's desired-state document (`queued/<player>/desired`, `queued/group/<group>/desired`, retained),
// read and checked: the whole wanted state of a screen — `rev`, the queue's items and the player's settings.
// A document is refused whole, with the reason, when it is not one JSON object of at most 1 MiB, has a
// field this version does not know, or a field of the wrong type; the values themselves (URIs, loops,
// schedules) are the daemon's to judge, and `queue.replace` refuses the whole swap if one is wrong.
// Pure: bytes in, a document or a refusal out (Protocol/queued.asyncapi.yaml, DesiredState).

import JSONText

public struct DesiredDocument: Sendable, Equatable {
    /// Orders a player's documents (its own and its groups'): a higher `rev` is newer.
    public var rev: Int64
    /// The items, as ItemInput objects for `queue.replace` (only the known keys, checked for type).
    public var queue: [JSONValue]
    public var loops: Int64?
    public var volume: Int64?
    public var fit: String?
    public var rotate: Int64?
    /// Overlay definitions as `overlay.add` takes them; the document's set replaces the overlays.
    public var overlays: [JSONObject]?

    public static let maxBytes = 1 << 20
    static let keys: Set<String> = ["rev", "queue", "loops", "volume", "fit", "rotate", "overlays"]
    static let itemKeys: Set<String> = [
        "uri", "sha256", "title", "loops", "trackEnd", "schedule", "start", "end", "duration", "transition", "motion",
    ]

    /// The http(s) items' URIs (what the bridge has the daemon download before the swap).
    public var networkURIs: [String] {
        queue.compactMap { $0["uri"]?.stringValue }.filter { $0.hasPrefix("http://") || $0.hasPrefix("https://") }
    }

    /// The SHA-256 each http(s) item's file must have, where the document gives one (lowercase): the
    /// download counts as done only when the file matches.
    public var networkDigests: [String: String] {
        var digests: [String: String] = [:]
        for item in queue {
            guard let uri = item["uri"]?.stringValue, uri.hasPrefix("http://") || uri.hasPrefix("https://"),
                let digest = item["sha256"]?.stringValue?.lowercased(), digests[uri] == nil
            else { continue }
            digests[uri] = digest
        }
        return digests
    }

    public init(
        rev: Int64, queue: [JSONValue], loops: Int64? = nil, volume: Int64? = nil, fit: String? = nil,
        rotate: Int64? = nil, overlays: [JSONObject]? = nil
    ) {
        self.rev = rev
        self.queue = queue
        self.loops = loops
        self.volume = volume
        self.fit = fit
        self.rotate = rotate
        self.overlays = overlays
    }

    /// Reads a document; throws a refusal whose text says what is wrong.
    public init(bytes: [UInt8]) throws(DocumentRefusal) {
        guard bytes.count <= Self.maxBytes else {
            throw DocumentRefusal("the document is \(bytes.count) bytes, over the 1 MiB limit")
        }
        let value: JSONValue
        do { value = try JSON.parse(bytes) } catch { throw DocumentRefusal("not JSON: \(error)") }
        guard let object = value.objectValue else { throw DocumentRefusal("the document must be a JSON object") }
        if let unknown = object.keys.first(where: { !Self.keys.contains($0) }) {
            throw DocumentRefusal("unknown field '\(unknown)'")
        }
        guard let rev = object["rev"]?.intValue, rev >= 0 else {
            throw DocumentRefusal("'rev' must be an integer of 0 or more")
        }
        guard let items = object["queue"]?.arrayValue else { throw DocumentRefusal("'queue' must be an array") }
        var queue: [JSONValue] = []
        for (index, item) in items.enumerated() {
            queue.append(try Self.item(item, index: index))
        }
        self.init(rev: rev, queue: queue)
        loops = try Self.integer(object, "loops", 0...Int64(Int32.max))
        volume = try Self.integer(object, "volume", 0...100)
        rotate = try Self.integer(object, "rotate", 0...270)
        if let fit = object["fit"] {
            guard let text = fit.stringValue, ["fit", "fill", "stretch"].contains(text) else {
                throw DocumentRefusal("'fit' must be \"fit\", \"fill\" or \"stretch\"")
            }
            self.fit = text
        }
        if let overlays = object["overlays"] {
            guard let list = overlays.arrayValue?.compactMap(\.objectValue), list.count == overlays.arrayValue?.count
            else { throw DocumentRefusal("'overlays' must be an array of objects") }
            self.overlays = list
        }
    }

    /// An item: a URI string, or an object of the known keys with a string `uri`.
    private static func item(_ value: JSONValue, index: Int) throws(DocumentRefusal) -> JSONValue {
        if let uri = value.stringValue { return .object(["uri": .string(uri)]) }
        guard let object = value.objectValue else {
            throw DocumentRefusal("queue[\(index)] must be a URI or an object")
        }
        if let unknown = object.keys.first(where: { !itemKeys.contains($0) }) {
            throw DocumentRefusal("queue[\(index)]: unknown field '\(unknown)'")
        }
        guard object["uri"]?.stringValue != nil else { throw DocumentRefusal("queue[\(index)]: 'uri' must be a string") }
        return value
    }

    private static func integer(
        _ object: JSONObject, _ key: String, _ range: ClosedRange<Int64>
    ) throws(DocumentRefusal) -> Int64? {
        guard let value = object[key] else { return nil }
        guard let number = value.intValue, range.contains(number) else {
            throw DocumentRefusal("'\(key)' must be an integer in \(range.lowerBound)…\(range.upperBound)")
        }
        return number
    }
}

/// Why a document was refused, as the `reported` document says it.
public struct DocumentRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}
