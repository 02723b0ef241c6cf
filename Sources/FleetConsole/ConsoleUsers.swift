// The console's users: a file of `name:role:bcrypt-hash` lines (mode 0600, written atomically), read at start
// and changed by an admin through the page. Roles: `viewer` sees, `operator` also pushes and sends commands,
// `admin` also manages users. A password is checked with bcrypt on WebControl's one password thread.
// Threads: an actor; the file is written on the actor (small, rare).

import Foundation
import HummingbirdBcrypt
import WebControl

public enum Role: String, Sendable, CaseIterable, Comparable {
    case viewer, operator_ = "operator", admin

    var rank: Int { self == .viewer ? 0 : self == .operator_ ? 1 : 2 }
    public static func < (a: Role, b: Role) -> Bool { a.rank < b.rank }
}

public actor ConsoleUsers {
    public struct User: Sendable, Equatable {
        public var name: String
        public var role: Role
        var hash: String
    }

    private let path: String
    private var users: [String: User]
    /// The file's modification time when last read: a change by hand or by `--add-user` is read again.
    private var readAt: timespec?

    /// Reads `path` (missing: no users yet). A line that is not `name:role:hash` is refused with its number.
    public init(path: String) throws {
        self.path = path
        users = try Self.read(path)
        readAt = Self.modified(path)
    }

    static func modified(_ path: String) -> timespec? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mtim : nil
    }

    /// Reads the file again when it changed since (a bad file keeps the users as they were, and says so).
    private func refresh() {
        let now = Self.modified(path)
        guard now?.tv_sec != readAt?.tv_sec || now?.tv_nsec != readAt?.tv_nsec else { return }
        readAt = now
        if let fresh = try? Self.read(path) { users = fresh }
    }

    static func read(_ path: String) throws -> [String: User] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [:] }
        var users: [String: User] = [:]
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let fields = trimmed.split(separator: ":", maxSplits: 2).map(String.init)
            guard fields.count == 3, isName(fields[0]), let role = Role(rawValue: fields[1]), fields[2].hasPrefix("$2")
            else { throw ConsoleError("\(path):\(number + 1): not name:role:bcrypt-hash") }
            users[fields[0]] = User(name: fields[0], role: role, hash: fields[2])
        }
        return users
    }

    /// A user name: 1–64 of letters, digits, `-_.@`.
    public static func isName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 64
            && name.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
                    || byte == UInt8(ascii: "@")
            }
    }

    /// The user `name` if `password` is theirs.
    public func check(name: String, password: String) async -> User? {
        refresh()
        // An unknown name costs a bcrypt check too, so timing does not tell which names exist.
        let hash = users[name]?.hash ?? Self.decoyHash
        let matches = (try? await AccessKey.passwordPool.runIfActive { Bcrypt.verify(password, hash: hash) }) ?? false
        guard matches, let user = users[name] else { return nil }
        return user
    }

    /// At the cost real users' hashes are made with, so an unknown name takes as long as a known one.
    private static let decoyHash = Bcrypt.hash("not a password of anyone's", cost: 12)

    public var list: [User] { users.values.sorted { $0.name < $1.name } }

    public func role(of name: String) -> Role? {
        refresh()
        return users[name]?.role
    }

    /// Adds or changes `name` (a password of at least 8 characters), and writes the file.
    public func set(name: String, role: Role, password: String) async throws {
        guard Self.isName(name) else { throw ConsoleError("a user name is 1 to 64 of letters, digits and - _ . @") }
        guard password.count >= 8, password.utf8.count <= 72 else {
            throw ConsoleError("a password is 8 to 72 bytes")
        }
        if users[name]?.role == .admin, role != .admin, users.values.filter({ $0.role == .admin }).count == 1 {
            throw ConsoleError("\(name) is the last admin")
        }
        let hash = try await AccessKey.passwordPool.runIfActive { Bcrypt.hash(password, cost: 12) }
        users[name] = User(name: name, role: role, hash: hash)
        try write()
        readAt = Self.modified(path)
    }

    /// Removes `name`; the last admin cannot be removed (nobody could manage users then).
    public func remove(name: String) throws {
        guard let user = users[name] else { throw ConsoleError("no user \(name)") }
        if user.role == .admin, users.values.filter({ $0.role == .admin }).count == 1 {
            throw ConsoleError("\(name) is the last admin")
        }
        users[name] = nil
        try write()
        readAt = Self.modified(path)
    }

    private func write() throws {
        let text = users.values.sorted { $0.name < $1.name }.map { "\($0.name):\($0.role.rawValue):\($0.hash)\n" }.joined()
        let temporary = path + ".tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]),
            rename(temporary, path) == 0
        else { throw ConsoleError("cannot write \(path): \(String(cString: strerror(errno)))") }
    }
}
