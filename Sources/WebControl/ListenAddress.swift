// `--listen ADDRESS:PORT` as queued-web and queued-fleet take it (`[::1]:8080` for IPv6), and whether the
// address is loopback — where a page may listen without TLS.

public enum ListenAddress {
    /// The host and port of `text`, or nil when it is not ADDRESS:PORT.
    public static func parse(_ text: String) -> (host: String, port: Int)? {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (0...65535).contains(port)
        else { return nil }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return host.isEmpty ? nil : (host, port)
    }

    /// Whether only this machine can connect to `host`.
    public static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}
