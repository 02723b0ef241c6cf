// queued-fleet's server: the fleet page (embedded), sign-in with users and roles, and the API the page uses —
// the wall of screens, pushes to a group or a screen with their progress, the documents' history and
// rollback, commands to a screen or a group, proof-of-play reports, alerts and users. It reads and writes only
// the broker (FleetLink) and its own store. The door is the one-screen page's (WebControl): canonical paths,
// the Host check, security headers, a throttle on failed sign-ins, `HttpOnly; SameSite=Strict` sessions with a
// CSRF token on every change; on top, every route names the least role that may use it.

import Fleet
import FleetStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import JSONText
import Logging
import NIOCore
import QueueRPC
import WebControl

public struct ConsoleSettings: Sendable {
    public var host = "127.0.0.1"
    public var port = 8090
    public var hosts = HostPolicy()
    public var secureOrigin = false
    public var maxConnections = 4096
    public var idleTimeout: Duration = .seconds(15)
    /// Screens asked for a screenshot at most at once (a schedule or a command to a big group).
    public var parallelCalls = 32

    public init() {}

    /// WebGuard's view of these settings (it reads only the host names and the origin's scheme).
    var guardSettings: WebSettings {
        var settings = WebSettings(mediaDirectory: "/nonexistent", access: .token(""))
        settings.hosts = hosts
        settings.secureOrigin = secureOrigin
        return settings
    }
}

/// What the console serves from: the link, the store, the users, the alerts.
public struct Console: Sendable {
    public let link: FleetLink
    public let store: FleetStore
    public let users: ConsoleUsers
    public let alerter: Alerter
    public let sessions: SessionStore
    public let throttle: SignInThrottle

    public init(link: FleetLink, store: FleetStore, users: ConsoleUsers, alerter: Alerter) {
        self.link = link
        self.store = store
        self.users = users
        self.alerter = alerter
        sessions = SessionStore()
        throttle = SignInThrottle()
    }
}

