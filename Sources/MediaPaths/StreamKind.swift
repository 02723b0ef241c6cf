// Which item URIs are streams FFmpeg reads itself (live TV, cameras, encoders: rtsp(s), rtmp(s), srt, udp,
// rtp, and HLS/DASH over http(s)), read one way for the daemon, the engine and the doors (ItemURI counts
// them as network items), and how a stream's URL is shown: its credentials never reach a log or an event.
// How each kind is opened is the media module's (Media/StreamURI.swift).

public enum StreamKind: String, Sendable, CaseIterable {
    case rtsp, rtmp, srt, udp, rtp, hls, dash

    /// The kind of stream `uri` names, or nil when it is not one (a file, an http(s) file, another scheme).
    /// Read without allocating: the cache asks it of every http(s) item as it walks a queue of millions.
    public init?(uri: String) {
        let bytes = uri.utf8
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")),
            bytes.distance(from: bytes.startIndex, to: colon) <= 5
        else { return nil }
        switch uri[..<colon].lowercased() {
        case "rtsp", "rtsps": self = .rtsp
        case "rtmp", "rtmps": self = .rtmp
        case "srt": self = .srt
        case "udp": self = .udp
        case "rtp": self = .rtp
        case "http", "https":
            let path = Self.path(of: uri)
            if Self.path(path, endsWith: ".m3u8") || Self.path(path, endsWith: ".m3u") {
                self = .hls
            } else if Self.path(path, endsWith: ".mpd") {
                self = .dash
            } else {
                return nil
            }
        default: return nil
        }
    }

    /// The URL's path, without query or fragment (empty without one).
    private static func path(of uri: String) -> Substring.UTF8View {
        guard let afterScheme = afterSchemeSeparator(uri) else { return Substring("").utf8 }
        let rest = uri[afterScheme...].utf8
        let path = rest.drop { $0 != UInt8(ascii: "/") }
        return Substring(path.prefix { $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") }).utf8
    }

    /// Whether `path` ends with `suffix` (lowercase ASCII), in any case.
    private static func path(_ path: Substring.UTF8View, endsWith suffix: StaticString) -> Bool {
        let count = suffix.utf8CodeUnitCount
        guard path.count >= count else { return false }
        return suffix.withUTF8Buffer { wanted in
            zip(path.suffix(count), wanted).allSatisfy { byte, lower in
                (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) == lower
            }
        }
    }

    /// Where the text after `scheme://` begins (no Foundation in this module).
    private static func afterSchemeSeparator(_ uri: String) -> String.Index? {
        guard let colon = uri.firstIndex(of: ":") else { return nil }
        let rest = uri[colon...]
        guard rest.hasPrefix("://") else { return nil }
        return uri.index(colon, offsetBy: 3)
    }

    /// Whether the kind carries its own clock the player must follow (live when no duration is known).
    /// Kinds read over datagrams or a session only ever play live.
    public var alwaysLive: Bool {
        switch self {
        case .udp, .rtp, .srt, .rtmp: true
        case .rtsp, .hls, .dash: false
        }
    }

    /// Why `uri`'s query may not be played, or nil. FFmpeg reads options from a udp, rtp or srt URL's query,
    /// and those would otherwise override the daemon's: `mode=listener` (SRT) would open a listening port —
    /// the daemon keeps no network listener —, and `fifo_size=…` (UDP) allocates what it is told. So those
    /// kinds take only the options a receiver needs, sizes bounded. Other kinds' queries go to their server.
    public func queryRefusal(_ uri: String) -> String? {
        guard self == .udp || self == .rtp || self == .srt, let question = uri.firstIndex(of: "?") else { return nil }
        let receiving: [String: Int?] = [
            "localaddr": nil, "sources": nil, "block": nil, "reuse": 1, "reuse_socket": 1, "ttl": 255,
            "pkt_size": 65_535, "buffer_size": 16 << 20, "fifo_size": 500_000, "overrun_nonfatal": 1,
            "timeout": 60_000_000,
        ]
        let srt: [String: Int?] = [
            "mode": nil, "latency": 10_000_000, "rcvlatency": 10_000_000, "peerlatency": 10_000_000,
            "passphrase": nil, "pbkeylen": 32, "streamid": nil, "connect_timeout": 60_000, "transtype": nil,
            "payload_size": 1_456, "pkt_size": 1_456, "timeout": 60_000_000,
        ]
        let allowed = self == .srt ? srt : receiving
        let query = uri[uri.index(after: question)...].prefix { $0 != "#" }
        for parameter in query.split(separator: "&") {
            let name = String(parameter.prefix { $0 != "=" }).lowercased()
            let value = parameter.drop { $0 != "=" }.dropFirst()
            guard let limit = allowed[name] else {
                return "the \(rawValue) option \(name) is not one a player may set"
            }
            if name == "mode" && value.lowercased() != "caller" {
                return "an SRT stream is called (mode=caller): the daemon does not listen"
            }
            if name == "transtype" && value.lowercased() != "live" { return "an SRT stream's transtype is live" }
            if let limit {
                guard let number = Int(value), number >= 0, number <= limit else {
                    return "the \(rawValue) option \(name) must be a whole number from 0 to \(limit)"
                }
            }
        }
        return nil
    }

    /// `uri` with any user and password replaced by `***` (`rtsp://***@camera/…`), and the values of query
    /// parameters that carry secrets (SRT's `passphrase`, a `token`): what logs and events show of a URL.
    public static func redacted(_ uri: String) -> String {
        guard let afterScheme = afterSchemeSeparator(uri) else { return uri }
        var text = uri
        let rest = uri[afterScheme...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? uri.endIndex
        if let at = uri[afterScheme..<authorityEnd].lastIndex(of: "@") {
            text = String(uri[..<afterScheme]) + "***" + String(uri[at...])
        }
        guard let question = text.firstIndex(of: "?") else { return text }
        // A fragment is not part of the query (the state files' credential token is one): it stays as it is.
        let fragment = text[question...].firstIndex(of: "#") ?? text.endIndex
        let parameters = text[text.index(after: question)..<fragment].split(separator: "&", omittingEmptySubsequences: false)
            .map { parameter -> String in
                let name = parameter.prefix { $0 != "=" }.lowercased()
                let secret = ["passphrase", "password", "pass", "pwd", "token", "key", "auth", "secret"]
                guard parameter.contains("="), secret.contains(name) else { return String(parameter) }
                return String(parameter.prefix { $0 != "=" }) + "=***"
            }
        return String(text[...question]) + parameters.joined(separator: "&") + String(text[fragment...])
    }
}
