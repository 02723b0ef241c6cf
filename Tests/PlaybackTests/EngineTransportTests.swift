// Transport commands on a running engine (real time on the null output's monotonic clock): pause,
// seek, stop, next/previous, jump, removing what plays, and the order of events around them.

import Playback
import QueueModel
import TestSupport
import Testing

@Suite struct EngineTransportTests {
    func engineWithClips(
        _ count: Int, seconds: Double = 1, queueLoops: Int = 1, itemLoops: Int = 1
    ) throws
        -> (PlayerEngine, EventRecorder, [ItemID])
    {
        let clips = try (0..<count).map {
            try Fixtures.tone(frequency: 300 + 110 * Double($0), seconds: seconds, format: .wav)
        }
        let (engine, recorder) = try makeEngine(
            audio: NullAudioSink(mode: .realtime(buffer: 0.2)), untimed: false, queueLoops: queueLoops
        ) {
            $0.progressInterval = 0.1
        }
        let ids = try engine.add(clips.map { MediaItem(uri: $0, loops: itemLoops) })
        return (engine, recorder, ids)
    }

    func startedCount(_ events: [PlayerEvent], _ id: ItemID) -> Int {
        events.filter {
            if case .itemStarted(id, _, _, _, _, _, _, _, _) = $0 { return true }
            return false
        }.count
    }

