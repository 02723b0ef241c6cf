// String literals: the hot part of parsing requests (every key and most values are strings). The fast
// path slices an escape-free string straight out of the input; only strings with backslashes are copied
// through `scratch`. UTF-8 is validated here, byte by byte, so an error can name the offending offset.

extension JSONParser {
    /// Reads a string whose opening quote was just consumed, through its closing quote.
    mutating func parseString() throws(JSONParseError) -> String {
        let start = position
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
                position += 1
                return text
            } else if byte == UInt8(ascii: "\\") {
                scratch.removeAll(keepingCapacity: true)
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<position]))
                return try parseEscapedString()
            } else if byte < 0x20 {
                throw error("unescaped control character in a string")
            } else if byte < 0x80 {
                position += 1
            } else {
                try skipMultiByteScalar()
            }
        }
        throw error("unterminated string")
    }

    /// The rest of a string once a backslash has been seen; everything before it is in `scratch`.
    private mutating func parseEscapedString() throws(JSONParseError) -> String {
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                return String(decoding: scratch, as: UTF8.self)
            } else if byte == UInt8(ascii: "\\") {
                try appendEscape()
            } else if byte < 0x20 {
                throw error("unescaped control character in a string")
            } else if byte < 0x80 {
                scratch.append(byte)
                position += 1
            } else {
                let start = position
                try skipMultiByteScalar()
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<position]))
            }
        }
        throw error("unterminated string")
    }

    /// One escape sequence starting at the backslash, appended to `scratch` as UTF-8.
    private mutating func appendEscape() throws(JSONParseError) {
        let start = position
        guard position + 1 < bytes.count else { throw error("unterminated string") }
        let simple: UInt8? =
            switch bytes[position + 1] {
            case UInt8(ascii: "\""): UInt8(ascii: "\"")
            case UInt8(ascii: "\\"): UInt8(ascii: "\\")
            case UInt8(ascii: "/"): UInt8(ascii: "/")
            case UInt8(ascii: "b"): 0x08
            case UInt8(ascii: "f"): 0x0C
            case UInt8(ascii: "n"): 0x0A
            case UInt8(ascii: "r"): 0x0D
            case UInt8(ascii: "t"): 0x09
            case UInt8(ascii: "u"): nil
            default: throw error("invalid escape sequence", at: start)
            }
        if let simple {
            scratch.append(simple)
            position += 2
            return
        }
        let unit = try readHexUnit()
        var scalarValue = UInt32(unit)
        switch unit {
        case 0xD800...0xDBFF:
            // A high surrogate is only meaningful followed by an escaped low one (UTF-16 pair).
            guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                bytes[position + 1] == UInt8(ascii: "u")
            else { throw error("unpaired surrogate \\u\(hex(unit))", at: start) }
            let low = try readHexUnit()
            guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired surrogate \\u\(hex(unit))", at: start) }
            scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
        case 0xDC00...0xDFFF:
            throw error("unpaired surrogate \\u\(hex(unit))", at: start)
        default:
            break
        }
        appendUTF8(scalarValue)
    }

    /// `\uXXXX` at `position`: consumes the six bytes and returns the code unit.
    private mutating func readHexUnit() throws(JSONParseError) -> UInt16 {
        let start = position
        guard bytes.count - position >= 6 else { throw error("invalid \\u escape", at: start) }
        var unit: UInt16 = 0
        for offset in 2..<6 {
            let byte = bytes[position + offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("invalid \\u escape", at: start)
            }
            unit = unit << 4 | UInt16(digit)
        }
        position += 6
        return unit
    }

    /// Validates one 2–4 byte UTF-8 sequence at `position` (Unicode table 3-7: no overlong forms, no
    /// surrogates, nothing above U+10FFFF) and steps over it.
    private mutating func skipMultiByteScalar() throws(JSONParseError) {
        let lead = bytes[position]
        let length: Int
        // The allowed range of the second byte depends on the lead; later bytes are always 80...BF.
        let second: ClosedRange<UInt8>
        switch lead {
        case 0xC2...0xDF: (length, second) = (2, 0x80...0xBF)
        case 0xE0: (length, second) = (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (length, second) = (3, 0x80...0xBF)
        case 0xED: (length, second) = (3, 0x80...0x9F)
        case 0xF0: (length, second) = (4, 0x90...0xBF)
        case 0xF1...0xF3: (length, second) = (4, 0x80...0xBF)
        case 0xF4: (length, second) = (4, 0x80...0x8F)
        default: throw error("invalid UTF-8")
        }
        guard bytes.count - position >= length, second.contains(bytes[position + 1]) else {
            throw error("invalid UTF-8")
        }
        for offset in 2..<length where bytes[position + offset] & 0xC0 != 0x80 {
            throw error("invalid UTF-8")
        }
        position += length
    }

    /// Appends a scalar value (never a surrogate: both callers rule them out) as UTF-8.
    private mutating func appendUTF8(_ value: UInt32) {
        switch value {
        case ..<0x80:
            scratch.append(UInt8(value))
        case ..<0x800:
            scratch.append(0xC0 | UInt8(value >> 6))
            scratch.append(0x80 | UInt8(value & 0x3F))
        case ..<0x10000:
            scratch.append(0xE0 | UInt8(value >> 12))
            scratch.append(0x80 | UInt8(value >> 6 & 0x3F))
            scratch.append(0x80 | UInt8(value & 0x3F))
        default:
            scratch.append(0xF0 | UInt8(value >> 18))
            scratch.append(0x80 | UInt8(value >> 12 & 0x3F))
            scratch.append(0x80 | UInt8(value >> 6 & 0x3F))
            scratch.append(0x80 | UInt8(value & 0x3F))
        }
    }

    private func hex(_ unit: UInt16) -> String {
        let digits = String(unit, radix: 16, uppercase: true)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }
}
