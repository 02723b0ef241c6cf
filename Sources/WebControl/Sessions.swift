// Who may use the page. Signing in takes the access token (made at first start, shown once and by
// `queued-web --show-token`) or a password checked against a stored bcrypt hash; it gives a session: an
// `HttpOnly; SameSite=Strict` cookie and a CSRF token the page sends back on every change. Scripts may send
// `Authorization: Bearer TOKEN` instead (no cookie, no CSRF: a header a browser never adds by itself).
// Sessions live in memory only (a restart signs everyone out): hand-written because hummingbird-auth's
// sessions have no CSRF token and set only `Expires`; a few dozen lines over swift-crypto's digests.

import Crypto
import Foundation
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

    /// Whether `secret` signs in: the token, or the password (bcrypt, off the event loops).
    func admits(_ secret: String) async -> Bool {
        if isToken(secret) { return true }
        guard case .passwordHash(let hash, _) = self else { return false }
        return (try? await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(secret, hash: hash) }) ?? false
    }

    /// 32 random bytes, base64url: the token made at first start.
    public static func makeToken() -> String { randomText(bytes: 32) }
}

func randomText(bytes count: Int) -> String {
    var generator = SystemRandomNumberGenerator()
    let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    return Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
        .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
}

public struct Session: Sendable {
    public let csrf: String
    var expires: Date
}

/// The signed-in sessions, by the SHA-256 of their cookie (a memory dump holds no usable cookie).
public actor SessionStore {
    public static let cookieName = "queued_session"
    /// A session lasts this long after its last use.
    public static let lifetime: TimeInterval = 12 * 3600
    /// At most this many at once (the oldest goes): a loop of sign-ins cannot grow memory.
    static let capacity = 64

    private var sessions: [SHA256Digest: Session] = [:]
    private let now: @Sendable () -> Date

    public init(now: @escaping @Sendable () -> Date = Date.init) { self.now = now }

    /// A new session: its cookie value and its CSRF token.
    public func create() -> (cookie: String, session: Session) {
        let cookie = randomText(bytes: 32)
        let session = Session(csrf: randomText(bytes: 24), expires: now().addingTimeInterval(Self.lifetime))
        if sessions.count >= Self.capacity, let oldest = sessions.min(by: { $0.value.expires < $1.value.expires }) {
            sessions[oldest.key] = nil
        }
        sessions[SHA256.hash(data: Data(cookie.utf8))] = session
        return (cookie, session)
    }

    /// The session of `cookie` if it is live (and keeps it alive).
    public func lookup(_ cookie: String) -> Session? {
        let key = SHA256.hash(data: Data(cookie.utf8))
        guard var session = sessions[key] else { return nil }
        guard session.expires > now() else {
            sessions[key] = nil
            return nil
        }
        session.expires = now().addingTimeInterval(Self.lifetime)
        sessions[key] = session
        return session
    }

    public func end(_ cookie: String) {
        sessions[SHA256.hash(data: Data(cookie.utf8))] = nil
    }
}

/// Two secrets compared in constant time (as digests).
func sameSecret(_ a: String, _ b: String) -> Bool {
    SHA256.hash(data: Data(a.utf8)) == SHA256.hash(data: Data(b.utf8))
}