public enum ConsoleServer {
    public static func application(
        settings: ConsoleSettings, console: Console, logger: Logger,
        onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let router = Router(context: WebContext.self)
        router.add(middleware: WebGuard(settings: settings.guardSettings, logger: logger))
        ConsoleAssets.add(to: router)
        addSignIn(router, settings: settings, console: console)
        let api = router.group("api").add(
            middleware: ConsoleGuard(settings: settings, sessions: console.sessions, users: console.users))
        addSessionRoutes(api, settings: settings, console: console)
        addScreenRoutes(api, settings: settings, console: console)
        addContentRoutes(api, console: console)
        addAlertRoutes(api, console: console)
        addCommandRoutes(api, settings: settings, console: console)
        addReportRoutes(api, console: console)
        addUserRoutes(api, console: console)
        return Application(
            router: router,
            server: WebServer.server(idleTimeout: settings.idleTimeout, events: Router(context: BasicWebSocketRequestContext.self)),
            configuration: .init(
                address: .hostname(settings.host, port: settings.port), serverName: "queued-fleet",
                availableConnectionsDelegate: MaximumAvailableConnections(settings.maxConnections, logger: logger)),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? settings.port) },
            logger: logger)
    }

    /// Throws 403 unless the session's role is at least `role`.
    static func require(_ role: Role, _ context: WebContext) throws {
        guard let session = context.session, let held = Role(rawValue: session.role), held >= role else {
            throw HTTPError(.forbidden, message: "this needs the \(role.rawValue) role")
        }
    }

    static func addSignIn(_ router: Router<WebContext>, settings: ConsoleSettings, console: Console) {
        router.post("/api/login") { request, context -> Response in
            let origin = request.headers[.origin]
            if origin != nil, !HostPolicy.isSameOrigin(origin, host: request.head.authority, secure: settings.secureOrigin) {
                throw HTTPError(.forbidden, message: "signing in from another site")
            }
            let body = try await jsonBody(request, context)
            let name = body["user"]?.stringValue ?? ""
            let client = context.client(request, behindProxy: settings.secureOrigin)
            // The standing of the user as the password was checked against (not as the file may say a moment later).
            let standing = try await WebServer.checkSecret(
                body["password"]?.stringValue ?? "", from: client, throttle: console.throttle, logger: context.logger
            ) { password in await console.users.check(name: name, password: password)?.standing }
            let role = standing.role
            let (cookie, session) = await console.sessions.create(
                client: client, user: name, role: role.rawValue, credential: standing.credential)
            context.logger.info("signed in: \(name) (\(role.rawValue))")
            var response = jsonResponse(["csrf": .string(session.csrf), "user": .string(name), "role": .string(role.rawValue)])
            response.setCookie(SessionStore.cookie(cookie, secure: settings.secureOrigin))
            return response
        }
    }

    static func addSessionRoutes(_ api: RouterGroup<WebContext>, settings: ConsoleSettings, console: Console) {
        api.get("session") { _, context -> Response in
            guard let session = context.session else { throw HTTPError(.unauthorized) }
            return jsonResponse(["csrf": .string(session.csrf), "user": .string(session.user), "role": .string(session.role)])
        }
        api.post("logout") { request, _ -> Response in
            if let cookie = request.cookies[SessionStore.cookieName]?.value { await console.sessions.end(cookie) }
            var response = jsonResponse([:])
            response.setCookie(SessionStore.cookie("", secure: settings.secureOrigin))
            return response
        }
    }

    // MARK: screens

    static func addScreenRoutes(_ api: RouterGroup<WebContext>, settings: ConsoleSettings, console: Console) {
        // The wall: every screen matching the filter, in a short form; `since=N` gives only what changed after
        // change number N (the page's live updates), `limit` caps the list (the totals count them all).
        api.get("screens") { request, _ -> Response in
            let query = request.uri.queryParameters
            let filter = ScreenFilter(
                text: query["q"].map(String.init), group: query["group"].map(String.init),
                state: query["state"].map(String.init))
            let since = query["since"].flatMap { Int64($0) } ?? 0
            let limit = query["limit"].flatMap { Int($0) }.map { max(1, min($0, 100_000)) } ?? 100_000
            let now = Date().timeIntervalSince1970
            let answer: JSONValue = console.link.withRoster { roster in
                let matching = roster.screens.values.filter { filter.matches($0) }
                let changed = matching.filter { $0.changeNumber > since }.sorted { $0.id < $1.id }
                return [
                    "changeNumber": .int(roster.changeNumber), "now": .double(now),
                    "total": .int(Int64(roster.screens.count)), "matching": .int(Int64(matching.count)),
                    "online": .int(Int64(roster.screens.values.filter { $0.online == true }.count)),
                    "groups": .array(roster.groups.map(JSONValue.string)),
                    "screens": .array(changed.prefix(limit).map(ScreenSummary.json)),
                    "ids": since > 0 ? .array(matching.map { .string($0.id) }) : .null,
                ]
            }
            return jsonResponse(answer.withBroker(connected: console.link.isConnected, synced: console.link.isSynced))
        }
        api.get("screen") { request, _ -> Response in
            let id = try screenID(request)
            guard let screen = console.link.withRoster({ $0.screens[id] }) else { throw HTTPError(.notFound, message: "no screen \(id)") }
            var json = screen.json.objectValue ?? [:]
            json["thumbnails"] = .array(console.link.thumbnails(of: id).map { .double($0.at) })
            return jsonResponse(.object(json))
        }
        // The kept screenshots: `n` back from the newest (0).
        api.get("thumbnail.jpg") { request, _ -> Response in
            let id = try screenID(request)
            let kept = console.link.thumbnails(of: id)
            let back = request.uri.queryParameters["n"].flatMap { Int($0) } ?? 0
            guard back >= 0, back < kept.count else { throw HTTPError(.notFound, message: "no screenshot of \(id)") }
            return Response(
                status: .ok, headers: [.contentType: "image/jpeg", .cacheControl: "no-store"],
                body: .init(byteBuffer: ByteBuffer(bytes: kept[kept.count - 1 - back].jpeg)))
        }
        // A screenshot now (anyone who sees the wall may ask: it changes nothing on the screen).
        api.post("thumbnail") { request, context -> Response in
            let body = try await jsonBody(request, context)
            guard let id = body["screen"]?.stringValue, FleetRoster.isPlayerID(id) else {
                throw HTTPError(.badRequest, message: "name a screen")
            }
            switch await console.link.takeThumbnail(player: id) {
            case .success(let jpeg): return jsonResponse(["bytes": .int(Int64(jpeg.count))])
            case .failure(let error): throw HTTPError(.badGateway, message: "no screenshot: \(error)")
            }
        }
    }

    static func screenID(_ request: Request) throws -> String {
        guard let id = request.uri.queryParameters["id"].map(String.init), FleetRoster.isPlayerID(id) else {
            throw HTTPError(.badRequest, message: "name a screen (?id=)")
        }
        return id
    }
}

