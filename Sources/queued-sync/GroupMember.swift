// One member of a sync group at work. The receiving thread takes every sealed message: hellos feed the
// election, a ping to this member (the leader) is answered at once with its arrival and departure times,
// a pong feeds the clock estimate, the leader's timeline and queue are kept. The ticking thread, four times
// a second, says hello, and then as leader tells the group its play (and its queue when it changed, and
// every 5 s), or as follower asks the leader's time, mirrors its queue, compares plays and trims or
// re-aligns its own daemon; once a second it tells its daemon how the group stands (sync.report).
// The lock guards what both threads share; no waiting (sockets, the daemon) under it.

import FoundationEssentials
import Glibc
import JSONText
import QueueClient
import QueueRPC
import SyncGroup
import SystemClock
import SystemSupport

final class GroupMember: @unchecked Sendable {
    static let tick = 0.25
    /// The keys of a queue item that queue.replace takes back as they are.
    static let mirroredKeys = [
        "uri", "loops", "start", "end", "title", "trackEnd", "schedule", "transition", "motion", "onStall", "program", "latency", "type",
    ]

    private let group: String
    private let me: String
    private let socketPath: String
    private let network: GroupSocket
    private let clock: GroupClock
    /// This run's number: random, so that nothing recorded of an earlier run passes for this one.
    private let session = UInt64.random(in: 1...UInt64.max)
    private let lock = ThreadLock()
    private var stopped = false

    /// Guarded by `lock`.
    private var sequence: UInt64 = 0
    private var trust: PeerTrust
    private var election: LeaderElection
    private var estimator = ClockEstimator()
    private var estimatedLeader: String?
    private var leaderTimeline: PlayHeard?
    /// The leader's queue version its last timeline was read at (its `index` is a place in that queue).
    private var leaderTimelineQueue: Int64?
    private var leaderQueue: (version: Int64, items: [JSONValue], loops: Int64)?
    private var peerStats: [String: (stats: MemberStats?, follows: String?, seen: Double)] = [:]
    /// This member's figures, as the ticking thread last made them (for the hellos).
    private var ownStats: MemberStats?

    /// The ticking thread's own.
    private var client: QueueClient?
    private var follower: FollowerLoop
    private var offsets = OffsetWindow()
    private var realignments = 0
    private var trimPPM = 0.0
    private var ledLast = false
    private var toldQueueVersion: Int64?
    private var toldQueueAt = -Double.infinity
    /// The leader's queue and its current place as last mirrored.
    private var mirrored: (items: [JSONValue], loops: Int64, current: Int)?
    private var lastReport = -Double.infinity

    init(group: String, me: String, socketPath: String, network: GroupSocket, clock: GroupClock, threshold: Double) {
        (self.group, self.me, self.socketPath, self.network, self.clock) = (group, me, socketPath, network, clock)
        election = LeaderElection(me: me, startedAt: clock.now())
        trust = PeerTrust(me: me)
        follower = FollowerLoop(correction: DriftCorrection(threshold: threshold))
    }

    func start() {
        Threads.start(named: "sync.receive") { [self] in receiving() }
        Threads.start(named: "sync.hello") { [self] in helloing() }
        Threads.start(named: "sync.tick") { [self] in ticking() }
    }

    func stop() { lock.withLock { stopped = true } }
    private var isStopped: Bool { lock.withLock { stopped } }

    private func message(_ body: SyncMessage.Body) -> SyncMessage {
        let seq = lock.withLock { () -> UInt64 in
            sequence += 1
            return sequence
        }
        return SyncMessage(group: group, from: me, session: session, seq: seq, body: body)
    }

    // MARK: Receiving thread

