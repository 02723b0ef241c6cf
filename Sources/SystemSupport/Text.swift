// String helpers the daemon took from Foundation proper (CharacterSet trimming, NSString's path
// components, NSHomeDirectory); see Locks.swift for why not Foundation.

import Glibc

extension StringProtocol {
    /// Without spaces and tabs at either end (Foundation's `.whitespaces`, for the ASCII the daemon's
    /// config files, playlists and headers use).
    public func trimmingSpaces() -> String {
        trimmed { $0 == " " || $0 == "\t" }
    }

    /// Without spaces, tabs and line ends at either end.
    public func trimmingWhitespace() -> String {
        trimmed { $0.isWhitespace }
    }

    private func trimmed(_ isTrimmed: (Character) -> Bool) -> String {
        guard let first = firstIndex(where: { !isTrimmed($0) }) else { return "" }
        let last = lastIndex(where: { !isTrimmed($0) })!
        return String(self[first...last])
    }
}

extension Sequence<UInt8> {
    /// The bytes in lowercase hex, two digits each (a digest's usual spelling).
    public var hexDigits: String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in self {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

extension Double {
    /// The number with `places` digits after the point, rounded half away from zero ("%.1f" for the log).
    public func fixed(_ places: Int) -> String {
        guard isFinite else { return description }
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = (abs(self) * scale).rounded()
        guard scaled < 9e15 else { return description }
        let units = Int64(scaled)
        let whole = units / Int64(scale)
        var text = (self < 0 && units != 0 ? "-" : "") + String(whole)
        if places > 0 {
            let fraction = String(units % Int64(scale))
            text += "." + String(repeating: "0", count: places - fraction.count) + fraction
        }
        return text
    }
}

public enum PathText {
    /// The last component of `path` ("/a/b.mp4" → "b.mp4"; a trailing slash is ignored), as NSString's.
    public static func lastComponent(_ path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/"), trimmed != "/" else { return String(trimmed) }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// `path` without its last component ("/a/b.mp4" → "/a", "b.mp4" → "", "/b" → "/"), as NSString's.
    public static func deletingLastComponent(_ path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        if slash == trimmed.startIndex { return "/" }
        return String(trimmed[..<slash])
    }

    /// `text` with its %XX escapes decoded, or nil when one is malformed or the bytes are not UTF-8 (as
    /// Foundation's `removingPercentEncoding`).
    public static func percentDecoded(_ text: String) -> String? {
        guard text.contains("%") else { return text }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next()?.hexDigitValue, let low = iterator.next()?.hexDigitValue else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// An absolute path as a URL's path: every byte but letters, digits, "-._~" and "/" as %XX.
    public static func percentEncodedPath(_ path: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: "/"):
                bytes.append(byte)
            default:
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The user's home directory from the password database (for when $HOME is not set).
    public static func homeDirectory() -> String {
        guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return "/" }
        return String(cString: directory)
    }
}

extension UInt8 {
    /// The value of this byte as a hexadecimal digit (0-9, a-f, A-F), or nil.
    public var hexDigitValue: UInt8? {
        switch self {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): self - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): self - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): self - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
