// Stream credentials kept out of the state files. A camera's `rtsp://user:password@host/…` or an SRT
// `passphrase=` must survive a restart (the item plays again), but the snapshot and journals are files an
// operator copies into a bug report or a backup: they hold the URL redacted, with a random token
// (`rtsp://***@host/cam#queued-credentials=<token>`), and the token's URL sits in `credentials` beside them,
// a file only its owner may read (0600), appended when a new one is first written. The engine swaps the
// token back when it opens the stream (`resolved`). A token whose line is gone (the file deleted or
// damaged) stays as it is: the item then fails with the server's refusal, as a wrong password does.
// Only stream URLs: a plain http(s) file's URL is the cache's key and stays whole.
// A removed camera's password does not stay: each compaction of the state files is a sweep (`beginSweep`,
// `finishSweep`) — the tokens the new snapshot and the journal after it name are kept, the file is
// rewritten with only those (atomically: a crash leaves the old file whole), the others are forgotten.
// Threads: `sealed` runs on the state writer's thread and on its compaction task, `resolved` on the engine's
// decode threads, the sweep on the writer's thread; one lock guards the tables (the file is appended and
// rewritten under it: a new camera and a compaction are rare, and a concurrent append must not be lost).

import FoundationEssentials
import Glibc
import MediaPaths
import Synchronization

public final class CredentialVault: Sendable {
    /// Marks a sealed URL's token (a fragment: never sent to a server, and never in a URL we accept).
    public static let marker = "#queued-credentials="
    public let path: String
    private let tables: Mutex<Tables>

    private struct Tables {
        /// Full URL → its token; token → full URL.
        var tokens: [String: String] = [:]
        var urls: [String: String] = [:]
        /// Logged once: appending to the file failed (the state directory is read-only or full).
        var appendFailed = false
        /// The tokens sealed since the sweep under way began (nil: none under way).
        var swept: Set<String>?
    }

    /// Reads `directory/credentials` (lines `<token> <url>`; a damaged line is skipped, a missing file is
    /// an empty vault) and makes sure only its owner may read it.
    public init(directory: String) {
        path = directory + "/credentials"
        var tables = Tables()
        if let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) {
            for line in text.split(separator: "\n") {
                let parts = line.split(separator: " ", maxSplits: 1)
                guard parts.count == 2, parts[0].count == 32, parts[0].allSatisfy(\.isHexDigit) else { continue }
                tables.tokens[String(parts[1])] = String(parts[0])
                tables.urls[String(parts[0])] = String(parts[1])
            }
            _ = chmod(path, 0o600)
        }
        self.tables = Mutex(tables)
    }

    /// What the state files hold for `uri`: itself, unless it is a stream URL with credentials in it.
    public func sealed(_ uri: String) -> String {
        guard StreamKind(uri: uri) != nil, uri.utf8.contains(where: { $0 == UInt8(ascii: "@") || $0 == UInt8(ascii: "=") })
        else { return uri }
        // Already sealed (a restored item): its token stands.
        if let hash = Self.markerStart(in: uri) {
            let token = String(uri[hash...].dropFirst(Self.marker.count))
            tables.withLock { tables in tables.swept?.insert(token) }
            return uri
        }
        let redacted = StreamKind.redacted(uri)
        guard redacted != uri else { return uri }
        let token: String? = tables.withLock { tables in
            if let known = tables.tokens[uri] {
                tables.swept?.insert(known)
                return known
            }
            guard !tables.appendFailed else { return nil }  // failed once: not tried per item; the state keeps the redacted URL
            let token = Self.randomToken()
            guard append("\(token) \(uri)\n") else {
                tables.appendFailed = true
                return nil
            }
            tables.tokens[uri] = token
            tables.urls[token] = uri
            tables.swept?.insert(token)
            return token
        }
        // Without a token the state holds the redacted URL alone: the password is never written where it
        // should not be, and after a restart the item fails as with a wrong password.
        return redacted + (token.map { Self.marker + $0 } ?? "")
    }

    /// The URL to open for `uri`: the full one a sealed URL stands for, when its token is known.
    public func resolved(_ uri: String) -> String {
        guard let hash = Self.markerStart(in: uri) else { return uri }
        let token = String(uri[hash...].dropFirst(Self.marker.count))
        return tables.withLock { $0.urls[token] } ?? String(uri[..<hash])
    }

    /// A compaction begins (before the state it snapshots is read, and before any later journal line):
    /// from now on every token sealed is noted.
    public func beginSweep() { tables.withLock { $0.swept = [] } }

    /// The compaction's snapshot is in place (`installed`) — keep only the tokens sealed since the sweep
    /// began, which are all the new state names — or it failed (nothing is forgotten). Returns how many
    /// were forgotten.
    @discardableResult
    public func finishSweep(installed: Bool) -> Int {
        tables.withLock { tables in
            guard let swept = tables.swept else { return 0 }
            tables.swept = nil
            guard installed else { return 0 }
            let gone = tables.urls.keys.filter { !swept.contains($0) }
            guard !gone.isEmpty else { return 0 }
            let kept = tables.urls.filter { swept.contains($0.key) }.sorted { $0.key < $1.key }
            guard rewrite(kept.map { "\($0.key) \($0.value)\n" }.joined()) else { return 0 }
            for token in gone {
                if let url = tables.urls.removeValue(forKey: token) { tables.tokens[url] = nil }
            }
            return gone.count
        }
    }

    /// Replaces the file with `text`: written beside it, synced, renamed over it, the directory synced. A
    /// failure leaves the old file (a superset) as it was. Lock held.
    private func rewrite(_ text: String) -> Bool {
        let temporary = path + ".tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard written == bytes.count, synced, rename(temporary, path) == 0 else {
            unlink(temporary)
            return false
        }
        syncDirectory()
        return true
    }

    private func syncDirectory() {
        let directory = open(String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)]), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            _ = fsync(directory)
            close(directory)
        }
    }

    /// Where a sealed URL's marker starts (its last fragment), nil for any other URL.
    private static func markerStart(in uri: String) -> String.Index? {
        guard let hash = uri.lastIndex(of: "#"), uri[hash...].hasPrefix(marker) else { return nil }
        return hash
    }

    /// Appends `line` durably (before the journal line naming its token is written); lock held.
    private func append(_ line: String) -> Bool {
        let created = access(path, F_OK) != 0
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        // A line cut short before (a full disk) would swallow this one: start on a line of its own.
        var bytes = Array(line.utf8)
        var info = stat()
        if fstat(descriptor, &info) == 0, info.st_size > 0 { bytes.insert(UInt8(ascii: "\n"), at: 0) }
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count, fsync(descriptor) == 0 else { return false }
        // The file's name is durable too, before a journal line names its token.
        if created { syncDirectory() }
        return true
    }

    private static func randomToken() -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for _ in 0..<16 {
            let byte = UInt8.random(in: 0...255)
            text += [digits[Int(byte >> 4)], digits[Int(byte & 15)]]
        }
        return String(decoding: text, as: UTF8.self)
    }
}
