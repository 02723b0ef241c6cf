// A JSON-RPC request id: echoed back verbatim in the response, so it keeps the exact JSON value it was
// read as (`7`, `7.5`, `"abc"` or `null`); a client matching responses compares these.

/// The id of a JSON-RPC request: a string, a number, or null (JSON-RPC 2.0 §4).
///
/// A number stays in the form it was parsed as, so `1` and `1.0` are different ids, as the client wrote
/// them; the server echoes either unchanged.
public struct RPCID: Sendable, Hashable, CustomStringConvertible {
    /// `.string`, `.int`, `.double` or `.null`, never anything else.
    public let value: JSONValue

    /// nil when `value` is not a string, number or null (an array, object or boolean id is an invalid
    /// request).
    public init?(_ value: JSONValue) {
        switch value {
        case .string, .int, .double, .null:
            self.value = value
        case .bool, .array, .object:
            return nil
        }
    }

    public init(_ int: Int64) {
        value = .int(int)
    }

    public init(_ string: String) {
        value = .string(string)
    }

    /// The id of answers to requests whose own id could not be read (parse errors, invalid requests).
    public static let null = RPCID(uncheckedValue: .null)

    private init(uncheckedValue: JSONValue) {
        value = uncheckedValue
    }

    public var isNull: Bool { value.isNull }

    /// The id as JSON text: `7`, `"abc"`, `null`.
    public var description: String { JSON.string(value) }
}

extension RPCID: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int64) {
        self.init(value)
    }
}

extension RPCID: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) {
        self.init(value)
    }
}
