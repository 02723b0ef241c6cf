// The fleet bridge's decisions without a broker or a daemon: desired documents read for their structure and
// refused with a reason, and which document a player applies when — the player's own over its groups', the
// newest rev only, never before the daemon said what it has, never twice (a retained document replayed after
// a reconnect or a restart), one job at a time, a newer choice cancelling the running job, a failure that may
// pass tried again with a growing wait (the rev pending meanwhile), one that cannot refused for good until a
// newer comes, and a withdrawn player document handing the screen back to its groups.

import JSONText
import Testing

@testable import Fleet

private func document(_ rev: Int64, _ uris: [String] = ["/srv/a.mp4"], extra: String = "") -> [UInt8] {
    let queue = uris.map { "\"\($0)\"" }.joined(separator: ",")
    return Array("{\"rev\":\(rev),\"queue\":[\(queue)]\(extra)}".utf8)
}

private func applied(_ steps: [FleetStep]) -> (rev: Int64, source: DocumentSource, job: Int)? {
    for step in steps {
        if case .apply(let document, let source, let job) = step { return (document.rev, source, job) }
    }
    return nil
}

private func retried(_ steps: [FleetStep]) -> (wait: Duration, job: Int)? {
    for step in steps {
        if case .retry(let wait, let job) = step { return (wait, job) }
    }
    return nil
}

extension DesiredState {
    /// The running job's number (tests only).
    fileprivate var job: Int { applying?.job ?? -1 }

    /// The running job succeeded.
    fileprivate mutating func succeed() -> [FleetStep] { applyFinished(job: job, .applied) }
}

@Suite struct DesiredDocumentTests {
    @Test func aFullDocumentReadsAndBecomesStateApplysParams() throws {
        let text = """
            {"rev": 7, "queue": ["/srv/a.mp4", {"uri": "https://127.0.0.1:9/b.mp4", "loops": 2, "title": "B"}],
             "loops": 0, "volume": 80, "fit": "fill", "rotate": 90, "overlays": [{"type": "text", "text": "Sale"}]}
            """
        let parsed = try DesiredDocument(bytes: Array(text.utf8))
        #expect(parsed.rev == 7 && parsed.queue.count == 2 && parsed.queue[0] == "/srv/a.mp4")
        let params = parsed.applyParams
        #expect(params["rev"] == 7 && params["loops"] == 0 && params["at"] == "itemEnd")
        #expect(params["volume"] == 80 && params["fit"] == "fill" && params["rotate"] == 90)
        #expect(params["overlays"]?.arrayValue?.count == 1 && params["items"]?.arrayValue?.count == 2)
    }

    @Test func settingsAndOverlaysLeftOutStayOutAndLoopsDefaultsToOnce() throws {
        let params = try DesiredDocument(bytes: document(1)).applyParams
        #expect(params["loops"] == 1)
        #expect(params["volume"] == nil && params["rotate"] == nil && params["overlays"] == nil)
    }

    /// The values are the daemon's definitions' to judge (a test in ControlTests sends them to the bridge):
    /// here only the structure is checked, so a value the daemon would take is never refused by a copy.
    @Test func valuesAreNotJudgedHere() throws {
        #expect(throws: Never.self) { try DesiredDocument(bytes: document(1, extra: #","rotate":45,"volume":101"#)) }
    }