    private func receiving() {
        while !isStopped {
            guard let (message, arrived) = network.receive(stamp: clock.now), message.group == group, message.from != me else { continue }
            guard lock.withLock({ trust.accept(message) }) else { continue }
            switch message.body {
            case .hello(let follows, let stats, _, _):
                lock.withLock {
                    election.heard(message.from, follows: follows, at: arrived)
                    peerStats[message.from] = (stats, follows, arrived)
                }
            case .ping(let to, let sent):
                guard to == me, lock.withLock({ election.isLeader }) else { continue }
                network.send(self.message(.pong(to: message.from, sent: sent, received: arrived, answered: clock.now())))
            case .pong(let to, let sent, let received, let answered):
                guard to == me else { continue }
                lock.withLock {
                    guard election.leader == message.from else { return }
                    if estimatedLeader != message.from {
                        estimator = ClockEstimator()
                        estimatedLeader = message.from
                    }
                    estimator.add(ClockExchange(sent: sent, received: received, answered: answered, returned: arrived))
                }
            case .timeline(let index, let play, let position, let at, let duration, let queue, let uri):
                lock.withLock {
                    guard election.leader == message.from else { return }
                    leaderTimeline = PlayHeard(index: index, play: play, position: position, at: at, duration: duration, uri: uri)
                    leaderTimelineQueue = queue
                }
            case .queue(let version, let items, let loops):
                lock.withLock {
                    guard election.leader == message.from else { return }
                    leaderQueue = (version, items, loops)
                }
            }
        }
    }

    // MARK: Ticking thread

    /// Runs `body` every `Self.tick` seconds until stopped.
    private func every(_ body: () -> Void) {
        var next = Monotonic.now()
        while !isStopped {
            next += Self.tick
            body()
            let wait = next - Monotonic.now()
            if wait > 0 { usleep(useconds_t(wait * 1e6)) } else { next = Monotonic.now() }
        }
    }

    /// The hellos and the pings on their own thread: a daemon slow to answer never makes this member look
    /// gone to the group, nor its clock exchanges late.
    private func helloing() {
        every {
            let now = clock.now()
            let (leader, stats, challenge, echoes) = lock.withLock { () -> (String?, MemberStats?, UInt64, [String: UInt64]) in
                let before = election.leader
                let leader = election.decide(at: now)
                if leader != before {
                    log("queued-sync: leader \(leader ?? "none") (\(election.described))")
                    // What the last leader said is not the new one's.
                    leaderTimeline = nil
                    leaderQueue = nil
                }
                return (leader, ownStats, trust.challenge, trust.challenges)
            }
            network.send(message(.hello(follows: leader, stats: stats, challenge: challenge, echoes: echoes)))
            if let leader, leader != me { network.send(message(.ping(to: leader, sent: clock.now()))) }
        }
    }

    private func ticking() { every { tickOnce() } }

    private func tickOnce() {
        let now = clock.now()
        let leader = lock.withLock { election.leader }
        let stats = MemberStats(
            offsetP50: offsets.median.map { $0 * 1000 }, offsetP99: offsets.p99.map { $0 * 1000 },
            driftPPM: leader == me ? nil : lock.withLock { estimator.isReady ? estimator.driftPPM : nil }, trimPPM: trimPPM,
            realignments: realignments)
        lock.withLock { ownStats = stats }
        guard let leader else { return }
        do {
            let daemon = try connected()
            if leader == me {
                if !ledLast {
                    log("queued-sync: \(me) leads group \(group)")
                    // The group goes on at the pace it had: this member's learned drift stays as its trim,
                    // what it was correcting besides does not (the others would chase it).
                    trimPPM = try trim(daemon, ppm: follower.correction.drift * 1e6)
                    offsets.clear()
                }
                ledLast = true
                try lead(daemon, now: now)
            } else {
                if ledLast { log("queued-sync: \(me) follows \(leader)") }
                ledLast = false
                try follow(daemon, leader: leader)
            }
            if now - lastReport >= 1 {
                lastReport = now
                try report(daemon, leader: leader, now: now)
            }
        } catch {
            client = nil
            log("queued-sync: the daemon at \(socketPath): \(error)")
        }
    }

    private func connected() throws -> QueueClient {
        if let client { return client }
        let fresh = try QueueClient(socketPath: socketPath, timeout: 2)
        client = fresh
        return fresh
    }

