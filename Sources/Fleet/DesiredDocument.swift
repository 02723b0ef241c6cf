// A fleet's desired-state document (`queued/<player>/desired`, `queued/group/<group>/desired`, retained),
// read for its structure: the whole wanted state of a screen — `rev`, the queue's items and the player's
// settings and overlays. Refused here, whole and with the reason, is only what is not a document at all: not
// one JSON object of at most 1 MiB, a field this version does not know, no `rev`, a `queue` that is not an
// array. What the values may be (an item's fields, a volume's range, the rotations, an overlay's shape) is the
// daemon's typed definition of `state.apply` to judge — the bridge reads `applyParams` through it before
// anything changes — so no second copy of those rules lives here to disagree with it.
// Pure: bytes in, a document or a refusal out (Protocol/queued.asyncapi.yaml, DesiredState).

import JSONText

public struct DesiredDocument: Sendable, Equatable {
    /// Orders a player's documents (its own and its groups'): a higher `rev` is newer.
    public var rev: Int64
    /// Every other field as sent (`queue`, `loops`, `volume`, `fit`, `rotate`, `overlays`, `layout`, `zones`).
    public var fields: JSONObject

    public static let maxBytes = 1 << 20
    static let keys: Set<String> = ["rev", "queue", "loops", "volume", "fit", "rotate", "overlays", "layout", "zones"]

    /// The items as sent (URI strings or ItemInput objects).
    public var queue: [JSONValue] { fields["queue"]?.arrayValue ?? [] }

    /// The document as `state.apply`'s params by name: the queue swapped at the end of the current item, its
    /// loop count (1 when the document gives none), the rev, and the settings and overlays it gives (absent:
    /// left as they are; `overlays: []` removes them all). A `layout` ({"zones": [...]}, as layout.set) cuts the
    /// screen; `zones` gives other zones' queues as {"name": {"queue": [...], "loops": N}}.
    public var applyParams: JSONObject {
        var params: JSONObject = [
            "items": .array(queue), "loops": fields["loops"] ?? .int(1), "rev": .int(rev), "at": "itemEnd",
        ]
        for key in ["volume", "fit", "rotate", "overlays"] {
            if let value = fields[key] { params[key] = value }
        }
        // A layout object's zones, or what was sent when it is not one (the daemon's reading refuses it).
        if let layout = fields["layout"] { params["layout"] = layout["zones"] ?? layout }
        if let zones = fields["zones"] {
            guard let object = zones.objectValue else {
                params["zones"] = zones
                return params
            }
            params["zones"] = .object(JSONObject(object.map { name, queue in
                guard let fields = queue.objectValue else { return (name, queue) }
                var wanted: JSONObject = ["items": fields["queue"] ?? .array([]), "loops": fields["loops"] ?? .int(1)]
                for (key, value) in fields where key != "queue" && key != "loops" { wanted[key] = value }
                return (name, .object(wanted))
            }))
        }
        return params
    }

    public init(rev: Int64, fields: JSONObject) {
        self.rev = rev
        self.fields = fields
    }

    /// Reads a document; throws a refusal whose text says what is wrong.
    public init(bytes: [UInt8]) throws(DocumentRefusal) {
        guard bytes.count <= Self.maxBytes else {
            throw DocumentRefusal("the document is \(bytes.count) bytes, over the 1 MiB limit")
        }
        let value: JSONValue
        do { value = try JSON.parse(bytes) } catch { throw DocumentRefusal("not JSON: \(error)") }
        guard var object = value.objectValue else { throw DocumentRefusal("the document must be a JSON object") }
        if let unknown = object.keys.first(where: { !Self.keys.contains($0) }) {
            throw DocumentRefusal("unknown field '\(unknown)'")
        }
        guard let rev = object["rev"]?.intValue, rev >= 0 else {
            throw DocumentRefusal("'rev' must be an integer of 0 or more")
        }
        guard object["queue"]?.arrayValue != nil else { throw DocumentRefusal("'queue' must be an array") }
        object["rev"] = nil
        self.init(rev: rev, fields: object)
    }
}

/// Why a document was refused, as the `reported` document says it.
public struct DocumentRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}
