// Why text is not JSON, and where: the server puts `description` into its -32700 answer, so a client
// author can find the broken byte.

/// A parse failure at byte `offset` of the input (0-based; the input's length for "unexpected end").
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public let offset: Int
    public let reason: String

    public init(offset: Int, reason: String) {
        self.offset = offset
        self.reason = reason
    }

    public var description: String { "\(reason) at byte \(offset)" }
}
