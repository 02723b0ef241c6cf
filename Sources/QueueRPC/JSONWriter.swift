// Compact JSON text for `JSON.serialize`: fed JSONValues by RPCEncode (every response and event goes
// through here), feeds bytes to the socket. Appends into one growing array; strings are copied in runs
// between the bytes that need escaping rather than byte by byte.

/// Accumulates the compact JSON text of values.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    init() {
        bytes.reserveCapacity(256)
    }

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
