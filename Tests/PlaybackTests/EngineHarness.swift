// Runs a PlayerEngine in a test and records what it reports. Waiting is always on recorded events with a
// deadline (the recorder's condition is signalled by every event), never on sleeps.

import Foundation
import Logging
import Media
import Playback
import QueueModel
import Testing

final class EventRecorder: @unchecked Sendable {
    private let condition = NSCondition()
    private var events: [PlayerEvent] = []
    private var frames: [FrameRecord] = []
    var keepFrames = true

    /// What tests keep of a presented picture (not the picture: thousands of them would fill memory).
    struct FrameRecord {
        var id: ItemID
        var play: Int
        var timeline: Double
        var itemTime: Double
    }

    func record(_ event: PlayerEvent) {
        condition.lock()
        events.append(event)
        condition.broadcast()
        condition.unlock()
    }

    func record(_ frame: PresentedFrame) {
        condition.lock()
        if keepFrames {
            frames.append(
                FrameRecord(id: frame.id, play: frame.play, timeline: frame.timeline, itemTime: frame.itemTime))
        }
        condition.broadcast()
        condition.unlock()
    }

    var all: [PlayerEvent] {
        condition.lock()
        defer { condition.unlock() }
        return events
    }

    var presented: [FrameRecord] {
        condition.lock()
        defer { condition.unlock() }
        return frames
    }

    /// Waits until `predicate` holds for the events so far; false on timeout.
    @discardableResult
    func wait(timeout: Double, until predicate: ([PlayerEvent]) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !predicate(events) {
            if !condition.wait(until: deadline) { return predicate(events) }
        }
        return true
    }

    /// Waits for the engine to go idle or stopped after having played.
    @discardableResult
    func waitUntilDone(timeout: Double) -> Bool {
        wait(timeout: timeout) { events in
            guard
                let played = events.firstIndex(where: {
                    if case .statusChanged(let s) = $0 { return s.state == .playing }
                    return false
                })
            else { return false }
            return events[played...].contains {
                if case .statusChanged(let s) = $0 { return s.state == .idle || s.state == .stopped }
                return false
            }
        }
    }

    var started: [(id: ItemID, play: Int, timeline: Double)] {
        all.compactMap {
            if case .itemStarted(let id, let play, _, let timeline, _, _, _, _, _) = $0 { return (id, play, timeline) }
            return nil
        }
    }

    var ended: [(id: ItemID, play: Int, reason: EndReason, error: String?)] {
        all.compactMap {
            if case .itemEnded(let id, let play, let reason, let error, _) = $0 { return (id, play, reason, error) }
            return nil
        }
    }

    var lastStatus: PlayerStatus? {
        all.reversed().lazy.compactMap {
            if case .statusChanged(let s) = $0 { return s }
            return nil
        }.first
    }
}

/// An engine with the given outputs and a recorder attached.
func makeEngine(
    audio: AudioSink, video: VideoSink? = nil, untimed: Bool, queueLoops: Int = 1,
    configure: (inout EngineConfig) -> Void = { _ in }
) throws -> (PlayerEngine, EventRecorder) {
    let recorder = EventRecorder()
    var config = EngineConfig()
    config.untimed = untimed
    config.progressInterval = 0
    config.onFramePresented = { recorder.record($0) }
    configure(&config)
    var logger = Logger(label: "test.engine")
    logger.logLevel = .warning
    let engine = PlayerEngine(config: config, audio: audio, video: video, queueLoops: queueLoops, logger: logger) {
        recorder.record($0)
    }
    try engine.start()
    return (engine, recorder)
}

/// Plays `item` untimed on the null outputs (the picture decoded, the samples counted) until the engine
/// goes idle: the frames written and what was recorded.
func playUntimed(
    _ item: MediaItem, configure: (inout EngineConfig) -> Void = { _ in }
) throws -> (frames: Int64, recorder: EventRecorder) {
    let sink = NullAudioSink(mode: .untimed)
    let (engine, recorder) = try makeEngine(audio: sink, video: NullVideoSink(), untimed: true, configure: configure)
    defer { engine.shutdown() }
    try engine.add([item])
    try engine.play()
    #expect(recorder.waitUntilDone(timeout: 60))
    return (sink.writtenFrames(), recorder)
}

/// Converts float output samples the way the PulseAudio sink does.
func int16Samples(_ samples: [Float]) -> [Int16] {
    samples.map { Int16(clamping: Int(($0 * 32768).rounded(.toNearestOrEven))) }
}
