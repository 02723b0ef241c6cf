// queued-web's server against a real daemon (null outputs), through Hummingbird's testing client and, where the
// wire matters (a wrong Host, the WebSocket upgrade), raw sockets to the live server: sign-in, refusals with
// no session, from another Origin or without the CSRF token, the bearer token for scripts, the page's
// allowlist (methods and local paths), uploads (a traversing name lands inside the folder under a safe name;
// over the cap: 413 and no file left), events over the WebSocket.

import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JSONText
import Logging
import NIOCore
import QueueClient
import TestSupport
import Testing
import WebControl

@Suite(.serialized) struct WebServerTests {
    static let token = "test-token-0123456789abcdef0123456789"

    struct Rig {
        let daemon: RunningDaemon
        let media: TemporaryDirectory
        let settings: WebSettings
        let link: DaemonLink

        init(uploadLimit: Int64 = 64 << 20) throws {
            daemon = try RunningDaemon(outputs: .null(untimed: false), logLevel: "warning")
            media = try TemporaryDirectory(prefix: "queued-web-media")
            var settings = WebSettings(mediaDirectory: media.path, access: .token(WebServerTests.token))
            settings.port = 0
            settings.uploads.maxBytes = uploadLimit
            self.settings = settings
            link = DaemonLink(socketPath: daemon.socket, confinement: settings.callerPolicy.confinement)
        }

        func application() -> some ApplicationProtocol {
            var logger = Logger(label: "queued-web-test")
            logger.logLevel = .warning
            return WebServer.application(settings: settings, link: link, logger: logger)
        }
    }

    static func json(_ response: TestResponse) -> JSONValue? {
        try? JSON.parse(Array(response.body.readableBytesView))
    }

    static func body(_ value: JSONValue) -> ByteBuffer { ByteBuffer(bytes: JSON.serialize(value)) }

    /// Signs in through the API: the session cookie (as the browser would send it back) and the CSRF token.
    static func signIn(_ client: some TestClientProtocol) async throws -> (cookie: String, csrf: String) {
        try await client.execute(
            uri: "/api/login", method: .post, headers: [.origin: "http://localhost"], body: body(["secret": .string(token)])
        ) { response in
            #expect(response.status == .ok)
            let setCookie = response.headers[.setCookie] ?? ""
            #expect(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Strict"), "\(setCookie)")
            let cookie = String(setCookie.split(separator: ";").first ?? "")
            return (cookie, json(response)?["csrf"]?.stringValue ?? "")
        }
    }

