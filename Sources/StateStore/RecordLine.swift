// How one record is framed in the state files: "<crc32 as 8 hex digits> <json>\n". The checksum covers
// the JSON bytes, so a torn write (power loss mid-line), a flipped bit or a line spliced from elsewhere
// is recognised and reading stops there: what comes back is always a prefix of what was written.

import CZlib
import FoundationEssentials
import Glibc
import SystemSupport
import JSONText

enum RecordLine {
    /// Appends the framed line of the JSON text `json` (one line: the writer escapes newlines in strings).
    static func append(_ json: [UInt8], to data: inout Data) {
        let sum = json.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, uInt($0.count))) }
        let prefix: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (
            hex(sum >> 28), hex(sum >> 24), hex(sum >> 20), hex(sum >> 16), hex(sum >> 12), hex(sum >> 8),
            hex(sum >> 4), hex(sum), 0x20
        )
        withUnsafeBytes(of: prefix) { data.append(contentsOf: $0) }
        data.append(contentsOf: json)
        data.append(0x0A)
    }

    private static func hex(_ value: UInt32) -> UInt8 { hexDigits[Int(value & 0xF)] }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// The JSON of a framed line (without its "\n") lent as bytes: a slice of them, not a copy (a restore
    /// reads a million); nil when the frame or the checksum is wrong.
    static func unframe(_ line: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
        guard line.count > 9, line[8] == 0x20 else { return nil }
        var expected: UInt32 = 0
        for index in 0..<8 {
            guard let digit = line[index].hexDigitValue else { return nil }
            expected = expected << 4 | UInt32(digit)
        }
        let json = UnsafeBufferPointer(rebasing: line[9...])
        return UInt32(crc32(0, json.baseAddress, uInt(json.count))) == expected ? json : nil
    }

    static func checksum(_ bytes: Data) -> UInt32 {
        bytes.withUnsafeBytes { raw in
            UInt32(crc32(0, raw.bindMemory(to: UInt8.self).baseAddress, uInt(raw.count)))
        }
    }
}
