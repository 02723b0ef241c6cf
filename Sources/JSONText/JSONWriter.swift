// Compact JSON text for `JSON.serialize`: fed JSONValues by RPCEncode (every response and event goes
// through here), feeds bytes to the socket. Appends into one growing array; strings are copied in runs
// between the bytes that need escaping rather than byte by byte.
//
// It also streams: `beginObject`/`key`/`value`/`end…` write a value member by member without building a
// JSONValue tree first, for the state files' writer, which encodes every acknowledged change (a tree
// costs an allocation per object and member; streamed, a record is appended to one reused buffer).

/// Accumulates the compact JSON text of values.
public struct JSONWriter: Sendable {
    public private(set) var bytes: [UInt8] = []
    /// Streaming: a value written now follows another in the same array or object (a comma first).
    private var followsValue = false

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    public init() {
        bytes.reserveCapacity(256)
    }

    /// Empties the text, keeping its storage.
    public mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        followsValue = false
    }

    // MARK: Streaming

    public mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        followsValue = false
    }

    public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        followsValue = true
    }

    public mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        followsValue = false
    }

    public mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        followsValue = true
    }

    /// A member's name (a literal of plain ASCII letters, digits and `_`: written without escaping); its
    /// value comes next.
    public mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        append(name)
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        followsValue = false
    }

    public mutating func value(_ text: String) {
        separate()
        write(text)
        followsValue = true
    }

    public mutating func value(_ integer: Int) {
        separate()
        write(Int64(integer))
        followsValue = true
    }

    public mutating func value(_ integer: UInt64) {
        value(JSONValue.int(Int64(bitPattern: integer)))
    }

    public mutating func value(_ number: Double) {
        value(JSONValue.double(number))
    }

    public mutating func value(_ flag: Bool) {
        separate()
        append(flag ? "true" : "false")
        followsValue = true
    }

    /// Any value, tree and all.
    public mutating func value(_ value: JSONValue) {
        separate()
        write(value)
        followsValue = true
    }

    /// A member: its name, then its value. The optional forms leave a nil member out.
    public mutating func member(_ name: StaticString, _ text: String?) {
        guard let text else { return }
        key(name)
        value(text)
    }

    public mutating func member(_ name: StaticString, _ integer: Int?) {
        guard let integer else { return }
        key(name)
        value(integer)
    }

    public mutating func member(_ name: StaticString, _ integer: UInt64) {
        key(name)
        value(integer)
    }

    public mutating func member(_ name: StaticString, _ number: Double?) {
        guard let number else { return }
        key(name)
        value(number)
    }

    public mutating func member(_ name: StaticString, _ flag: Bool) {
        key(name)
        value(flag)
    }

    private mutating func separate() {
        if followsValue { bytes.append(UInt8(ascii: ",")) }
    }

    // MARK: Trees

    mutating func write(_ value: JSONValue) {
        switch value {
        case .null:
            append("null")
        case .bool(let flag):
            append(flag ? "true" : "false")
        case .int(let integer):
            write(integer)
        case .double(let number):
            // Swift's description is the shortest text that reads back as the same double, and its
            // forms ("0.1", "1e-05", "1e+20", "-0.0") are all valid JSON numbers.
            if number.isFinite { bytes.append(contentsOf: number.description.utf8) } else { append("null") }
        case .string(let text):
            write(text)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (offset, element) in elements.enumerated() {
                if offset > 0 { bytes.append(UInt8(ascii: ",")) }
                write(element)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let object):
            bytes.append(UInt8(ascii: "{"))
            var first = true
            for (key, member) in object {
                if !first { bytes.append(UInt8(ascii: ",")) }
                first = false
                write(key)
                bytes.append(UInt8(ascii: ":"))
                write(member)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    private mutating func append(_ literal: StaticString) {
        literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    private mutating func write(_ integer: Int64) {
        if integer < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = integer.magnitude
        var digitCount = 1
        var probe = magnitude
        while probe >= 10 {
            probe /= 10
            digitCount += 1
        }
        // Reserve the digits, then fill them from the right.
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: digitCount))
        var index = bytes.count - 1
        repeat {
            bytes[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
            index -= 1
        } while magnitude > 0
    }

    private mutating func write(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var runStart = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                runStart = index + 1
                if byte >= 0x20 {
                    bytes.append(UInt8(ascii: "\\"))
                    bytes.append(byte)
                } else {
                    // RFC 8259 allows the short forms too; one form for all controls keeps the rule simple.
                    bytes.append(contentsOf: [
                        UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"),
                        UInt8(ascii: "0"), Self.hexDigits[Int(byte >> 4)],
                        Self.hexDigits[Int(byte & 0x0F)],
                    ])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
