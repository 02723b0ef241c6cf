// The byte-level JSON reader behind `JSON.parse`. Fed one complete text (a request line) by JSON.parse;
// returns a JSONValue or the first error. It must never trap or recurse on hostile input: the container
// stack is an explicit array, so depth is bounded by `JSON.maxDepth` and not by the thread's stack size.
//
// It reads through an UnsafeBufferPointer, not a generic Collection, because indexing a generic
// collection byte by byte costs several times as much; the pointer never leaves this file's callers
// (JSON.parse keeps the storage alive for the whole call).

/// One parse over one buffer. Not reused between inputs.
struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    /// Offset of the next unread byte.
    var position = 0
    /// Reused buffer for strings that contain escapes.
    var scratch: [UInt8] = []

    /// An open array or object: where its elements (and, for objects, keys) start on the work stacks.
    private struct Frame {
        let isObject: Bool
        let valueStart: Int
        let keyStart: Int
    }

    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<JSONValue, JSONParseError> {
        var parser = JSONParser(bytes: bytes)
        do throws(JSONParseError) {
            return .success(try parser.parseDocument())
        } catch {
            return .failure(error)
        }
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    private mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        // Finished values whose container is still open, in order; a closing bracket moves its slice out.
        var pending: [JSONValue] = []
        // Keys of open objects, parallel to their values in `pending`.
        var keys: [String] = []
        var frames: [Frame] = []

        skipWhitespace()
        while true {
            // Read one value, or open a container and go round again for its first element.
            guard position < bytes.count else { throw error("unexpected end of input, expected a value") }
            var value: JSONValue
            switch bytes[position] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = bytes[position] == UInt8(ascii: "{")
                guard frames.count < JSON.maxDepth else {
                    throw error("containers nested deeper than \(JSON.maxDepth) levels")
                }
                position += 1
                skipWhitespace()
                if position < bytes.count, bytes[position] == UInt8(ascii: isObject ? "}" : "]") {
                    position += 1
                    value = isObject ? .object(JSONObject()) : .array([])
                } else {
                    frames.append(Frame(isObject: isObject, valueStart: pending.count, keyStart: keys.count))
                    if isObject { keys.append(try parseKey()) }
                    continue
                }
            case UInt8(ascii: "\""):
                position += 1
                value = .string(try parseString())
            case UInt8(ascii: "t"):
                try expectLiteral("true")
                value = .bool(true)
            case UInt8(ascii: "f"):
                try expectLiteral("false")
                value = .bool(false)
            case UInt8(ascii: "n"):
                try expectLiteral("null")
                value = .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                value = try parseNumber()
            default:
                throw unexpectedByte(expected: "a value")
            }

            // Hand the value to its container, closing every container that ends right after it.
            while true {
                guard let frame = frames.last else {
                    skipWhitespace()
                    guard position == bytes.count else { throw unexpectedByte(expected: "the end of input") }
                    return value
                }
                pending.append(value)
                skipWhitespace()
                guard position < bytes.count else {
                    throw error("unexpected end of input, expected ',' or '\(frame.isObject ? "}" : "]")'")
                }
                let byte = bytes[position]
                if byte == UInt8(ascii: ",") {
                    position += 1
                    skipWhitespace()
                    if frame.isObject { keys.append(try parseKey()) }
                    break
                }
                if frame.isObject, byte == UInt8(ascii: "}") {
                    value = .object(JSONObject(keys: keys[frame.keyStart...], values: pending[frame.valueStart...]))
                    keys.removeSubrange(frame.keyStart...)
                } else if !frame.isObject, byte == UInt8(ascii: "]") {
                    value = .array(Array(pending[frame.valueStart...]))
                } else {
                    throw unexpectedByte(expected: frame.isObject ? "',' or '}'" : "',' or ']'")
                }
                position += 1
                pending.removeSubrange(frame.valueStart...)
                frames.removeLast()
            }
        }
    }

    /// `"key"` then `:` and the whitespace around it; leaves `position` at the member's value.
    private mutating func parseKey() throws(JSONParseError) -> String {
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
            throw unexpectedByte(expected: "a string key")
        }
        position += 1
        let key = try parseString()
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
            throw unexpectedByte(expected: "':' after an object key")
        }
        position += 1
        skipWhitespace()
        return key
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let start = position
        let count = literal.utf8CodeUnitCount
        guard bytes.count - start >= count else { throw error("invalid literal", at: start) }
        let matches = literal.withUTF8Buffer { expected in
            expected.indices.allSatisfy { bytes[start + $0] == expected[$0] }
        }
        guard matches else { throw error("invalid literal", at: start) }
        position += count
    }

    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                position += 1
            default:
                return
            }
        }
    }

    func error(_ reason: String, at offset: Int? = nil) -> JSONParseError {
        JSONParseError(offset: offset ?? position, reason: reason)
    }

    /// "unexpected 'x', expected …", naming the byte readably (printable ASCII as itself, else hex).
    func unexpectedByte(expected: String) -> JSONParseError {
        guard position < bytes.count else { return error("unexpected end of input, expected \(expected)") }
        let byte = bytes[position]
        let shown: String
        if (0x21...0x7E).contains(byte) {
            shown = "'\(Character(Unicode.Scalar(byte)))'"
        } else {
            let hex = String(byte, radix: 16, uppercase: true)
            shown = "byte 0x\(hex.count == 1 ? "0" : "")\(hex)"
        }
        return error("unexpected \(shown), expected \(expected)")
    }
}
