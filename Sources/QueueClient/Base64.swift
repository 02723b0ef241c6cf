// Base64 decoding (RFC 4648, standard alphabet) for player.screenshot's {png}: a dozen lines here instead
// of linking Foundation into queuectl just for Data(base64Encoded:).

public enum Base64 {
    /// The bytes, or nil when `text` is not valid base64. Whitespace (line breaks) is ignored; padding is
    /// optional.
    public static func decode(_ text: String) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        var padding = 0
        for byte in text.utf8 {
            if byte == 0x20 || byte == 0x0a || byte == 0x0d || byte == 0x09 { continue }
            if byte == UInt8(ascii: "=") {
                padding += 1
                continue
            }
            // Data after padding is malformed.
            guard padding == 0, let value = sextet(byte) else { return nil }
            accumulator = (accumulator << 6) | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8((accumulator >> UInt32(bits)) & 0xff))
            }
        }
        // A lone leftover sextet (bits == 6) cannot encode a byte; more than two '=' is not base64.
        guard bits != 6, padding <= 2 else { return nil }
        return output
    }

    private static func sextet(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): return 62
        case UInt8(ascii: "/"): return 63
        default: return nil
        }
    }
}
