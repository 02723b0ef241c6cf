/// The stable name of one queued item.
///
/// Handed out by `PlayQueue` in increasing order starting at 1 and never reused (not even after `clear()`),
/// so a client holding an id can never act on a different item by mistake. On the wire it is a plain integer.
public struct ItemID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: Int

    public init(_ rawValue: Int) {
        self.rawValue = rawValue
    }

    public var description: String { "\(rawValue)" }

    public static func < (lhs: ItemID, rhs: ItemID) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    // Encoded as a bare Int rather than `{"rawValue": 3}`: ids appear everywhere in the protocol.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self.init(try container.decode(Int.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