    private func lead(_ daemon: QueueClient, now: Double) throws {
        let clockNow = try daemon.call(API.SyncClock.self)
        if let heard = clockNow.heard {
            network.send(message(.timeline(
                index: Int(heard.index), play: Int(heard.play), position: heard.position, at: heard.at, duration: heard.duration,
                queue: clockNow.queueVersion, uri: heard.uri)))
        }
        if toldQueueVersion != clockNow.queueVersion || now - toldQueueAt >= 5 {
            let (items, loops) = try queueItems(daemon)
            network.send(message(.queue(version: clockNow.queueVersion, items: items, loops: loops)))
            (toldQueueVersion, toldQueueAt) = (clockNow.queueVersion, now)
        }
    }

    private func follow(_ daemon: QueueClient, leader: String) throws {
        let (timeline, timelineQueue, queue) = lock.withLock { (leaderTimeline, leaderTimelineQueue, leaderQueue) }
        // The leader's place is known in the queue its timeline was read at: mirrored only when that is the
        // queue at hand.
        if let queue, let timeline, timelineQueue == queue.version, timeline.index < queue.items.count {
            let wanted = (items: queue.items, loops: queue.loops, current: timeline.index)
            if mirrored.map({ $0.items != wanted.items || $0.loops != wanted.loops || $0.current != wanted.current }) ?? true {
                try mirror(wanted, leaderPlaying: timeline.uri, into: daemon)
            }
        }
        let mine = try daemon.call(API.SyncClock.self)
        let heard = mine.heard.map {
            PlayHeard(index: Int($0.index), play: Int($0.play), position: $0.position, at: $0.at, duration: $0.duration, uri: $0.uri)
        }
        let now = clock.now()
        // The leader's clock read at the same instant as this member's (after the daemon answered).
        let leaderNow = lock.withLock { estimatedLeader == leader ? estimator.leaderTime(at: now) : nil }
        switch follower.step(leader: timeline, mine: heard, now: now, leaderNow: leaderNow) {
        case .hold:
            break
        case .trim(let ppm, let error):
            offsets.add(error, at: now)
            if abs(ppm - trimPPM) >= 0.5 { trimPPM = try trim(daemon, ppm: ppm) }
        case .align(let index, let uri, let play, let position, let at, let error):
            // The minute's figures start again from the re-alignment: they say how well it holds from there.
            offsets.clear()
            // The leader's item in this member's queue: in the same place, else the nearest place with its URI
            // (a queue taking over at the next seam keeps the play under way in front for a while).
            let entries = try queueEntries(daemon)
            let candidates = entries.indices.filter { entries[$0].uri == uri }
            guard let place = candidates.min(by: { abs($0 - index) < abs($1 - index) }) else {
                follower.alignAbandoned()
                return
            }
            let ids = entries.map(\.id)
            let index = place
            realignments += 1
            trimPPM = try trim(daemon, ppm: follower.correction.drift * 1e6)
            _ = try daemon.call(API.SyncAlign.self, .init(id: ids[index], play: Int64(play), position: position, at: at))
            let off = error.map { " (\(Int(($0 * 1000).rounded())) ms off)" } ?? ""
            log("queued-sync: re-aligned to item \(index + 1) play \(play) at \(Int(position * 1000)) ms\(off)")
        }
    }

    /// Sets the daemon's trim, held within its ±5000 ppm (a rate at the loop's limit may compute a hair over).
    private func trim(_ daemon: QueueClient, ppm: Double) throws -> Double {
        try daemon.call(API.SyncTrim.self, .init(ppm: min(5000, max(-5000, ppm)))).trimPPM
    }

