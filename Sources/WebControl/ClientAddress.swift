// Who a request comes from, for the sign-in throttle, the session caps and the log: the peer's IP address —
// or, only when the page is behind an https:// reverse proxy (`--behind-https`) and the peer is that proxy on
// loopback, the last `X-Forwarded-For` entry (the one the proxy itself added; earlier ones are the caller's
// to forge). Pure: addresses in, a name out.

import Foundation

public enum ClientAddress {
    /// `peer`: the connection's remote IP (nil for a test client without one).
    public static func of(peer: String?, forwardedFor: String?, behindProxy: Bool) -> String {
        let peer = peer ?? "unknown"
        guard behindProxy, isLoopback(peer), let forwardedFor,
            let last = forwardedFor.split(separator: ",").last?.trimmingCharacters(in: .whitespaces),
            HostPolicy.isIPLiteral(last) || HostPolicy.isIPLiteral("[\(last)]")
        else { return peer }
        return last
    }

    public static func isLoopback(_ address: String) -> Bool {
        address.hasPrefix("127.") || address == "::1" || address.hasPrefix("::ffff:127.")
    }
}
