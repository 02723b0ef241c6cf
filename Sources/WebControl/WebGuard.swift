// The door every request passes: the Host must name this server (DNS rebinding), `/api/*` needs a session
// cookie or the bearer token (`/api/login` excepted), and a change (any method but GET/HEAD) made with a
// cookie must come from this origin and carry the session's CSRF token. Every answer, refusals included,
// gets the security headers: a content security policy with no inline script and nothing from elsewhere.

import HTTPTypes
import Hummingbird
import Logging

struct WebGuard: RouterMiddleware {
    typealias Context = WebContext
    let settings: WebSettings
    let sessions: SessionStore
    let logger: Logger

    static let policy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob:; connect-src 'self'; "
        + "font-src 'self'; manifest-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
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
        return response
    }

    private func check(_ request: Request, _ context: Context, _ next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        guard settings.hosts.accepts(host: request.head.authority) else {
            logger.warning("refused a request for host \(request.head.authority ?? "(none)")")
            throw HTTPError(.misdirectedRequest, message: "this server does not answer for that host name")
        }
        let changing = request.method != .get && request.method != .head
        let origin = request.headers[.origin]
        let sameOrigin = HostPolicy.isSameOrigin(origin, host: request.head.authority, secure: settings.secureOrigin)
        let path = request.uri.path
        var context = context
        if path == "/api/login" {
            // A browser always sends Origin on a POST; a script may send none.
            if origin != nil && !sameOrigin { throw HTTPError(.forbidden, message: "signing in from another site") }
            return try await next(request, context)
        }
        guard path.hasPrefix("/api/") else { return try await next(request, context) }
        if let authorization = request.headers[.authorization], authorization.hasPrefix("Bearer ") {
            guard settings.access.isToken(String(authorization.dropFirst(7))) else {
                throw HTTPError(.unauthorized, message: "wrong token")
            }
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