    /// The leader's queue on this member too, without cutting the play under way: when this member plays
    /// the leader's current item, every other entry is taken out and the leader's items are put around it,
    /// those before the leader's current place before it and those after it after it — so the next seam goes
    /// where the leader's goes (a queue change the leader made for its next seam included). Otherwise (idle,
    /// or another item) the queue is replaced at once and the re-alignment that follows places the play.
    private func mirror(
        _ wanted: (items: [JSONValue], loops: Int64, current: Int), leaderPlaying uri: String, into daemon: QueueClient
    ) throws {
        let list = try daemon.call("queue.list", ["limit": 10_000])
        let entries = list["items"]?.arrayValue ?? []
        let own = entries.map(Self.mirroredItem)
        let ownLoops = try daemon.call("player.status")["queueLoops"]?.intValue ?? 1
        let currentID = list["currentId"]?.intValue
        let currentPlace = entries.firstIndex { $0["id"]?.intValue == currentID }
        if ownLoops != wanted.loops { _ = try daemon.call("queue.setLoops", ["loops": .int(wanted.loops)]) }
        // The same items: where this member is in them is the re-alignment's business, never a cut here.
        if own == wanted.items {
            mirrored = wanted
            return
        }
        guard let currentID, let currentPlace, entries[currentPlace]["uri"]?.stringValue == uri else {
            _ = try daemon.call("queue.replace", ["items": .array(wanted.items)])
            log("queued-sync: the leader's queue (\(wanted.items.count) items) replaces this one")
            mirrored = wanted
            return
        }
        let others = entries.compactMap { $0["id"]?.intValue }.filter { $0 != currentID }
        if !others.isEmpty { _ = try daemon.call("queue.remove", ["ids": .array(others.map(JSONValue.int))]) }
        let before = Array(wanted.items[..<wanted.current])
        let after = Array(wanted.items[(wanted.current + 1)...])
        if !before.isEmpty { _ = try daemon.call("queue.insert", ["items": .array(before), "index": 0]) }
        if !after.isEmpty { _ = try daemon.call("queue.insert", ["items": .array(after), "after": .int(currentID)]) }
        log("queued-sync: the leader's queue (\(wanted.items.count) items) put around the play under way")
        // Only now: a call that failed on the way is tried again at the next tick.
        mirrored = wanted
    }

    /// A queue item as queue.replace and queue.insert take it back.
    static func mirroredItem(_ item: JSONValue) -> JSONValue {
        var kept = JSONObject()
        for key in mirroredKeys { if let value = item[key], value != .null { kept[key] = value } }
        return .object(kept)
    }

    private func queueItems(_ daemon: QueueClient) throws -> ([JSONValue], Int64) {
        let list = try daemon.call("queue.list", ["limit": 10_000])
        let items = (list["items"]?.arrayValue ?? []).map(Self.mirroredItem)
        let loops = try daemon.call("player.status")["queueLoops"]?.intValue ?? 1
        return (items, loops)
    }

    private func queueEntries(_ daemon: QueueClient) throws -> [(id: Int64, uri: String)] {
        (try daemon.call("queue.list", ["limit": 10_000])["items"]?.arrayValue ?? []).compactMap { item in
            guard let id = item["id"]?.intValue, let uri = item["uri"]?.stringValue else { return nil }
            return (id, uri)
        }
    }

    private func report(_ daemon: QueueClient, leader: String, now: Double) throws {
        let (peers, members) = lock.withLock { (peerStats, election.members) }
        var reports: [API.SyncMemberReport] = []
        for id in members {
            if id == me {
                reports.append(API.SyncMemberReport(
                    id: me, role: leader == me ? "leader" : "follower", offsetP50: leader == me ? 0 : offsets.median.map { $0 * 1000 },
                    offsetP99: leader == me ? 0 : offsets.p99.map { $0 * 1000 },
                    driftPPM: leader == me ? nil : lock.withLock { estimator.isReady ? estimator.driftPPM : nil }, trimPPM: trimPPM,
                    realignments: Int64(realignments), seenAgo: 0))
            } else if let peer = peers[id] {
                reports.append(API.SyncMemberReport(
                    id: id, role: id == leader ? "leader" : peer.follows == nil ? "listening" : "follower",
                    offsetP50: id == leader ? 0 : peer.stats?.offsetP50, offsetP99: id == leader ? 0 : peer.stats?.offsetP99,
                    driftPPM: peer.stats?.driftPPM, trimPPM: peer.stats?.trimPPM, realignments: Int64(peer.stats?.realignments ?? 0),
                    seenAgo: max(0, now - peer.seen)))
            }
        }
        _ = try daemon.call(API.SyncReport.self, .init(report: API.SyncGroupReport(group: group, me: me, leader: leader, members: reports)))
    }
}