    @Test func signInIsRequiredAndChangesComeOnlyFromThisPageWithItsToken() async throws {
        let rig = try Rig()
        defer { _ = rig.daemon.stop() }
        try await rig.application().test(.router) { client in
            let status = Self.body(["method": "player.status"])
            // No session: refused, with the security headers all the same.
            try await client.execute(uri: "/api/rpc", method: .post, headers: [.origin: "http://localhost"], body: status) {
                #expect($0.status == .unauthorized)
                #expect($0.headers[.contentSecurityPolicy]?.contains("script-src 'self'") == true)
            }
            try await client.execute(uri: "/api/session", method: .get) { #expect($0.status == .unauthorized) }
            // A wrong secret; a sign-in posted from another site.
            try await client.execute(uri: "/api/login", method: .post, body: Self.body(["secret": "guess"])) {
                #expect($0.status == .unauthorized)
            }
            try await client.execute(
                uri: "/api/login", method: .post, headers: [.origin: "http://127.0.0.2:8080"],
                body: Self.body(["secret": .string(Self.token)])
            ) { #expect($0.status == .forbidden) }
            // The page itself is public (it shows the sign-in form) and loads nothing from elsewhere.
            try await client.execute(uri: "/", method: .get) { response in
                #expect(response.status == .ok)
                let html = String(buffer: response.body)
                #expect(html.contains("<script type=\"module\" src=\"/app.js\">"))
                #expect(!html.contains("src=\"http") && !html.contains("href=\"http") && !html.contains("<script>"))
            }

            let (cookie, csrf) = try await Self.signIn(client)
            let signedIn: HTTPFields = [.cookie: cookie, .origin: "http://localhost", WebServerTestsHeader.csrf: csrf]
            try await client.execute(uri: "/api/rpc", method: .post, headers: signedIn, body: status) { response in
                #expect(response.status == .ok)
                #expect(Self.json(response)?["result"]?["state"]?.stringValue == "idle")
            }
            try await client.execute(uri: "/api/session", method: .get, headers: [.cookie: cookie]) {
                #expect(Self.json($0)?["csrf"]?.stringValue == csrf)
            }
            // The cookie alone is not enough for a change: no CSRF token, or from another Origin, is refused.
            try await client.execute(
                uri: "/api/rpc", method: .post, headers: [.cookie: cookie, .origin: "http://localhost"], body: status
            ) { #expect($0.status == .forbidden) }
            try await client.execute(
                uri: "/api/rpc", method: .post,
                headers: [.cookie: cookie, .origin: "http://127.0.0.2:8080", WebServerTestsHeader.csrf: csrf], body: status
            ) { #expect($0.status == .forbidden) }
            // A script's bearer token needs neither cookie nor CSRF token; a wrong one is refused.
            try await client.execute(
                uri: "/api/rpc", method: .post, headers: [.authorization: "Bearer \(Self.token)"], body: status
            ) { #expect($0.status == .ok) }
            try await client.execute(
                uri: "/api/rpc", method: .post, headers: [.authorization: "Bearer nope"], body: status
            ) { #expect($0.status == .unauthorized) }
            // Signed out: the cookie is dead.
            try await client.execute(uri: "/api/logout", method: .post, headers: signedIn, body: Self.body([:])) {
                #expect($0.status == .ok)
            }
            try await client.execute(uri: "/api/rpc", method: .post, headers: signedIn, body: status) {
                #expect($0.status == .unauthorized)
            }
        }
    }

    @Test func thePageCallsOnlyItsMethodsAndAddsOnlyURLsAndUploads() async throws {
        let rig = try Rig(uploadLimit: 1 << 20)
        defer { _ = rig.daemon.stop() }
        let bearer: HTTPFields = [.authorization: "Bearer \(Self.token)"]
        try await rig.application().test(.router) { client in
            func rpc(_ method: String, _ params: JSONValue) async throws -> (HTTPResponse.Status, JSONValue?) {
                try await client.execute(
                    uri: "/api/rpc", method: .post, headers: bearer, body: Self.body(["method": .string(method), "params": params])
                ) { ($0.status, Self.json($0)) }
            }
            #expect(try await rpc("plays.ack", ["through": 1]).0 == .forbidden)
            #expect(try await rpc("queue.clear", [:]).0 == .forbidden)
            let refused = try await rpc("queue.add", ["items": ["/etc/passwd"]])
            #expect(refused.0 == .forbidden && refused.1?["error"]?["message"]?.stringValue?.contains("media folder") == true)
            #expect(try await rpc("queue.add", ["items": ["http://127.0.0.1:9/a.mp4"]]).0 == .ok)

            // An upload named to climb out of the folder lands inside it, under a safe name.
            let clip = try Fixtures.tone(frequency: 440, seconds: 0.5, format: .wav)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: clip))
            let stored = try await client.execute(
                uri: "/api/upload?name=..%2F..%2Fetc%2Fx.wav", method: .post, headers: bearer, body: ByteBuffer(bytes: bytes)
            ) { response in
                #expect(response.status == .created)
                return Self.json(response)
            }
            let path = try #require(stored?["path"]?.stringValue)
            #expect(stored?["name"]?.stringValue == "x.wav" && path == rig.media.path + "/x.wav")
            #expect(FileManager.default.contents(atPath: path) == bytes, "the whole file, byte for byte")
            #expect(try await rpc("queue.add", ["items": [.string(path)]]).0 == .ok, "an upload may be queued")
            let listed = try await rpc("queue.list", [:]).1?["result"]?["items"]?.arrayValue?.compactMap { $0["uri"]?.stringValue }
            #expect(listed == ["http://127.0.0.1:9/a.mp4", path])

            // Over the cap: 413, and nothing left in the folder.
            try await client.execute(
                uri: "/api/upload?name=big.mp4", method: .post, headers: bearer,
                body: ByteBuffer(repeating: 7, count: (1 << 20) + 1)
            ) { #expect($0.status == .contentTooLarge) }
            let left = try FileManager.default.contentsOfDirectory(atPath: rig.media.path)
            #expect(left == ["x.wav"], "\(left)")
        }
    }

    /// Runs blocking socket work on a Dispatch thread: this test's server answers on Swift's cooperative pool
    /// (2 threads here), and a blocking read there — with another suite's test blocking the other thread —
    /// left no thread to send what the read waits for.
    static func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
        }
    }

    /// What the raw sockets saw, for the test's expectations (made on the test's own task).
    struct WireSeen: Sendable {
        var foreign = "", anonymous = "", page = "", firstEvent = "", state = ""
        var seen: [String] = []
    }

    @Test func aWrongHostAndAWebSocketFromAnotherOriginAreRefusedOnTheWire() async throws {
        let rig = try Rig()
        defer { _ = rig.daemon.stop() }
        try await rig.application().test(.live) { client in
            let port = try #require(client.port)
            let wrongHost = try await Self.offPool {
                try RawHTTP.exchange(
                    port: port, "GET /api/session HTTP/1.1\r\nHost: rebound.localhost:\(port)\r\nAuthorization: Bearer \(Self.token)\r\n\r\n")
            }
            #expect(wrongHost.hasPrefix("HTTP/1.1 421"), "\(wrongHost)")
            let (cookie, _) = try await Self.signIn(client)
            let daemon = rig.daemon
            let wire = try await Self.offPool { () throws -> WireSeen in
                func upgrade(origin: String, cookie: String) throws -> RawHTTP.Connection {
                    let connection = try RawHTTP.Connection(port: port)
                    try connection.send(
                        "GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                            + "Origin: \(origin)\r\nCookie: \(cookie)\r\n\r\n")
                    return connection
                }
                var wire = WireSeen()
                wire.foreign = try upgrade(origin: "http://127.0.0.2:8080", cookie: cookie).readHead()
                wire.anonymous = try upgrade(origin: "http://127.0.0.1:\(port)", cookie: "queued_session=forged").readHead()
                let page = try upgrade(origin: "http://127.0.0.1:\(port)", cookie: cookie)
                wire.page = try page.readHead()
                // The first event says whether the daemon is there. The page's first subscriber starts the link's
                // follower, so it may say "disconnected", then "connected" once the follower has subscribed: only
                // a change made after that can arrive.
                wire.firstEvent = try page.readTextFrame()
                wire.state = wire.firstEvent
                for _ in 0..<5 where !wire.state.contains("daemon.connected") { wire.state = try page.readTextFrame() }
                guard wire.state.contains("daemon.connected") else { return wire }
                // A change made elsewhere (as queuectl would) arrives as an event.
                _ = try daemon.client().call("queue.add", ["items": ["http://127.0.0.1:9/b.mp4"]])
                for _ in 0..<20 {
                    let frame = try page.readTextFrame()
                    wire.seen.append(frame)
                    if frame.contains("event.queueChanged") { break }
                }
                return wire
            }
            #expect(wire.foreign.hasPrefix("HTTP/1.1 400"))
            #expect(wire.anonymous.hasPrefix("HTTP/1.1 400"))
            #expect(wire.page.hasPrefix("HTTP/1.1 101"))
            #expect(wire.firstEvent.contains("daemon."), "the first event says whether the daemon is there")
            #expect(wire.state.contains("daemon.connected"), "\(wire.state)")
            #expect(wire.seen.contains { $0.contains("event.queueChanged") }, "\(wire.seen)")
        }
    }
}

enum WebServerTestsHeader {
    static let csrf = HTTPField.Name("X-CSRF-Token")!
}
