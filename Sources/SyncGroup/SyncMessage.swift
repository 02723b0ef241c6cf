// What the members of a sync group say to each other over UDP, one JSON object per datagram (queued-sync
// seals each with the group's key; see SyncSeal there). Every member sends every message to the whole
// group; a message names its sender (`from`, and `session`: a fresh number each start, so a restarted
// member's counting starts anew), and `seq` only ever grows within a session, so a copy replayed later is
// dropped. Read strictly: anything else is not a message.

import JSONText

public struct SyncMessage: Sendable, Equatable {
    public enum Body: Sendable, Equatable {
        /// "I am up, and follow `follows`", with how far this member is from its leader, this run's
        /// `challenge` (a random number the others echo) and the challenges it heard from the others, echoed.
        case hello(follows: String?, stats: MemberStats?, challenge: UInt64, echoes: [String: UInt64])
        /// A follower asks the leader's time: `sent` on the follower's clock.
        case ping(to: String, sent: Double)
        /// The leader's answer: `received` and `answered` on its own clock.
        case pong(to: String, sent: Double, received: Double, answered: Double)
        /// The leader's play: item at queue `index`, its `play`-th play, heard at `position` at `at` (the leader's
        /// clock), the queue's version (the leader's own) and the item's length.
        case timeline(index: Int, play: Int, position: Double, at: Double, duration: Double?, queue: Int64, uri: String)
        /// The leader's queue: every item as queue.replace takes it, and the whole queue's loops.
        case queue(version: Int64, items: [JSONValue], loops: Int64)
    }

    public var group: String
    public var from: String
    public var session: UInt64
    public var seq: UInt64
    public var body: Body

    public init(group: String, from: String, session: UInt64, seq: UInt64, body: Body) {
        (self.group, self.from, self.session, self.seq, self.body) = (group, from, session, seq, body)
    }

    public static let maximumBytes = 60_000
    public static let maximumName = 64

    public var json: JSONValue {
        var object: JSONObject = [
            "group": .string(group), "from": .string(from), "session": .string(String(session)), "seq": .string(String(seq)),
        ]
        switch body {
        case .hello(let follows, let stats, let challenge, let echoes):
            object["kind"] = "hello"
            object["follows"] = follows.map(JSONValue.string) ?? .null
            if let stats { object["stats"] = stats.json }
            object["challenge"] = .string(String(challenge))
            var echoed = JSONObject()
            for (peer, value) in echoes { echoed[peer] = .string(String(value)) }
            object["echoes"] = .object(echoed)
        case .ping(let to, let sent):
            object["kind"] = "ping"
            (object["to"], object["sent"]) = (.string(to), .double(sent))
        case .pong(let to, let sent, let received, let answered):
            object["kind"] = "pong"
            (object["to"], object["sent"], object["received"], object["answered"]) = (.string(to), .double(sent), .double(received), .double(answered))
        case .timeline(let index, let play, let position, let at, let duration, let queue, let uri):
            object["kind"] = "timeline"
            object["uri"] = .string(uri)
            (object["index"], object["play"], object["position"], object["at"]) = (.int(Int64(index)), .int(Int64(play)), .double(position), .double(at))
            object["duration"] = duration.map(JSONValue.double) ?? .null
            object["queue"] = .int(queue)
        case .queue(let version, let items, let loops):
            object["kind"] = "queue"
            (object["version"], object["items"], object["loops"]) = (.int(version), .array(items), .int(loops))
        }
        return .object(object)
    }

    /// The message `json` is, or nil.
    public init?(json: JSONValue) {
        guard let group = json["group"]?.stringValue, let from = json["from"]?.stringValue, Self.isName(group), Self.isName(from),
            let session = json["session"]?.stringValue.flatMap({ UInt64($0) }), let seq = json["seq"]?.stringValue.flatMap({ UInt64($0) }),
            let kind = json["kind"]?.stringValue
        else { return nil }
        // Times and positions within a few centuries: nothing a member prints or converts can overflow.
        func number(_ key: String) -> Double? { json[key]?.doubleValue.flatMap { $0.isFinite && abs($0) < 1e10 ? $0 : nil } }
        func name(_ key: String) -> String? { json[key]?.stringValue.flatMap { Self.isName($0) ? $0 : nil } }
        let body: Body
        switch kind {
        case "hello":
            let stats = json["stats"].flatMap(MemberStats.init(json:))
            guard let challenge = json["challenge"]?.stringValue.flatMap({ UInt64($0) }), let echoed = json["echoes"]?.objectValue,
                echoed.count <= 256
            else { return nil }
            var echoes: [String: UInt64] = [:]
            for (peer, value) in echoed {
                guard Self.isName(peer), let number = value.stringValue.flatMap({ UInt64($0) }) else { return nil }
                echoes[peer] = number
            }
            var follows: String?
            if json["follows"] != .null && json["follows"] != nil {
                guard let followed = name("follows") else { return nil }
                follows = followed
            }
            body = .hello(follows: follows, stats: stats, challenge: challenge, echoes: echoes)
        case "ping":
            guard let to = name("to"), let sent = number("sent") else { return nil }
            body = .ping(to: to, sent: sent)
        case "pong":
            guard let to = name("to"), let sent = number("sent"), let received = number("received"), let answered = number("answered")
            else { return nil }
            body = .pong(to: to, sent: sent, received: received, answered: answered)
        case "timeline":
            guard let index = json["index"]?.intValue, let play = json["play"]?.intValue, let position = number("position"),
                let at = number("at"), let queue = json["queue"]?.intValue, (0...1_000_000).contains(index),
                (0...Int64(Int32.max)).contains(play), position >= 0, let uri = json["uri"]?.stringValue, uri.utf8.count <= 8192
            else { return nil }
            body = .timeline(
                index: Int(index), play: Int(play), position: position, at: at, duration: number("duration"), queue: queue, uri: uri)
        case "queue":
            guard let version = json["version"]?.intValue, let items = json["items"]?.arrayValue, let loops = json["loops"]?.intValue,
                items.count <= 10_000, loops >= 0
            else { return nil }
            body = .queue(version: version, items: items, loops: loops)
        default:
            return nil
        }
        self.init(group: group, from: from, session: session, seq: seq, body: body)
    }