    @Test func pauseHoldsThePositionAndResumeGoesOn() throws {
        let (engine, recorder, ids) = try engineWithClips(1, seconds: 2)
        defer { engine.shutdown() }
        try engine.play()
        #expect(
            recorder.wait(timeout: 10) {
                $0.contains {
                    if case .progress(_, let p, _, _, _) = $0 { return p > 0.3 }
                    return false
                }
            })
        engine.pause()
        #expect(engine.status().state == .paused)
        let held = engine.status().position
        let countAtPause = recorder.all.count
        // No progress may arrive while paused: waiting for one must time out.
        #expect(
            !recorder.wait(timeout: 0.5) {
                $0.dropFirst(countAtPause).contains {
                    if case .progress = $0 { return true }
                    return false
                }
            })
        #expect(abs(engine.status().position - held) < 0.02)
        try engine.play()
        #expect(recorder.waitUntilDone(timeout: 10))
        #expect(recorder.ended.map(\.reason) == [.eof])
        #expect(recorder.ended.first?.id == ids[0])
    }

    @Test func seekMovesWithinTheItemWithoutEndingIt() throws {
        let (engine, recorder, ids) = try engineWithClips(2, seconds: 3)
        defer { engine.shutdown() }
        try engine.play()
        #expect(recorder.wait(timeout: 10) { _ in engine.status().currentID == ids[0] })
        let mark = recorder.all.count
        try engine.seek(to: 2.5)
        #expect(
            recorder.wait(timeout: 10) {
                $0.dropFirst(mark).contains {
                    if case .progress(_, let p, _, _, _) = $0 { return p >= 2.5 }
                    return false
                }
            })
        #expect(recorder.waitUntilDone(timeout: 15))
        #expect(recorder.started.map(\.id) == ids, "a seek does not restart the item")
        #expect(recorder.ended.map(\.reason) == [.eof, .eof])
    }

    @Test func stopEndsTheItemAndPlayStartsItAgain() throws {
        let (engine, recorder, ids) = try engineWithClips(2, seconds: 2)
        defer { engine.shutdown() }
        try engine.play()
        #expect(recorder.wait(timeout: 10) { startedCount($0, ids[0]) == 1 })
        engine.stop()
        #expect(engine.status().state == .stopped)
        #expect(recorder.ended.last.map { $0.id == ids[0] && $0.reason == .stopped } == true)
        try engine.play()
        #expect(recorder.wait(timeout: 10) { startedCount($0, ids[0]) == 2 })
    }

    @Test func nextSkipsAndEndsIdleAfterTheLastItem() throws {
        let (engine, recorder, ids) = try engineWithClips(2, seconds: 5)
        defer { engine.shutdown() }
        try engine.play()
        #expect(recorder.wait(timeout: 10) { startedCount($0, ids[0]) == 1 })
        try engine.next()
        #expect(recorder.wait(timeout: 10) { startedCount($0, ids[1]) == 1 })
        try engine.next()
        #expect(recorder.waitUntilDone(timeout: 10))
        #expect(recorder.ended.map(\.reason) == [.skipped, .skipped])
        #expect(engine.status().state == .idle)
        // Order: each item's end comes before the next one's start.
        let order = recorder.all.compactMap { event -> String? in
            switch event {
            case .itemStarted(let id, _, _, _, _, _, _, _, _): return "start \(id)"
            case .itemEnded(let id, _, let reason, _, _): return "end \(id) \(reason)"
            default: return nil
            }
        }
        #expect(order == ["start \(ids[0])", "end \(ids[0]) skipped", "start \(ids[1])", "end \(ids[1]) skipped"])
    }

    @Test func eventsAcrossALoopSeamComeInOrder() throws {
        let (engine, recorder, ids) = try engineWithClips(1, seconds: 0.5, itemLoops: 3)
        defer { engine.shutdown() }
        try engine.play()
        #expect(recorder.waitUntilDone(timeout: 10))
        let order = recorder.all.compactMap { event -> String? in
            switch event {
            case .itemStarted(_, let play, _, _, _, _, _, _, _): return "start \(play)"
            case .itemEnded(_, let play, let reason, _, _): return "end \(play) \(reason)"
            default: return nil
            }
        }
        #expect(order == ["start 1", "end 1 eof", "start 2", "end 2 eof", "start 3", "end 3 eof"])
        #expect(recorder.started.allSatisfy { $0.id == ids[0] })
    }

    @Test func jumpAndPreviousChooseTheItem() throws {
        let (engine, recorder, ids) = try engineWithClips(3, seconds: 5)
        defer { engine.shutdown() }
        try engine.play(id: ids[2])
        #expect(recorder.wait(timeout: 10) { startedCount($0, ids[2]) == 1 })
        try engine.previous()
        #expect(recorder.wait(timeout: 10) { startedCount($0, ids[1]) == 1 })
        #expect(recorder.started.map(\.id) == [ids[2], ids[1]])
        #expect(throws: PlayerError.itemNotFound(ItemID(999))) { try engine.play(id: ItemID(999)) }
    }

    @Test func removingThePlayingItemPlaysTheNextOne() throws {
        let (engine, recorder, ids) = try engineWithClips(3, seconds: 5)
        defer { engine.shutdown() }
        try engine.play()
        #expect(recorder.wait(timeout: 10) { startedCount($0, ids[0]) == 1 })
        #expect(engine.remove([ids[0]]) == [ids[0]])
        #expect(recorder.wait(timeout: 10) { startedCount($0, ids[1]) == 1 })
        #expect(recorder.ended.first.map { $0.id == ids[0] && $0.reason == .removed } == true)
        #expect(engine.queue().count == 2)
        engine.clear()
        #expect(recorder.wait(timeout: 10) { _ in engine.status().state == .idle })
        #expect(recorder.ended.last.map { $0.id == ids[1] && $0.reason == .removed } == true)
    }

    @Test func volumeAndMuteShowInStatus() throws {
        let (engine, recorder, _) = try engineWithClips(1)
        defer { engine.shutdown() }
        engine.setVolume(40, muted: true)
        #expect(engine.status().volume == 40 && engine.status().muted)
        #expect(recorder.lastStatus?.volume == 40)
        #expect(throws: PlayerError.self) { try engine.next() }
    }
}

extension EngineTransportTests {
    @Test func insertingNextWhileTheFollowingItemIsDecodedAheadPlaysTheInsertedOne() throws {
        let (engine, recorder, ids) = try engineWithClips(2, seconds: 1)
        defer { engine.shutdown() }
        let extra = try Fixtures.tone(frequency: 990, seconds: 0.5, format: .wav)
        try engine.play()
        // Late in the first item, when the second one is already being fed to the audio output.
        #expect(
            recorder.wait(timeout: 10) {
                $0.contains {
                    if case .progress(ids[0], let p, _, _, _) = $0 { return p > 0.85 }
                    return false
                }
            })
        let inserted = try engine.insert([MediaItem(uri: extra)], after: ids[0])
        #expect(recorder.waitUntilDone(timeout: 10))
        #expect(recorder.started.map(\.id) == [ids[0], inserted[0], ids[1]])
        #expect(recorder.ended.map(\.reason) == [.eof, .eof, .eof])
    }
}