extension JSONValue {
    /// `broker`: `connected` (its retained documents in: pushes may go), `syncing` or `disconnected`.
    func withBroker(connected: Bool, synced: Bool) -> JSONValue {
        guard var object = objectValue else { return self }
        object["broker"] = .string(synced ? "connected" : connected ? "syncing" : "disconnected")
        return .object(object)
    }
}

/// What the wall's search box, group menu and state menu ask for.
struct ScreenFilter {
    var text: String?
    var group: String?
    /// `online`, `offline`, `refused`, `pending`.
    var state: String?

    func matches(_ screen: ScreenState) -> Bool {
        if let group, !group.isEmpty, !screen.groups.contains(group) { return false }
        switch state ?? "" {
        case "online": if screen.online != true { return false }
        case "offline": if screen.online == true { return false }
        case "refused": if screen.reported?.error == nil { return false }
        case "pending": if screen.reported?.pendingRev == nil { return false }
        default: break
        }
        if let text, !text.isEmpty {
            let needle = text.lowercased()
            let haystack = [screen.id, screen.reported?.current?.title ?? "", screen.reported?.current?.uri ?? ""]
                + screen.groups
            if !haystack.contains(where: { $0.lowercased().contains(needle) }) { return false }
        }
        return true
    }
}

/// A screen as the wall shows it: the fields a tile needs, without the whole health document.
enum ScreenSummary {
    static func json(_ screen: ScreenState) -> JSONValue {
        let reported = screen.reported
        var object: JSONObject = [
            "id": .string(screen.id), "online": screen.online.map(JSONValue.bool) ?? .null,
            "since": screen.since.map(JSONValue.double) ?? .null, "groups": .array(screen.groups.map(JSONValue.string)),
            "state": reported.map { .string($0.state.rawValue) } ?? .null,
            "appliedRev": reported?.appliedRev.map(JSONValue.int) ?? .null,
            "pendingRev": reported?.pendingRev.map(JSONValue.int) ?? .null,
            "error": reported?.error.map(JSONValue.string) ?? .null,
            "title": (reported?.current?.title ?? reported?.current?.uri).map(JSONValue.string) ?? .null,
            "lastPlayAt": screen.lastPlayAt.map(JSONValue.double) ?? .null,
        ]
        if let rss = reported?.health?["rss"] { object["rss"] = rss }
        if let dropped = reported?.health?["framesDropped"] { object["framesDropped"] = dropped }
        if let host = reported?.host { object["host"] = host }
        if let applying = reported?.applying {
            object["applying"] = [
                "rev": .int(applying.rev), "complete": .int(Int64(applying.progress.complete)),
                "total": .int(Int64(applying.progress.total)),
            ]
        }
        return .object(object)
    }
}

/// On `/api`: a session cookie of a user who still has that role, and a change (any method but GET/HEAD) from this origin with the session's
/// CSRF token. There is no bearer token: every action is a named user's.
struct ConsoleGuard: RouterMiddleware {
    typealias Context = WebContext
    let settings: ConsoleSettings
    let sessions: SessionStore
    let users: ConsoleUsers

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard let cookie = request.cookies[SessionStore.cookieName]?.value, let session = await sessions.lookup(cookie) else {
            throw HTTPError(.unauthorized, message: "sign in first")
        }
        // A user removed, given another role or a new password (on the page, by hand, by --add-user) is signed out.
        guard let standing = await users.standing(of: session.user), standing.role.rawValue == session.role,
            standing.credential == session.credential
        else {
            await sessions.end(cookie)
            throw HTTPError(.unauthorized, message: "sign in again")
        }
        if request.method != .get && request.method != .head {
            guard HostPolicy.isSameOrigin(request.headers[.origin], host: request.head.authority, secure: settings.secureOrigin) else {
                throw HTTPError(.forbidden, message: "request from another site")
            }
            guard let sent = request.headers[WebServer.csrfHeader], sameSecret(sent, session.csrf) else {
                throw HTTPError(.forbidden, message: "missing or wrong CSRF token")
            }
        }
        var context = context
        context.session = session
        return try await next(request, context)
    }
}
