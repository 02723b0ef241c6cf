// queued-web's server: the page (embedded), sign-in, the daemon's methods through the page's allowlist
// (`POST /api/rpc`), uploads into the media folder, the live preview, and the events WebSocket. Every request
// passes `WebGuard` first (Host, session or bearer token, Origin and CSRF on changes, security headers).
// Hummingbird 2 serves it (HTTP/1.1 with WebSocket upgrade); the server never plays, stores or decides
// anything itself: it asks the daemon. Its own resources are bounded: open connections are capped, a
// connection that has not sent a whole request head (or sits idle between requests) is closed after
// `idleTimeout`, so a flood of idle or slow-header sockets cannot keep the operator out.

import Foundation
import CallerPolicy
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import JSONText
import Logging
import NIOCore
import QueueClient

public struct WebSettings: Sendable {
    public var host = "127.0.0.1"
    public var port = 8080
    public var mediaDirectory: String
    public var access: AccessKey
    public var hosts = HostPolicy()
    public var uploads = UploadLimits()
    /// Behind a TLS-terminating proxy: the page's origin is https://, and a loopback peer's last
    /// X-Forwarded-For entry names the client.
    public var secureOrigin = false
    /// Open connections at most (HTTP and event sockets); more wait in the listen backlog until one closes.
    public var maxConnections = 4096
    /// How long a connection may sit without a whole request (head not finished, or idle between requests).
    public var idleTimeout: Duration = .seconds(15)

    /// What requests from the page may ask of the daemon: the page's methods, http(s) URLs and files in the
    /// media folder (the daemon connection that carries them is confined to the same folder).
    public var callerPolicy: CallerPolicy { CallerPolicy(door: .page, files: .within([mediaDirectory])) }

    public init(mediaDirectory: String, access: AccessKey) {
        self.mediaDirectory = mediaDirectory
        self.access = access
    }
}

public struct WebContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Set by WebGuard: the signed-in session (nil for a bearer token or a public route).
    package var session: Session?
    package var bearer = false
    /// The connection's peer IP address (nil when there is none, as in Hummingbird's router tests).
    let peer: String?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        peer = source.channel.remoteAddress?.ipAddress
    }

    /// Who is asking (ClientAddress), for the throttle, the session caps and the log.
    package func client(_ request: Request, behindProxy: Bool) -> String {
        ClientAddress.of(peer: peer, forwardedFor: request.headers[WebServer.forwardedFor], behindProxy: behindProxy)
    }
    /// JSON bodies (sign-in, requests) are small; uploads stream and count their own bytes.
    public var maxUploadSize: Int { 1 << 20 }
}

/// Answers with a JSON value.
package func jsonResponse(_ value: JSONValue, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
    var fields = headers
    fields[.contentType] = "application/json; charset=utf-8"
    fields[.cacheControl] = "no-store"
    return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: JSON.serialize(value))))
}

/// The request's JSON body (at most 1 MiB).
package func jsonBody(_ request: Request, _ context: WebContext) async throws -> JSONValue {
    var request = request
    let buffer = try await request.collectBody(upTo: context.maxUploadSize)
    guard let value = try? JSON.parse(Array(buffer.readableBytesView)) else {
        throw HTTPError(.badRequest, message: "the body is not JSON")
    }
    return value
}

public enum WebServer {
    package static let csrfHeader = HTTPField.Name("X-CSRF-Token")!
    package static let forwardedFor = HTTPField.Name("X-Forwarded-For")!

