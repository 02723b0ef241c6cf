// The console's users: a file of `name:role:bcrypt-hash` lines (mode 0600, written atomically), read at start
// and changed by an admin through the page. Roles: `viewer` sees, `operator` also pushes and sends commands,
// `admin` also manages users. A password is checked with bcrypt on WebControl's one password thread.
// Threads: an actor; the file is written on the actor (small, rare).

import Crypto
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

        /// What a session keeps of the user's standing: the role and a digest of the password hash (bcrypt
        /// salts every hash, so a new password, even the same one set again, gives a new one).
        public var standing: Standing {
            let digest = SHA256.hash(data: Data(hash.utf8)).prefix(12).map { String(format: "%02x", $0) }.joined()
            return Standing(role: role, credential: digest)
        }
    }

    /// A user's role and the digest of their password hash: a session lives while both stay what they were.
    public struct Standing: Sendable, Equatable {
        public var role: Role
        public var credential: String
    }

    private let path: String
    private var users: [String: User]
    /// The file's modification time when last read: a change by hand or by `--add-user` is read again.
    private var readAt: Stamp?

    /// Reads `path` (missing: no users yet). A line that is not `name:role:hash` is refused with its number.
    public init(path: String) throws {
        self.path = path
        users = try Self.read(path)
        readAt = Self.modified(path)
    }

    /// What tells one version of the file from another: inode, size, change and modification times.
    struct Stamp: Equatable {
        var inode: UInt
        var size: Int
        var changed: Int
        var modified: Int
    }

    static func modified(_ path: String) -> Stamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Stamp(
            inode: UInt(info.st_ino), size: Int(info.st_size), changed: info.st_ctim.tv_sec * 1_000_000_000 + info.st_ctim.tv_nsec,
            modified: info.st_mtim.tv_sec * 1_000_000_000 + info.st_mtim.tv_nsec)
    }

    /// Reads the file again when it changed since: a new inode, size, or change or modification time. A file
    /// that cannot be read now (an editor between its write and its rename) or does not parse keeps the users
    /// as they were, and a bad one is said on stderr.
    private func refresh() {
        guard let now = Self.modified(path), now != readAt else { return }
        do {
            users = try Self.read(path)
            readAt = now
        } catch {
            FileHandle.standardError.write(Data("queued-fleet: \(error); the users stay as they were\n".utf8))
            readAt = now
        }
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

    /// `name`'s role and password digest now (the file read again if it changed); nil when no such user.
    public func standing(of name: String) -> Standing? {
        refresh()
        return users[name]?.standing
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
        // The actor ran other calls during the hash: the file and the last-admin rule are checked again.
        refresh()
        if users[name]?.role == .admin, role != .admin, users.values.filter({ $0.role == .admin }).count == 1 {
            throw ConsoleError("\(name) is the last admin")
        }
        users[name] = User(name: name, role: role, hash: hash)
        try write()
        readAt = Self.modified(path)
    }

    /// Removes `name`; the last admin cannot be removed (nobody could manage users then).
    public func remove(name: String) throws {
        refresh()
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