    @Test(arguments: [
        ("not json", "not JSON"),
        ("[1]", "must be a JSON object"),
        (#"{"rev":1,"queue":[],"colour":"red"}"#, "unknown field 'colour'"),
        (#"{"queue":[]}"#, "'rev' must be an integer"),
        (#"{"rev":-1,"queue":[]}"#, "'rev' must be an integer"),
        (#"{"rev":1,"queue":"a"}"#, "'queue' must be an array"),
    ])
    func aBrokenDocumentIsRefusedWithItsReason(text: String, reason: String) {
        #expect {
            try DesiredDocument(bytes: Array(text.utf8))
        } throws: { error in
            (error as? DocumentRefusal)?.reason.contains(reason) == true
        }
    }

    @Test func overOneMebibyteIsRefused() {
        let big = document(1, [String(repeating: "x", count: DesiredDocument.maxBytes)])
        #expect(throws: DocumentRefusal.self) { try DesiredDocument(bytes: big) }
    }
}

@Suite struct DesiredStateTests {
    @Test func nothingIsAppliedBeforeTheDaemonSaidWhatItHas() {
        var state = DesiredState(groups: ["lobby"])
        #expect(applied(state.received(document(3), from: .group("lobby"))) == nil)
        let steps = state.daemonApplied(nil)
        #expect(applied(steps)?.rev == 3 && state.pendingRev == 3)
        #expect(applied(state.succeed()) == nil)
        #expect(state.appliedRev == 3 && state.pendingRev == nil && state.error == nil)
    }

    @Test func aReplayedOrOlderDocumentChangesNothingANewerOneApplies() {
        var state = DesiredState(groups: ["lobby"])
        _ = state.daemonApplied(5)  // a restart: the daemon kept rev 5
        #expect(applied(state.received(document(5), from: .group("lobby"))) == nil, "the retained copy again")
        #expect(applied(state.received(document(4), from: .group("lobby"))) == nil, "older")
        #expect(applied(state.received(document(6), from: .group("lobby")))?.rev == 6)
    }

    @Test func thePlayersOwnDocumentWinsThenTheFirstListedGroup() {
        var state = DesiredState(groups: ["floor2", "lobby"])
        _ = state.daemonApplied(nil)
        #expect(applied(state.received(document(10), from: .group("lobby")))?.source == .group("lobby"))
        _ = state.succeed()
        #expect(applied(state.received(document(11), from: .group("floor2")))?.source == .group("floor2"))
        _ = state.succeed()
        #expect(applied(state.received(document(12), from: .group("lobby"))) == nil, "floor2 is listed first")
        #expect(applied(state.received(document(13), from: .player))?.source == .player)
        _ = state.succeed()
        #expect(applied(state.received(document(14), from: .group("floor2"))) == nil, "the player's own wins")
        #expect(state.chosen?.source == .player && state.appliedRev == 13)
    }

    @Test func aNewerDocumentCancelsTheRunningJobAndStartsItsOwn() {
        var state = DesiredState(groups: ["lobby"])
        _ = state.daemonApplied(nil)
        let first = applied(state.received(document(1), from: .group("lobby")))
        let steps = state.received(document(2), from: .group("lobby"))
        let second = applied(steps)
        #expect(steps.first == .cancel(job: first?.job ?? -1), "the job for rev 1 is stopped first")
        #expect(second?.rev == 2 && second?.job != first?.job && state.pendingRev == 2)
        // The cancelled job's late answer (it may even have swapped) decides nothing.
        #expect(state.applyFinished(job: first?.job ?? -1, .applied) == [])
        #expect(state.appliedRev == nil && state.applying?.document.rev == 2)
        _ = state.succeed()
        #expect(state.appliedRev == 2 && state.pendingRev == nil)
    }

    @Test func progressIsReportedOnlyForTheRunningJobAndWhenItChanges() {
        var state = DesiredState(groups: [])
        _ = state.daemonApplied(nil)
        _ = state.received(document(1), from: .player)
        let progress = ApplyProgress(stage: .downloading, complete: 1, total: 3)
        #expect(state.applyProgress(job: state.job, progress) == [.report])
        #expect(state.applyProgress(job: state.job, progress).isEmpty, "unchanged")
        #expect(state.applyProgress(job: 999, .init(stage: .swapping)).isEmpty, "another job's")
        #expect(state.progress == progress)
    }

    @Test func aFailureThatMayPassIsRetriedWithAGrowingWaitAndTheRevStaysPending() throws {
        var state = DesiredState(groups: ["lobby"])
        _ = state.daemonApplied(1)
        _ = state.received(document(2, ["https://127.0.0.1:9/a.mp4"]), from: .group("lobby"))
        var waits: [Duration] = []
        for attempt in 1...5 {
            let job = state.job
            let steps = state.applyFinished(job: job, .failed(.download(uri: "https://127.0.0.1:9/a.mp4", error: "connection refused")))
            let retry = try #require(retried(steps))
            #expect(retry.job == job && steps.contains(.report) && applied(steps) == nil)
            #expect(state.pendingRev == 2 && state.appliedRev == 1, "attempt \(attempt)")
            #expect(state.error?.contains("connection refused") == true && state.error?.contains("rev 2") == true)
            #expect(state.progress?.stage == .waiting)
            waits.append(retry.wait)
            #expect(applied(state.retryDue(job: job + 100)) == nil, "another job's timer")
            let again = applied(state.retryDue(job: job))
            #expect(again?.rev == 2 && again?.job != job)
        }
        // 5 s doubling, each in [step/2, step]: 2.5–5, 5–10, 10–20, 20–40, 40–80 s.
        for (index, wait) in waits.enumerated() {
            let step = Duration.seconds(5 * (1 << index))
            #expect(wait >= step / 2 && wait <= step, "wait \(index): \(wait)")
        }
        _ = state.succeed()
        #expect(state.appliedRev == 2 && state.error == nil && state.pendingRev == nil)
    }

    @Test func theWaitStopsGrowingAtFiveMinutes() {
        var backoff = RetryBackoff()
        var generator = SystemRandomNumberGenerator()
        var last = Duration.zero
        for _ in 0..<20 { last = backoff.nextDelay(using: &generator) }
        #expect(last <= .seconds(300) && last >= .seconds(150))
    }

    @Test func aNewerDocumentWhileWaitingForARetryStartsAtOnceAndTheOldTimerIsIgnored() throws {
        var state = DesiredState(groups: [])
        _ = state.daemonApplied(nil)
        _ = state.received(document(1), from: .player)
        let old = state.job
        let retry = try #require(retried(state.applyFinished(job: old, .failed(.transport("the daemon did not answer")))))
        let steps = state.received(document(2), from: .player)
        #expect(applied(steps)?.rev == 2 && !steps.contains(.cancel(job: old)), "nothing runs to cancel")
        #expect(state.retryDue(job: retry.job).isEmpty)
        #expect(state.applying?.document.rev == 2)
    }

    @Test(arguments: [
        ApplyFailure.invalidDocument("invalid params: 'rotate' must be one of 0, 90, 180, 270"),
        ApplyFailure.download(uri: "https://127.0.0.1/a.mp4", error: "sha256 mismatch: the item expects ab, the server sent cd"),
        ApplyFailure.daemonRefused(code: -32602, message: "invalid params: 'overlays[0].size' must be between 1 and 1000"),
        ApplyFailure.daemonRefused(code: -32003, message: "URI not allowed: ftp://x"),
    ])
    func whatCanNeverSucceedIsRefusedForGoodUntilANewerComes(failure: ApplyFailure) {
        #expect(failure.permanent)
        var state = DesiredState(groups: ["lobby"])
        _ = state.daemonApplied(2)
        _ = state.received(document(3), from: .group("lobby"))
        let steps = state.applyFinished(job: state.job, .failed(failure))
        #expect(applied(steps) == nil && retried(steps) == nil && steps.contains(.report))
        #expect(state.error?.contains("rev 3") == true && state.error?.contains("refused") == true)
        #expect(state.appliedRev == 2 && state.pendingRev == nil)
        #expect(applied(state.daemonApplied(2)) == nil)
        #expect(applied(state.received(document(4), from: .group("lobby")))?.rev == 4)
        _ = state.succeed()
        #expect(state.error == nil)
    }

    @Test func whatMayPassIsNotPermanent() {
        #expect(!ApplyFailure.download(uri: "https://127.0.0.1/a", error: "Connection refused").permanent)
        #expect(!ApplyFailure.download(uri: "https://127.0.0.1/a", error: "HTTP 503").permanent)
        #expect(!ApplyFailure.transport("the daemon did not answer: timed out").permanent)
        #expect(!ApplyFailure.daemonRefused(code: -32603, message: "internal error").permanent)
        #expect(!ApplyFailure.daemonRefused(code: -32005, message: "the queue changed").permanent)
    }

    @Test func anUnreadableDocumentIsRefusedAndTheScreenKeepsWhatItHad() {
        var state = DesiredState(groups: ["lobby"])
        _ = state.daemonApplied(nil)
        _ = state.received(document(1), from: .group("lobby"))
        _ = state.succeed()
        let steps = state.received(Array("{\"rev\":2,\"queue\":[],\"bogus\":1}".utf8), from: .group("lobby"))
        #expect(applied(steps) == nil && steps == [.report])
        #expect(state.error?.contains("unknown field 'bogus'") == true)
        #expect(state.chosen?.document.rev == 1 && state.appliedRev == 1)
    }

    @Test func withdrawingThePlayersDocumentHandsTheScreenBackToItsGroups() {
        var state = DesiredState(groups: ["lobby"])
        _ = state.daemonApplied(nil)
        _ = state.received(document(20), from: .group("lobby"))
        _ = state.succeed()
        _ = state.received(document(30), from: .player)
        _ = state.succeed()
        #expect(state.appliedRev == 30)
        let steps = state.received([], from: .player)
        #expect(applied(steps)?.source == .group("lobby") && applied(steps)?.rev == 20, "even with a lower rev")
        _ = state.succeed()
        #expect(state.appliedRev == 20 && applied(state.received(document(20), from: .group("lobby"))) == nil)
    }

    @Test func withdrawingTheDocumentBeingAppliedCancelsItsJob() {
        var state = DesiredState(groups: ["lobby"])
        _ = state.daemonApplied(20)
        _ = state.received(document(20), from: .group("lobby"))
        _ = state.received(document(30), from: .player)
        let job = state.job
        let steps = state.received([], from: .player)
        #expect(steps.contains(.cancel(job: job)))
        #expect(applied(steps) == nil, "the group's rev 20 is applied already")
        #expect(state.applying == nil && state.pendingRev == nil)
    }
}

@Suite struct FleetDocumentTests {
    @Test func topicsAreSpelledOnce() {
        let topics = Topics(prefix: "queued/", player: "p1", groups: ["lobby"])
        #expect(topics.status == "queued/p1/status" && topics.reported == "queued/p1/reported")
        #expect(topics.rpcRequest == "queued/p1/rpc/req" && topics.groupDesired("lobby") == "queued/group/lobby/desired")
        #expect(Topics(player: "+").reported == "queued/+/reported")
        #expect(Topics.parse("queued/p1/reported", prefix: "queued/")! == ("p1", .reported))
        #expect(Topics.parse("queued/group/reported", prefix: "queued/") == nil)
        #expect(Topics.parse("queued/p1/rpc/res", prefix: "queued/") == nil)
    }

    @Test func aResponseTopicIsHonouredOnlyInTheRequestersOwnSpace() {
        let topics = Topics(player: "p1")
        #expect(topics.isOwnResponseTopic("queued/p1/rpc/res"))
        #expect(topics.isOwnResponseTopic("queued/p1/rpc/res/operator-7"))
        #expect(!topics.isOwnResponseTopic("queued/p1/rpc/resx"))
        #expect(!topics.isOwnResponseTopic("queued/p2/rpc/res/x"))
        #expect(!topics.isOwnResponseTopic("queued/p1/status"))
        #expect(!topics.isOwnResponseTopic("queued/p1/rpc/res/+"))
    }

    @Test func theReportedDocumentRoundTrips() throws {
        let document = ReportedDocument(
            appliedRev: 3, pendingRev: 4, error: "rev 4 (player) not applied yet: down",
            applying: .init(rev: 4, progress: .init(stage: .downloading, complete: 1, total: 2)),
            brokerRefusals: [.init(operation: "subscribe", topic: "queued/group/x/desired", reason: "Not authorized (135)")],
            state: .playing, queueVersion: 9, current: .init(id: 2, uri: "https://127.0.0.1/a.mp4", title: nil, position: 1.5),
            health: ["rss": 1, "fds": 2, "threads": 3, "uptime": 4], cache: (1, 1, 100))
        let text = JSON.string(document.json)
        let back = try #require(ReportedDocument(json: try JSON.parse(Array(text.utf8))))
        #expect(back == document)
        #expect(document.json["applying"] == ["rev": 4, "state": "downloading", "complete": 1, "total": 2])
        let bare = ReportedDocument().json
        for key in ["appliedRev", "pendingRev", "error", "state", "queueVersion", "current"] {
            #expect(bare[key] != nil, "\(key) is required")
        }
        #expect(bare["applying"] == nil && bare["brokerRefusals"] == nil)
    }

    @Test func aPlayRecordIsStampedWithItsPlayer() throws {
        let record = try #require(PlayRecord(daemonRecord: ["seq": 4, "uri": "/a.mp4", "seconds": 1.5], player: "p1"))
        #expect(record.seq == 4 && record.player == "p1" && record.json["uri"] == "/a.mp4")
        #expect(PlayRecord(json: ["uri": "/a.mp4"]) == nil, "no seq")
    }
}
