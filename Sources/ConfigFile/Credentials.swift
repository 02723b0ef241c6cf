// A credentials file (queued-mqtt's and `queuectl fleet`'s --credentials): `username=` and `password=` lines
// in the config files' syntax, refused unless only its owner may read it (mode 0600), so a password never
// sits in a world-readable file or on a command line.

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

    /// Reads `path`; the error says why it was refused (unreadable, readable by others, another option).
    public static func read(path: String) throws(ParseError) -> Credentials {
        try ConfigFile.checkPrivate(path: path)
        guard let file = try ConfigFile.read(path: path) else {
            throw ParseError(path: path, line: 0, reason: "cannot read it")
        }
        var credentials = Credentials()
        for setting in file.settings {
            switch (setting.arguments.first, setting.arguments.count) {
            case ("--username", 2): credentials.username = setting.arguments[1]
            case ("--password", 2): credentials.password = setting.arguments[1]
            default: throw ParseError(path: path, line: setting.line, reason: "only username= and password= lines")
            }
        }
        return credentials
    }

    public typealias ParseError = ConfigFile.ParseError
}
