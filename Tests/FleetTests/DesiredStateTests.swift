// The fleet bridge's decisions without a broker or a daemon: desired documents read and refused with a
// reason, and which document a player applies when — the player's own over its groups', the newest rev
// only, never before the daemon said what it has, never twice (a retained document replayed after a
// reconnect or a restart), one at a time, a refused one not retried until a newer comes, and a withdrawn
// player document handing the screen back to its groups.

import JSONText
import Testing

@testable import Fleet

private func document(_ rev: Int64, _ uris: [String] = ["/srv/a.mp4"], extra: String = "") -> [UInt8] {
    let queue = uris.map { "\"\($0)\"" }.joined(separator: ",")
    return Array("{\"rev\":\(rev),\"queue\":[\(queue)]\(extra)}".utf8)
}

private func applied(_ steps: [FleetStep]) -> (rev: Int64, source: DocumentSource)? {
    for step in steps {
        if case .apply(let document, let source) = step { return (document.rev, source) }
    }
    return nil
}

@Suite struct DesiredDocumentTests {
    @Test func aFullDocumentReads() throws {
        let text = """
            {"rev": 7, "queue": ["/srv/a.mp4", {"uri": "https://127.0.0.1:9/b.mp4", "sha256": "\(String(repeating: "a", count: 64))", "loops": 2, "title": "B"}],
             "loops": 0, "volume": 80, "fit": "fill", "rotate": 90, "overlays": [{"type": "text", "text": "Sale"}]}
            """
        let parsed = try DesiredDocument(bytes: Array(text.utf8))
        #expect(parsed.rev == 7 && parsed.queue.count == 2 && parsed.loops == 0 && parsed.volume == 80)
        #expect(parsed.fit == "fill" && parsed.rotate == 90 && parsed.overlays?.count == 1)
        #expect(parsed.queue[0] == ["uri": "/srv/a.mp4"], "a URI string becomes an item")
        #expect(parsed.networkURIs == ["https://127.0.0.1:9/b.mp4"])
    }

    @Test(arguments: [
        ("not json", "not JSON"),
        ("[1]", "must be a JSON object"),
        (#"{"rev":1,"queue":[],"colour":"red"}"#, "unknown field 'colour'"),
        (#"{"queue":[]}"#, "'rev' must be an integer"),
        (#"{"rev":-1,"queue":[]}"#, "'rev' must be an integer"),
        (#"{"rev":1,"queue":"a"}"#, "'queue' must be an array"),
        (#"{"rev":1,"queue":[{"uri":"/a","speed":2}]}"#, "queue[0]: unknown field 'speed'"),
        (#"{"rev":1,"queue":[{"title":"x"}]}"#, "queue[0]: 'uri' must be a string"),
        (#"{"rev":1,"queue":[],"fit":"zoom"}"#, "'fit' must be"),
        (#"{"rev":1,"queue":[],"volume":101}"#, "'volume' must be an integer in 0…100"),
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
        #expect(applied(state.applyFinished(failure: nil)) == nil)
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
        _ = state.applyFinished(failure: nil)
        #expect(applied(state.received(document(11), from: .group("floor2")))?.source == .group("floor2"))
        _ = state.applyFinished(failure: nil)
        #expect(applied(state.received(document(12), from: .group("lobby"))) == nil, "floor2 is listed first")
        #expect(applied(state.received(document(13), from: .player))?.source == .player)
        _ = state.applyFinished(failure: nil)
        #expect(applied(state.received(document(14), from: .group("floor2"))) == nil, "the player's own wins")
        #expect(state.chosen?.source == .player && state.appliedRev == 13)
    }

    @Test func oneAtATimeAndTheNewestWhenTheCurrentOneIsDone() {
        var state = DesiredState(groups: ["lobby"])
        _ = state.daemonApplied(nil)
        _ = state.received(document(1), from: .group("lobby"))
        #expect(applied(state.received(document(2), from: .group("lobby"))) == nil, "rev 1 is still being applied")
        #expect(applied(state.received(document(3), from: .group("lobby"))) == nil)
        #expect(applied(state.applyFinished(failure: nil))?.rev == 3, "straight to the newest")
    }

    @Test func aRefusedDocumentIsReportedAndNotRetriedUntilANewerComes() {
        var state = DesiredState(groups: ["lobby"])
        _ = state.daemonApplied(2)
        _ = state.received(document(3), from: .group("lobby"))
        let steps = state.applyFinished(failure: "URI not allowed: ftp://x")
        #expect(applied(steps) == nil && steps.contains(.report))
        #expect(state.error?.contains("rev 3") == true && state.appliedRev == 2)
        #expect(applied(state.daemonApplied(2)) == nil)
        #expect(applied(state.received(document(4), from: .group("lobby")))?.rev == 4)
        _ = state.applyFinished(failure: nil)
        #expect(state.error == nil)
    }

    @Test func anUnreadableDocumentIsRefusedAndTheScreenKeepsWhatItHad() {
        var state = DesiredState(groups: ["lobby"])
        _ = state.daemonApplied(nil)
        _ = state.received(document(1), from: .group("lobby"))
        _ = state.applyFinished(failure: nil)
        let steps = state.received(Array("{\"rev\":2,\"queue\":[],\"bogus\":1}".utf8), from: .group("lobby"))
        #expect(applied(steps) == nil && steps == [.report])
        #expect(state.error?.contains("unknown field 'bogus'") == true)
        #expect(state.chosen?.document.rev == 1 && state.appliedRev == 1)
    }

    @Test func withdrawingThePlayersDocumentHandsTheScreenBackToItsGroups() {
        var state = DesiredState(groups: ["lobby"])
        _ = state.daemonApplied(nil)
        _ = state.received(document(20), from: .group("lobby"))
        _ = state.applyFinished(failure: nil)
        _ = state.received(document(30), from: .player)
        _ = state.applyFinished(failure: nil)
        #expect(state.appliedRev == 30)
        let steps = state.received([], from: .player)
        #expect(applied(steps)?.source == .group("lobby") && applied(steps)?.rev == 20, "even with a lower rev")
        _ = state.applyFinished(failure: nil)
        #expect(state.appliedRev == 20 && applied(state.received(document(20), from: .group("lobby"))) == nil)
    }
}
