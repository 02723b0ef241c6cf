// The JSON value every wire type is built from. Parsed by `JSONParser`, written by `JSONWriter`, both
// byte-level: the daemon answers tens of thousands of requests per second on one core, so no Foundation.

/// One JSON value (RFC 8259).
///
/// Numbers keep the form they were written in: an integer literal that fits `Int64` is `.int`, anything
/// else (a fraction, an exponent, an integer too large for `Int64`) is `.double`. Equality follows the
/// cases, so `.int(1) != .double(1.0)`; use `intValue`/`doubleValue` to compare numerically.
/// Objects compare as JSON objects do: member order does not matter (see `JSONObject`).
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    public var isNull: Bool {
        if case .null = self { true } else { false }
    }

    public var boolValue: Bool? {
        if case .bool(let value) = self { value } else { nil }
    }

    /// An `.int`, or a `.double` with no fractional part that fits `Int64` (`2.0` is a fine count: JSON
    /// has only one number type and some clients always write a fraction).
    public var intValue: Int64? {
        switch self {
        case .int(let value): value
        case .double(let value): Int64(exactly: value)
        default: nil
        }
    }

    /// Any number as a `Double` (an `.int` beyond 2^53 is rounded).
    public var doubleValue: Double? {
        switch self {
        case .int(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }

    public var stringValue: String? {
        if case .string(let value) = self { value } else { nil }
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { value } else { nil }
    }

    public var objectValue: JSONObject? {
        if case .object(let value) = self { value } else { nil }
    }

    /// The member `key` of an object; nil when this is not an object or has no such member.
    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { object[key] } else { nil }
    }

    /// The element at `index` of an array; nil when this is not an array or the index is out of range.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }
}

extension JSONValue: CustomStringConvertible {
    /// The compact JSON text, so logs and test failures show what goes on the wire.
    public var description: String { JSON.string(self) }
}
