// Where a request says it comes from, checked before anything else: the `Host` must name this server (an IP
// literal, localhost, this machine's name or one the operator allowed) — a page from a rebinding DNS name
// reaches us with its own name as Host and is refused; a state-changing request and the WebSocket upgrade
// must carry an `Origin` that is this very server (a script with a bearer token sends none and is let
// through on its token alone). Pure: headers in, a verdict out.

import Foundation

public struct HostPolicy: Sendable {
    /// Names (lowercase, no port) accepted besides IP literals and localhost.
    public var names: Set<String>

    public init(allowed: [String] = [], hostName: String = ProcessInfo.processInfo.hostName) {
        var names = Set(allowed.map { $0.lowercased() })
        let short = hostName.lowercased().split(separator: ".").first.map(String.init) ?? hostName.lowercased()
        names.formUnion([hostName.lowercased(), short, short + ".local"])
        self.names = names.filter { !$0.isEmpty }
    }

    /// `authority` without its port: `host`, `[v6]`.
    static func hostPart(_ authority: String) -> String {
        let lower = authority.lowercased()
        if lower.hasPrefix("[") {
            guard let close = lower.firstIndex(of: "]") else { return lower }
            return String(lower[...close])
        }
        return lower.split(separator: ":", maxSplits: 1).first.map(String.init) ?? lower
    }

    static func isIPLiteral(_ host: String) -> Bool {
        if host.hasPrefix("[") && host.hasSuffix("]") {
            var address = in6_addr()
            return inet_pton(AF_INET6, String(host.dropFirst().dropLast()), &address) == 1
        }
        var address = in_addr()
        return inet_pton(AF_INET, host, &address) == 1
    }

    /// Whether the Host header names this server.
    public func accepts(host authority: String?) -> Bool {
        guard let authority, !authority.isEmpty else { return false }
        let host = Self.hostPart(authority)
        return host == "localhost" || Self.isIPLiteral(host) || names.contains(host)
    }

    /// Whether `origin` is this server as the browser reached it (scheme and authority as in Host).
    public static func isSameOrigin(_ origin: String?, host authority: String?, secure: Bool) -> Bool {
        guard let origin, let authority else { return false }
        let scheme = secure ? "https://" : "http://"
        return origin.lowercased() == scheme + authority.lowercased()
    }
}
