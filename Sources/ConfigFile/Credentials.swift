// A credentials file (queued-mqtt's and `queuectl fleet`'s --credentials): `username=` and `password=` lines,
// refused unless only its owner — the user running us — may read it (mode 0600), so a password never sits in
// a world-readable file or on a command line. Read by its own rules, not the config files': a value is taken
// whole after its `=` (a `#` in a password is part of it; only a line starting with `#` is a comment), may be
// double-quoted, and a malformed line is reported by its number only — never echoed, since it may hold the
// secret.

import FoundationEssentials
import Glibc
import SystemSupport

public struct Credentials: Equatable, Sendable {
    public var username: String?
    public var password: String?

    public init(username: String? = nil, password: String? = nil) {
        self.username = username
        self.password = password
    }

    /// Reads `path`; the error says why it was refused (unreadable, readable by others, owned by another
    /// user, a line that is not username= or password=).
    public static func read(path: String) throws(ParseError) -> Credentials {
        try ConfigFile.checkPrivate(path: path)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ParseError(path: path, line: 0, reason: "cannot read it")
        }
        return try Credentials(parsing: String(decoding: data, as: UTF8.self), path: path)
    }

    /// The lines of a credentials file; `path` only names it in errors.
    public init(parsing text: String, path: String) throws(ParseError) {
        self.init()
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = raw.trimmingSpaces()
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let equals = line.firstIndex(of: "=") else {
                throw ParseError(
                    path: path, line: index + 1, reason: "expected username=NAME or password=SECRET (the line is not shown)")
            }
            let name = line[..<equals].trimmingSpaces()
            var value = line[line.index(after: equals)...].trimmingSpaces()
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            switch name {
            case "username": username = value
            case "password": password = value
            default:
                throw ParseError(
                    path: path, line: index + 1, reason: "only username= and password= lines (the line is not shown)")
            }
        }
    }

    public typealias ParseError = ConfigFile.ParseError
}