    /// A group's or a member's name: 1–64 of letters, digits, `-`, `_`, `.`.
    public static func isName(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= maximumName
            && text.utf8.allSatisfy { byte in
                (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) || byte == 45 || byte == 95 || byte == 46
            }
    }
}

/// Which senders' words are believed, and which of their datagrams were taken already. A datagram sealed with
/// the key may still be a recording: so a sender's run (`session`, a random number each start) is believed
/// only once one of its hellos has echoed this member's own `challenge` — a random number of this run, so no
/// recording made before it can echo it. A run that gave way to a newer one is never believed again (a
/// recording of it made since cannot bring it back). Within a run, as IPsec and DTLS do: the highest
/// sequence number taken and which of the 64 below it were taken — a datagram overtaken on the way (jitter
/// reorders them) is taken once, one older than the window or seen is not. Hellos are always read for their
/// challenge (to echo it), never believed before that. At most 1024 senders are remembered. Pure.
public struct PeerTrust: Sendable {
    public static let window: UInt64 = 64
    public let me: String
    public let challenge: UInt64
    /// The challenges heard from each sender (what this member's hellos echo).
    public private(set) var challenges: [String: UInt64] = [:]
    private var believed: [String: (session: UInt64, highest: UInt64, seen: UInt64)] = [:]
    private var retired: [String: [UInt64]] = [:]

    public init(me: String, challenge: UInt64 = UInt64.random(in: 1...UInt64.max)) {
        (self.me, self.challenge) = (me, challenge)
    }

    /// Whether to act on `message`.
    public mutating func accept(_ message: SyncMessage) -> Bool {
        let sender = message.from
        guard challenges[sender] != nil || challenges.count < 1024 else { return false }
        if case .hello(_, _, let theirs, let echoes) = message.body {
            challenges[sender] = theirs
            if echoes[me] == challenge, believed[sender]?.session != message.session,
                !(retired[sender] ?? []).contains(message.session)
            {
                if let old = believed[sender]?.session { retired[sender, default: []] = Array(((retired[sender] ?? []) + [old]).suffix(16)) }
                believed[sender] = (message.session, message.seq, 1)
                return true
            }
        }
        guard let known = believed[sender], known.session == message.session else { return false }
        if message.seq > known.highest {
            let shift = message.seq - known.highest
            let seen = shift >= Self.window ? 1 : (known.seen << shift) | 1
            believed[sender] = (known.session, message.seq, seen)
            return true
        }
        let back = known.highest - message.seq
        guard back < Self.window, known.seen & (1 << back) == 0 else { return false }
        believed[sender] = (known.session, known.highest, known.seen | (1 << back))
        return true
    }
}

/// How far a member is from its leader, as it says in its hellos (milliseconds and ppm; nil: not measured).
public struct MemberStats: Sendable, Equatable {
    public var offsetP50: Double?
    public var offsetP99: Double?
    public var driftPPM: Double?
    public var trimPPM: Double?
    public var realignments: Int

    public init(offsetP50: Double?, offsetP99: Double?, driftPPM: Double?, trimPPM: Double?, realignments: Int) {
        (self.offsetP50, self.offsetP99, self.driftPPM, self.trimPPM, self.realignments) = (offsetP50, offsetP99, driftPPM, trimPPM, realignments)
    }

    init?(json: JSONValue) {
        func number(_ key: String) -> Double? { json[key]?.doubleValue.flatMap { $0.isFinite && abs($0) < 1e9 ? $0 : nil } }
        (offsetP50, offsetP99, driftPPM, trimPPM) = (number("offsetP50"), number("offsetP99"), number("driftPPM"), number("trimPPM"))
        realignments = Int(max(0, min(1_000_000_000, json["realignments"]?.intValue ?? 0)))
    }

    var json: JSONValue {
        func number(_ value: Double?) -> JSONValue { value.map(JSONValue.double) ?? .null }
        return [
            "offsetP50": number(offsetP50), "offsetP99": number(offsetP99), "driftPPM": number(driftPPM), "trimPPM": number(trimPPM),
            "realignments": .int(Int64(realignments)),
        ]
    }
}
