// Number literals. Integers (ids, counts, indices) are the common case and are read straight into an
// Int64; decimals take Clinger's exact fast path when they can and fall back to the standard library's
// correctly rounded conversion otherwise, so every double is the one nearest the text.

extension JSONParser {
    /// 10^0 ... 10^22: every one is exactly representable as a Double, which the fast path relies on.
    private static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?` at `position`.
    mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = position
        let negative = bytes[position] == UInt8(ascii: "-")
        if negative { position += 1 }

        // Integer part, accumulated negatively so that Int64.min fits; nil once it overflows.
        guard position < bytes.count, isDigit(bytes[position]) else { throw unexpectedByte(expected: "a digit") }
        var integer: Int64? = 0
        // Significant digits for the double fast path (at most 19, so it cannot overflow a UInt64).
        var mantissa: UInt64 = 0
        var mantissaDigits = 0
        // Digits dropped from the mantissa move the decimal exponent instead.
        var exponentAdjust = 0
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if position < bytes.count, isDigit(bytes[position]) {
                throw error("leading zeros are not allowed in numbers", at: position - 1)
            }
        } else {
            while position < bytes.count, isDigit(bytes[position]) {
                let digit = bytes[position] &- UInt8(ascii: "0")
                if let value = integer {
                    let (scaled, overflow1) = value.multipliedReportingOverflow(by: 10)
                    let (next, overflow2) = scaled.subtractingReportingOverflow(Int64(digit))
                    integer = overflow1 || overflow2 ? nil : next
                }
                accumulate(digit, into: &mantissa, digits: &mantissaDigits, dropped: &exponentAdjust)
                position += 1
            }
        }

        var isInteger = true
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard position < bytes.count, isDigit(bytes[position]) else {
                throw unexpectedByte(expected: "a digit after '.'")
            }
            while position < bytes.count, isDigit(bytes[position]) {
                let before = exponentAdjust
                accumulate(
                    bytes[position] &- UInt8(ascii: "0"), into: &mantissa, digits: &mantissaDigits,
                    dropped: &exponentAdjust)
                // A fraction digit that made it into the mantissa shifts the point one place left;
                // one that was dropped changes nothing.
                if exponentAdjust == before { exponentAdjust -= 1 } else { exponentAdjust = before }
                position += 1
            }
        }

        var exponent = 0
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            position += 1
            var exponentNegative = false
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                exponentNegative = bytes[position] == UInt8(ascii: "-")
                position += 1
            }
            guard position < bytes.count, isDigit(bytes[position]) else {
                throw unexpectedByte(expected: "a digit in the exponent")
            }
            while position < bytes.count, isDigit(bytes[position]) {
                // Clamped: anything this large is 0 or out of range anyway, and it must not overflow.
                exponent = min(exponent * 10 + Int(bytes[position] &- UInt8(ascii: "0")), 100_000)
                position += 1
            }
            if exponentNegative { exponent = -exponent }
        }

        if isInteger, let value = integer {
            if !negative {
                guard value != .min else { return .double(9_223_372_036_854_775_808.0) }
                return .int(-value)
            }
            return .int(value)
        }

        let value = try makeDouble(
            mantissa: mantissa, digits: mantissaDigits, exponent: exponent + exponentAdjust,
            textStart: start)
        return .double(negative ? -value : value)
    }

    /// The magnitude of the number as a Double: exact fast path when mantissa and power of ten are both
    /// exact doubles (then one IEEE operation rounds correctly), else the standard library on the text.
    private func makeDouble(
        mantissa: UInt64, digits: Int, exponent: Int, textStart: Int
    ) throws(JSONParseError)
        -> Double
    {
        if mantissa == 0 { return 0 }
        if mantissa < 1 << 53, (-22...22).contains(exponent) {
            let significand = Double(mantissa)
            return exponent < 0
                ? significand / Self.exactPowersOfTen[-exponent] : significand * Self.exactPowersOfTen[exponent]
        }
        // Slow path: rare in practice (17-digit decimals, huge or tiny exponents).
        var text = String(decoding: UnsafeBufferPointer(rebasing: bytes[textStart..<position]), as: UTF8.self)
        if text.hasPrefix("-") { text.removeFirst() }
        guard let value = Double(text), value.isFinite else {
            throw error("number out of range", at: textStart)
        }
        return value
    }

    /// Adds a digit to the fast-path mantissa, or counts it as dropped once 19 digits are held.
    /// Leading zeros (before any significant digit) are not counted.
    private func accumulate(_ digit: UInt8, into mantissa: inout UInt64, digits: inout Int, dropped: inout Int) {
        if digits < 19 {
            mantissa = mantissa * 10 + UInt64(digit)
            if mantissa != 0 { digits += 1 }
        } else {
            dropped += 1
        }
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }
}
