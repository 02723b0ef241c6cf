// Who may use the page. Signing in takes the access token (made at first start, kept in a file only its owner
// may read, shown by `queued-web --show-token`) or a password checked against a stored bcrypt hash; it gives a
// session: an `HttpOnly; SameSite=Strict` cookie and a CSRF token the page sends back on every change. Scripts
// may send `Authorization: Bearer TOKEN` instead (no cookie, no CSRF: a header a browser never adds by itself).
// Sessions live in memory only (a restart signs everyone out), end after 12 h unused or 7 days in all, and are
// capped per client and in all, so that a script signing in in a loop evicts its own sessions, never the
// operator's. Hand-written because hummingbird-auth's sessions have no CSRF token and set only `Expires`.

import Crypto
import Foundation
import Hummingbird
import HummingbirdBcrypt
import NIOPosix

/// How a sign-in is checked.
public enum AccessKey: Sendable {
    /// The random token (compared as SHA-256 digests: constant time).
    case token(String)
    /// A bcrypt hash of the operator's password (`$2b$…`); the token still works for scripts.
    case passwordHash(String, token: String)

    var token: String {
        switch self {
        case .token(let token), .passwordHash(_, let token): token
        }
    }

    /// Whether `secret` is the token.
    func isToken(_ secret: String) -> Bool { sameSecret(secret, token) }

    /// bcrypt's own thread: a check costs ~0.25 s of CPU, and must never queue behind (or hold up) the uploads'
    /// file I/O on NIOThreadPool.singleton. One thread: sign-in is rare and throttled per client.
    package static let passwordPool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: 1)
        pool.start()
        return pool
    }()

    /// Whether `secret` signs in: the token, or the password (bcrypt, on `passwordPool`).
    func admits(_ secret: String) async -> Bool {
        if isToken(secret) { return true }
        guard case .passwordHash(let hash, _) = self else { return false }
        return (try? await Self.passwordPool.runIfActive { Bcrypt.verify(secret, hash: hash) }) ?? false
    }

    /// 32 random bytes, base64url: the token made at first start.
    public static func makeToken() -> String { randomText(bytes: 32) }
}

package func randomText(bytes count: Int) -> String {
    var generator = SystemRandomNumberGenerator()
    let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    return Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
        .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
}

public struct Session: Sendable {
    public let csrf: String
    /// Who signed in (ClientAddress): the caps count per client.
    let client: String
    /// The user who signed in (the fleet console's users file; empty for the one-screen page's token).
    package let user: String
    /// What the user may do (the fleet console: viewer, operator, admin; the one-screen page: admin).
    package let role: String
    /// What the user's password was when signing in (the fleet console: a digest of its hash): a session
    /// whose user's password changed since ends.
    package let credential: String
    let created: Date
    /// Last request made with it; nil until the first one after signing in.
    var lastUsed: Date?
}

