// The doors every request passes. `WebGuard`, on the whole router: the request target must be in canonical
// form (one slash between segments, no `.` or `..` segment, no percent-escape, no backslash, no upper case, no
// trailing slash) — refused with 400 before any route is matched, so no other spelling of a path can reach a
// handler — and the Host must name this server (DNS rebinding). Every answer, refusals included, gets the
// security headers (a content security policy with no inline script and nothing from elsewhere; HSTS when the
// page is served over https). `APIGuard`, on the `/api` route group itself (so it guards what the router
// matched, never the text of the request line): a session cookie or the bearer token, and a change (any
// method but GET/HEAD) made with a cookie must come from this origin and carry the session's CSRF token.

import HTTPTypes
import Hummingbird
import Logging

package struct WebGuard: RouterMiddleware {
    package typealias Context = WebContext
    let settings: WebSettings
    let logger: Logger

    package init(settings: WebSettings, logger: Logger) {
        self.settings = settings
        self.logger = logger
    }

    package static let policy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob:; connect-src 'self'; "
        + "font-src 'self'; manifest-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var response: Response
        do {
            response = try await check(request, context, next)
        } catch let error as any HTTPResponseError {
            // A thrown error becomes a response only after every middleware: made here, it gets the headers too.
            response = try error.response(from: request, context: context)
        }
        response.headers[.contentSecurityPolicy] = Self.policy
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        response.headers[HTTPField.Name("X-Frame-Options")!] = "DENY"
        if settings.secureOrigin {
            response.headers[HTTPField.Name("Strict-Transport-Security")!] = "max-age=31536000"
        }
        return response
    }

    private func check(_ request: Request, _ context: Context, _ next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        guard Self.isCanonical(target: request.head.path ?? "") else {
            logger.warning("refused a request for a path not in canonical form: \(request.head.path?.prefix(200) ?? "")")
            throw HTTPError(.badRequest, message: "the path is not in canonical form")
        }
        guard settings.hosts.accepts(host: request.head.authority) else {
            logger.warning("refused a request for host \(request.head.authority ?? "(none)")")
            throw HTTPError(.misdirectedRequest, message: "this server does not answer for that host name")
        }
        return try await next(request, context)
    }

    /// Whether the request target's path (before any `?`) is the one spelling of itself this server serves.
    package static func isCanonical(target: String) -> Bool {
        let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        guard path.hasPrefix("/") else { return false }
        if path == "/" { return true }
        guard !path.hasSuffix("/") else { return false }
        for segment in path.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            if segment.isEmpty || segment == "." || segment == ".." { return false }
            for byte in segment.utf8 {
                // Letters, digits and - . _ only: what the page's routes and file names are made of.
                let allowed =
                    (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
                if !allowed { return false }
            }
        }
        return true
    }
}

/// On the `/api` group: who is asking (session cookie or bearer token), and that a change comes from this page.
struct APIGuard: RouterMiddleware {
    typealias Context = WebContext
    let settings: WebSettings
    let sessions: SessionStore
    /// A wrong bearer token is a failed sign-in too: slowed and logged like one.
    let throttle: SignInThrottle

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let changing = request.method != .get && request.method != .head
        let origin = request.headers[.origin]
        let sameOrigin = HostPolicy.isSameOrigin(origin, host: request.head.authority, secure: settings.secureOrigin)
        var context = context
        if let authorization = request.headers[.authorization], authorization.hasPrefix("Bearer ") {
            let client = context.client(request, behindProxy: settings.secureOrigin)
            try await WebServer.checkSecret(
                String(authorization.dropFirst(7)), from: client, throttle: throttle, logger: context.logger
            ) { settings.access.isToken($0) }
            // A script: no cookie, so nothing a browser could be tricked into sending. From a browser (an
            // Origin) it must still be this one.
            if changing, origin != nil, !sameOrigin { throw HTTPError(.forbidden, message: "request from another site") }
            context.bearer = true
            return try await next(request, context)
        }
        guard let cookie = request.cookies[SessionStore.cookieName]?.value, let session = await sessions.lookup(cookie) else {
            throw HTTPError(.unauthorized, message: "sign in first")
        }
        if changing {
            guard sameOrigin else { throw HTTPError(.forbidden, message: "request from another site") }
            guard let sent = request.headers[WebServer.csrfHeader], sameSecret(sent, session.csrf) else {
                throw HTTPError(.forbidden, message: "missing or wrong CSRF token")
            }
        }
        context.session = session
        return try await next(request, context)
    }
}