    /// The application serving `settings` with `link` to the daemon.
    public static func application(
        settings: WebSettings, link: DaemonLink, sessions: SessionStore = SessionStore(),
        throttle: SignInThrottle = SignInThrottle(), logger: Logger, onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        // The folder the page's daemon connections are confined to, there from the start.
        try? FileManager.default.createDirectory(atPath: settings.mediaDirectory, withIntermediateDirectories: true)
        MediaFolder.removeLeftovers(in: settings.mediaDirectory)
        let router = Router(context: WebContext.self)
        router.add(middleware: WebGuard(settings: settings, logger: logger))
        PageAssets.add(to: router)
        addSignIn(router, settings: settings, sessions: sessions, throttle: throttle)
        addTriggerRoute(router, settings: settings, link: link, throttle: throttle)
        // Everything else under /api is guarded by the group's own middleware: whatever spelling the router
        // matched, the guard is on the route.
        let api = router.group("api").add(middleware: APIGuard(settings: settings, sessions: sessions, throttle: throttle))
        addSessionRoutes(api, settings: settings, sessions: sessions)
        addDaemonRoutes(api, settings: settings, link: link)
        let events = Router(context: BasicWebSocketRequestContext.self)
        addEventSocket(events, settings: settings, sessions: sessions, link: link)
        return Application(
            router: router,
            server: server(settings: settings, events: events),
            configuration: .init(
                address: .hostname(settings.host, port: settings.port), serverName: "queued-web",
                availableConnectionsDelegate: MaximumAvailableConnections(settings.maxConnections, logger: logger)),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? settings.port) },
            logger: logger)
    }

    /// HTTP/1.1 with the event socket's upgrade, every connection held to `idleTimeout` from its first byte:
    /// Hummingbird's own idle timeout starts only after the first request head (RequestHeadDeadline).
    static func server(settings: WebSettings, events: Router<BasicWebSocketRequestContext>) -> HTTPServerBuilder {
        server(idleTimeout: settings.idleTimeout, events: events)
    }

    package static func server(idleTimeout: Duration, events: Router<BasicWebSocketRequestContext>) -> HTTPServerBuilder {
        let eventResponder = events.buildResponder()
        let timeout = TimeAmount(idleTimeout)
        return HTTPServerBuilder { responder in
            RequestHeadDeadlineChannel(
                inner: HTTP1WebSocketUpgradeChannel(
                    responder: responder, webSocketResponder: eventResponder,
                    configuration: .init(
                        http1: .init(idleTimeout: timeout),
                        ws: .init(maxFrameSize: 1 << 16, autoPing: .enabled(timePeriod: .seconds(20))))),
                deadline: timeout)
        }
    }

    /// `/api/login`, the one API route open without a session; failures are slowed per client and logged.
    static func addSignIn(
        _ router: Router<WebContext>, settings: WebSettings, sessions: SessionStore, throttle: SignInThrottle
    ) {
        router.post("/api/login") { request, context -> Response in
            // A browser always sends Origin on a POST; a script may send none.
            let origin = request.headers[.origin]
            if origin != nil, !HostPolicy.isSameOrigin(origin, host: request.head.authority, secure: settings.secureOrigin) {
                throw HTTPError(.forbidden, message: "signing in from another site")
            }
            let body = try await jsonBody(request, context)
            let client = context.client(request, behindProxy: settings.secureOrigin)
            try await checkSecret(body["secret"]?.stringValue ?? "", from: client, throttle: throttle, logger: context.logger) {
                await settings.access.admits($0)
            }
            let (cookie, session) = await sessions.create(client: client)
            var response = jsonResponse(["csrf": .string(session.csrf)])
            response.setCookie(SessionStore.cookie(cookie, secure: settings.secureOrigin))
            return response
        }
    }

    /// `POST /api/trigger/NAME`: fires the daemon's `webhook=NAME` rules (triggers.fire) — for a button box, a
    /// sensor's gateway or another system's webhook, which have no session. It takes the page's token
    /// (`Authorization: Bearer`) or the rule's own secret (`X-Trigger-Secret`; a browser on another site cannot
    /// send that header without asking first, which nothing here answers). A wrong token or secret, or a name
    /// with no rule, is a failed sign-in: slowed per client and logged. Answers `{"fired": N}`.
    static func addTriggerRoute(_ router: Router<WebContext>, settings: WebSettings, link: DaemonLink, throttle: SignInThrottle) {
        router.post("/api/trigger/:name") { request, context -> Response in
            let name = context.parameters.get("name") ?? ""
            guard (1...64).contains(name.utf8.count),
                name.utf8.allSatisfy({ ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D || $0 == 0x5F || $0 == 0x2E })
            else { throw HTTPError(.badRequest, message: "a trigger's name is 1 to 64 of letters, digits and - _ .") }
            let client = context.client(request, behindProxy: settings.secureOrigin)
            let bearer = request.headers[.authorization].flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
            let secret = request.headers[triggerSecretHeader].flatMap { $0.isEmpty ? nil : $0 }
            guard bearer != nil || secret != nil else {
                throw HTTPError(.unauthorized, message: "send the page's token (Authorization: Bearer) or the trigger's secret (X-Trigger-Secret)")
            }
            let fired: Int64
            if let bearer {
                try await checkSecret(bearer, from: client, throttle: throttle, logger: context.logger) { settings.access.isToken($0) }
                let answer = try? await link.call("triggers.fire", ["name": .string(name), "via": "webhook"])
                fired = answer?["fired"]?.intValue ?? 0
                guard fired > 0 else { throw HTTPError(.notFound, message: "no trigger webhook=\(name)") }
            } else {
                // The secret is checked by the daemon against the rule's own: no match is a failed sign-in.
                fired = try await checkSecret(secret ?? "", from: client, throttle: throttle, logger: context.logger) { given in
                    let answer = try? await link.call("triggers.fire", ["name": .string(name), "via": "webhook", "secret": .string(given)])
                    return (answer?["fired"]?.intValue).flatMap { $0 > 0 ? $0 : nil }
                }
            }
            context.logger.info("trigger \(name) fired from \(client)")
            return jsonResponse(["fired": .int(fired)])
        }
    }

    /// The header a trigger's own secret comes in.
    static let triggerSecretHeader = HTTPField.Name("X-Trigger-Secret")!

    /// Any task: checks `secret` from `client` through the throttle; throws 429 (with Retry-After) while the
    /// client must wait, 401 when wrong — each failure logged at warning with the client.
    package static func checkSecret(
        _ secret: String, from client: String, throttle: SignInThrottle, logger: Logger,
        admits: (String) async -> Bool
    ) async throws {
        _ = try await checkSecret(secret, from: client, throttle: throttle, logger: logger) { await admits($0) ? true : nil }
    }

    /// As above, for a check that finds something when the secret is right (a user's standing, the rules a
    /// webhook fired): what it found, or nil for a wrong secret.
    package static func checkSecret<Found>(
        _ secret: String, from client: String, throttle: SignInThrottle, logger: Logger,
        finds: (String) async -> Found?
    ) async throws -> Found {
        if case .wait(let seconds) = await throttle.begin(client: client) {
            throw HTTPError(
                .tooManyRequests, headers: [.retryAfter: String(seconds)],
                message: "too many failed sign-ins: try again in \(seconds) s")
        }
        let found = await finds(secret)
        let failures = await throttle.finish(client: client, admitted: found != nil)
        guard let found else {
            logger.warning("failed sign-in", metadata: ["client": "\(client)", "failures": "\(failures)"])
            throw HTTPError(.unauthorized, message: "wrong token or password")
        }
        return found
    }

    static func addSessionRoutes(_ router: RouterGroup<WebContext>, settings: WebSettings, sessions: SessionStore) {
        router.get("session") { _, context -> Response in
            guard let session = context.session else {
                return jsonResponse(["bearer": .bool(context.bearer)])
            }
            return jsonResponse(["csrf": .string(session.csrf)])
        }
        router.post("logout") { request, _ -> Response in
            if let cookie = request.cookies[SessionStore.cookieName]?.value { await sessions.end(cookie) }
            var response = jsonResponse([:])
            response.setCookie(SessionStore.cookie("", secure: settings.secureOrigin))
            return response
        }
    }

    static func addDaemonRoutes(_ router: RouterGroup<WebContext>, settings: WebSettings, link: DaemonLink) {
        let methods = settings.callerPolicy
        let folder = MediaFolder(path: settings.mediaDirectory, limits: settings.uploads)
        let preview = PreviewCache(link: link)
        router.post("rpc") { request, context -> Response in
            let body = try await jsonBody(request, context)
            guard let method = body["method"]?.stringValue else { throw HTTPError(.badRequest, message: "no method") }
            let params = body["params"]
            if let refusal = methods.refusal(method: method, params: params) {
                throw HTTPError(.forbidden, message: refusal)
            }
            do {
                return jsonResponse(["result": try await link.call(method, params)])
            } catch ClientError.rpc(let error) {
                return jsonResponse(["error": error.json])
            } catch {
                throw HTTPError(.serviceUnavailable, message: "the daemon is not reachable: \(error)")
            }
        }
        router.post("upload") { request, context -> Response in
            let name = request.uri.queryParameters["name"].map(String.init) ?? "upload"
            let length = request.headers[.contentLength].flatMap { Int64($0) }
            let result = try await folder.receive(request.body, requestedName: name, declaredLength: length)
            context.logger.info("upload: \(result.name), \(result.bytes) bytes")
            return jsonResponse(
                ["name": .string(result.name), "path": .string(result.path), "bytes": .int(result.bytes)],
                status: .created)
        }
        router.get("preview.jpg") { request, _ -> Response in
            let width = request.uri.queryParameters["maxWidth"].flatMap { Int($0) }.map { min(1920, max(64, $0)) } ?? 480
            do {
                let jpeg = try await preview.picture(maxWidth: width)
                return Response(
                    status: .ok, headers: [.contentType: "image/jpeg", .cacheControl: "no-store"],
                    body: .init(byteBuffer: ByteBuffer(bytes: jpeg)))
            } catch {
                throw HTTPError(.serviceUnavailable, message: "no picture: \(error)")
            }
        }
    }

    /// `/api/events`: the daemon's events as JSON text frames, `{"method", "params"}`, beginning with
    /// `daemon.connected` or `daemon.disconnected`.
    static func addEventSocket(
        _ router: Router<BasicWebSocketRequestContext>, settings: WebSettings, sessions: SessionStore, link: DaemonLink
    ) {
        router.ws(
            "/api/events",
            shouldUpgrade: { request, _ in
                guard settings.hosts.accepts(host: request.head.authority),
                    HostPolicy.isSameOrigin(request.headers[.origin], host: request.head.authority, secure: settings.secureOrigin),
                    let cookie = request.cookies[SessionStore.cookieName]?.value, await sessions.lookup(cookie) != nil
                else { return .dontUpgrade }
                return .upgrade([:])
            },
            onUpgrade: { inbound, outbound, context in
                let stream = link.events.subscribe()
                let cookie = context.request.cookies[SessionStore.cookieName]?.value ?? ""
                try await withThrowingTaskGroup(of: Void.self) { group in
                    // Signed out, evicted or expired: the socket closes with the session.
                    group.addTask {
                        await sessions.untilEnded(cookie: cookie)
                        if !Task.isCancelled { try await outbound.close(.normalClosure, reason: "the session ended") }
                    }
                    group.addTask {
                        for await event in stream {
                            var message: JSONObject = ["method": .string(event.method)]
                            if let params = event.params { message["params"] = params }
                            try await outbound.write(.text(String(decoding: JSON.serialize(.object(message)), as: UTF8.self)))
                        }
                    }
                    // Reading drives pings and the close handshake; the page sends nothing else.
                    group.addTask { for try await _ in inbound.messages(maxSize: 4096) {} }
                    // Whichever ends first (the page left, the session ended) ends the socket.
                    _ = try? await group.next()
                    group.cancelAll()
                }
            })
    }
}

/// The preview: one screenshot shared by every page that asks within a second (the screen pays for one
/// encode, however many pages are open), taken only when a page asks.
actor PreviewCache {
    private let link: DaemonLink
    private var last: (at: ContinuousClock.Instant, width: Int, jpeg: [UInt8])?
    private var pending: Task<[UInt8], any Error>?

    init(link: DaemonLink) { self.link = link }

    func picture(maxWidth: Int) async throws -> [UInt8] {
        if let last, last.width == maxWidth, ContinuousClock.now - last.at < .seconds(1) { return last.jpeg }
        if let pending { return try await pending.value }
        let task = Task { try await link.screenshot(maxWidth: maxWidth) }
        pending = task
        defer { pending = nil }
        let jpeg = try await task.value
        last = (ContinuousClock.now, maxWidth, jpeg)
        return jpeg
    }
}

extension MediaFolder {
    /// Temporary files of uploads a crash interrupted.
    static func removeLeftovers(in directory: String) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        for name in names where isTemporary(name) {
            unlink(directory + "/" + name)
        }
    }
}