/// The signed-in sessions, by the SHA-256 of their cookie (a memory dump holds no usable cookie).
public actor SessionStore {
    public static let cookieName = "queued_session"
    /// A session ends this long after its last use…
    public static let idleLifetime: TimeInterval = 12 * 3600
    /// …and this long after signing in, however much it is used.
    public static let absoluteLifetime: TimeInterval = 7 * 24 * 3600
    /// At most this many per client (its own least-used goes first) and in all (taken from the client with most).
    static let perClient = 4
    static let capacity = 64

    private var sessions: [SHA256Digest: Session] = [:]
    /// Event sockets open per session: finished when it ends (signed out, expired, evicted).
    private var watchers: [SHA256Digest: [UUID: AsyncStream<Void>.Continuation]] = [:]
    private let now: @Sendable () -> Date

    public init(now: @escaping @Sendable () -> Date = Date.init) { self.now = now }

    static func key(_ cookie: String) -> SHA256Digest { SHA256.hash(data: Data(cookie.utf8)) }

    /// A new session for `client`: its cookie value and its CSRF token.
    public func create(client: String = "", user: String = "", role: String = "admin", credential: String = "")
        -> (cookie: String, session: Session)
    {
        let cookie = randomText(bytes: 32)
        let session = Session(
            csrf: randomText(bytes: 24), client: client, user: user, role: role, credential: credential, created: now(),
            lastUsed: nil)
        let counts = Dictionary(grouping: sessions.values, by: \.client).mapValues(\.count)
        if counts[client, default: 0] >= Self.perClient {
            evictOne(of: [client])
        } else if sessions.count >= Self.capacity, let most = counts.values.max() {
            evictOne(of: Set(counts.filter { $0.value == most }.keys))
        }
        sessions[Self.key(cookie)] = session
        return (cookie, session)
    }

    /// The session of `clients` to give up first: one never used since signing in (the oldest), else the least
    /// recently used — a loop of sign-ins evicts its own fresh sessions, not one the operator is using, even
    /// when the global cap must take from clients that hold one session each.
    private func evictOne(of clients: Set<String>) {
        let victim = sessions.filter { clients.contains($0.value.client) }.min { a, b in
            switch (a.value.lastUsed, b.value.lastUsed) {
            case (nil, nil): a.value.created < b.value.created
            case (nil, _): true
            case (_, nil): false
            case (let x?, let y?): x < y
            }
        }
        if let victim { end(key: victim.key) }
    }

    /// When the session of `key` ends if unused from now: nil when it already has.
    private func deadline(_ key: SHA256Digest) -> Date? {
        guard let session = sessions[key] else { return nil }
        let end = min(
            (session.lastUsed ?? session.created).addingTimeInterval(Self.idleLifetime),
            session.created.addingTimeInterval(Self.absoluteLifetime))
        return end > now() ? end : nil
    }

    /// The session cookie both pages set: `value` for a new session (it lives as long as an unused session),
    /// empty to end one (expired at once). `HttpOnly; SameSite=Strict`, `Secure` behind https.
    package nonisolated static func cookie(_ value: String, secure: Bool) -> Cookie {
        Cookie(
            name: cookieName, value: value, maxAge: value.isEmpty ? 0 : Int(idleLifetime), path: "/", secure: secure,
            httpOnly: true, sameSite: .strict)
    }

    /// The session of `cookie` if it is live (and counts this as a use).
    public func lookup(_ cookie: String) -> Session? {
        let key = Self.key(cookie)
        guard deadline(key) != nil, var session = sessions[key] else {
            end(key: key)
            return nil
        }
        session.lastUsed = now()
        sessions[key] = session
        return session
    }

    public func end(_ cookie: String) { end(key: Self.key(cookie)) }

    /// Ends every session of `user` (removed, or given another role).
    package func end(user: String) {
        for (key, session) in sessions where session.user == user { end(key: key) }
    }

    private func end(key: SHA256Digest) {
        sessions[key] = nil
        for watcher in (watchers.removeValue(forKey: key) ?? [:]).values { watcher.finish() }
    }

    private func watch(_ key: SHA256Digest) -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
        guard sessions[key] != nil else {
            continuation.finish()
            return stream
        }
        let id = UUID()
        watchers[key, default: [:]][id] = continuation
        continuation.onTermination = { _ in Task { await self.unwatch(key, id) } }
        return stream
    }

    private func unwatch(_ key: SHA256Digest, _ id: UUID) { watchers[key]?[id] = nil }

    /// Any task: returns when the session of `cookie` ends — signed out or evicted at once, expired at its
    /// deadline (an open event socket is not a use: the page's requests are) — or when the caller is cancelled.
    public nonisolated func untilEnded(cookie: String) async {
        let key = Self.key(cookie)
        let ended = await watch(key)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { for await _ in ended {} }
            group.addTask {
                while let deadline = await self.deadline(key), !Task.isCancelled {
                    // At most a minute at a time: the wall clock may jump (a screen without an RTC sets it late).
                    try? await Task.sleep(for: .seconds(min(60, max(0.05, deadline.timeIntervalSince(self.now())))))
                }
            }
            await group.next()
            group.cancelAll()
        }
    }

    /// Sessions held now (tests).
    var count: Int { sessions.count }
}

/// Two secrets compared in constant time (as digests).
package func sameSecret(_ a: String, _ b: String) -> Bool {
    SHA256.hash(data: Data(a.utf8)) == SHA256.hash(data: Data(b.utf8))
}
