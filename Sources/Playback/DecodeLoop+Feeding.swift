// The decode thread's feeding half: pulls audio and pictures of the active play from its MediaReader and
// feeds the audio sink (blocking in `write`, or briefly while the picture queue is full) and the picture
// queue, keeping pictures a little ahead of the audio written; at the play's end it reports to EngineState
// and starts the next play right after.

import FoundationEssentials
import Glibc
import SystemSupport
import Media
import QueueModel

extension DecodeLoop {

    func step() {
        guard let item = active else { return }
        if preparedFor != item.cursor && (item.audioFrames > 0 || item.itemFrames > 0)
            && item.prepareStreamAt.map({ item.itemOffset + Double(item.itemFrames) / rate >= $0 }) ?? true
        {
            prepareNext(after: item)
        }
        if let leaving, feedLeaving(leaving, beside: item) { return }
        // A play shorter than two crossfades reaches its own crossfade out while still mixing in the one
        // before: it hands over once that mix is done (what it read meanwhile waits, mixed, in `held`).
        if let at = item.crossfade.handOverFrame, item.startFrame + item.audioFrames >= at, !item.crossfade.isMixingIn {
            handOver(item)
            return
        }
        if item.audioDone, item.crossfade.isMixingIn {
            // This play's sound ended inside the overlap: the leaving play's goes on alone, on its curve.
            deliver([Float](repeating: 0, count: item.crossfade.mixRemaining * engine.audio.format.channels), of: item)
            return
        }
        let audioTime = item.itemOffset + Double(item.itemFrames) / rate
        if item.showsVideo && !item.videoDone && item.videoHorizon < audioTime + engine.config.videoLead {
            let full = core.locked { pictureQueueIsFull(for: item, in: $0) }
            if !full {
                feedVideo(item)
                return
            }
            if item.audioDone {
                core.waitForChange(timeout: 0.005)
                return
            }
        }
        if !item.audioDone {
            feedAudio(item)
            return
        }
        if item.videoDone || !item.showsVideo { finish(item) }
    }

    func feedVideo(_ item: ActiveItem) {
        do {
            guard let frame = try item.reader.readVideo() else {
                item.videoDone = true
                return
            }
            queuePicture(frame, of: item)
        } catch {
            fail(item, error)
        }
    }

    /// Hands one decoded picture of `item` to the presenter's queue, timed on the timeline.
    func queuePicture(_ frame: VideoFrame, of item: ActiveItem) {
        item.videoHorizon = frame.pts + frame.duration
        let timed = TimedFrame(
            serial: item.serial, cursor: item.cursor,
            time: Double(item.startFrame) / rate + (frame.pts - item.itemOffset) / item.rate, frame: frame)
        // A play handed over in a crossfade shows nothing past the end of its sound.
        if let end = item.crossfade.handedOverEnd, timed.time >= end - 1e-9 {
            item.videoDone = true
            return
        }
        item.picturesQueued += 1
        let first = item.picturesQueued == 1
        if first {
            let budget = engine.config.pictureQueueBytes / max(1, frame.byteCount)
            item.pictureQueueLimit = min(engine.config.frameQueueCapacity, max(2, budget))
        }
        let decoderChange = item.reader.takeDecodingChange()
        if let decoderChange {
            core.logger.info(
                "item \(item.cursor.id): \(decoderChange.codec) now decoded in software: \(decoderChange.fallback ?? "")")
        }
        core.locked { shared in
            if let decoderChange {
                shared.decoderChanged(item.cursor, serial: item.serial, to: decoderChange)
            }
            if shared.serial == item.serial {
                shared.queuePicture(timed)
                shared.wakeWaiters = true
                if first {
                    let size = frame.displaySize
                    shared.firstPictureDecoded(
                        item.cursor, serial: item.serial, size: PictureSize(width: size.width, height: size.height))
                }
            }
        }
    }

    private func feedAudio(_ item: ActiveItem) {
        var chunk: [Float] = []
        do {
            if !item.audioSourceDone {
                if let samples = try item.reader.readAudio() {
                    item.itemFrames += Int64(samples.count / engine.audio.format.channels)
                    chunk = try item.tempo?.process(samples) ?? samples
                } else {
                    item.audioSourceDone = true
                    chunk = try item.tempo?.finish() ?? []
                }
            } else {
                guard let silence = silenceAfterAudio(item) else {
                    // Waiting for pictures to be decoded while the picture queue is full: sleep until the
                    // presenter takes one (it wakes us) rather than spin.
                    if !item.audioDone { core.waitForChange(timeout: 0.005) }
                    return
                }
                chunk = silence
            }
        } catch {
            fail(item, error)
            return
        }
        guard !chunk.isEmpty else { return }
        deliver(chunk, of: item)
    }

    /// Writes `chunk` (the play's next samples) to the audio output: over the leaving play's sound at the
    /// start of a crossfade, up to where the next play comes in at the end of one (the rest is kept for
    /// the mix), scaled by a fade or dip. Blocks in the output's `write`; a chunk is kept through a dark
    /// screen and dropped by a cut.
    func deliver(_ chunk: [Float], of item: ActiveItem) {
        var chunk = chunk
        mixLeaving(into: &chunk, of: item)
        var decided = false
        while true {
            switch nextWrite(of: item, decide: !decided) {
            case .replaced:
                active = nil
                leaving = nil
                return
            case .stale: return
            case .dark: continue
            case .write(let fade, let crossfade):
                guard !decided else { break }
                decided = true
                // A crossfade out: what lies past where the next play comes in waits to be mixed with it.
                planCrossfade(item, seconds: crossfade)
                if let at = item.crossfade.handOverFrame {
                    let channels = engine.audio.format.channels
                    let keep = Int(max(0, min(Int64(chunk.count / channels), at - item.startFrame - item.audioFrames)))
                    item.crossfade.held.append(chunk[(keep * channels)...])
                    chunk.removeSubrange((keep * channels)...)
                }
                // A fade or dip at either end of the play: the sound follows the picture's level, sample by
                // sample (once: a chunk kept through the dark is already scaled).
                if let fade {
                    Self.applyFade(
                        fade, to: &chunk, from: item.startFrame + item.audioFrames, rate: rate,
                        channels: engine.audio.format.channels)
                }
            }
            if chunk.isEmpty { return }
            if engine.audio.write(chunk) {
                item.audioFrames += Int64(chunk.count / engine.audio.format.channels)
                return
            }
            // A cancelled write: a cut or a splice drops the chunk; the screen going dark keeps it, to be
            // written first in the morning (nothing lost, nothing heard twice).
            guard core.locked({ !$0.status.display.on && $0.serial == item.serial }) else { return }
        }
    }

    /// What to do with the chunk in hand, decided in one hold of the lock.
    private enum ChunkWrite {
        /// A newer decode thread took over (a stalled one came back): drop the play.
        case replaced
        /// A cut, or shutdown: drop the chunk.
        case stale
        /// The screen is off: waited (the lock released) up to half a second; decide again.
        case dark
        /// Write it, scaled by this fade first; the next play comes in with a crossfade of this many seconds
        /// (both nil when already decided: a chunk kept through the dark).
        case write(FadeWindow?, crossfade: Double?)
    }

    private func nextWrite(of item: ActiveItem, decide: Bool) -> ChunkWrite {
        core.lockedThenWait { state -> (ChunkWrite, wait: Double?) in
            // A replaced (stalled) thread that comes back must not put its samples before the new thread's.
            guard isCurrent(in: state) else { return (.replaced, nil) }
            guard state.serial == item.serial, !state.shuttingDown else { return (.stale, nil) }
            // Dark: wait for a change, then decide again (the state may have changed meanwhile).
            guard state.status.display.on else { return (.dark, 0.5) }
            guard decide else { return (.write(nil, crossfade: nil), nil) }
            // The play after this one is looked up once for both.
            let out = state.transitionOut(of: item.cursor)
            let crossfade = item.failure == nil && item.crossfade.handedOverEnd == nil && out?.overlaps == true ? out?.duration : nil
            return (.write(state.fadeWindow(for: item.cursor, serial: item.serial, leavingWith: out), crossfade: crossfade), nil)
        }
    }

    /// Scales `chunk` (interleaved, its first frame at timeline frame `first`) by the fade's gain.
    static func applyFade(_ window: FadeWindow, to chunk: inout [Float], from first: Int64, rate: Double, channels: Int) {
        let frames = chunk.count / channels
        let start = Double(first) / rate
        let end = Double(first + Int64(frames)) / rate
        // Most chunks lie outside both ramps: nothing to do.
        guard window.touches(start...end) else { return }
        chunk.withUnsafeMutableBufferPointer { samples in
            for frame in 0..<frames {
                let gain = window.gain(at: Double(first + Int64(frame)) / rate)
                guard gain != 1 else { continue }
                for channel in 0..<channels { samples[frame * channels + channel] *= gain }
            }
        }
    }

    /// Past its own audio (or with none), an item with pictures keeps the clock going with silence up to
    /// where its pictures are decoded, and finally to the picture's end. nil when there is nothing to
    /// write now (done, or waiting for pictures).
    private func silenceAfterAudio(_ item: ActiveItem) -> [Float]? {
        guard item.reader.hasVideo else {
            item.audioDone = true
            return nil
        }
        var pictureEnd =
            item.showsVideo && !item.videoDone ? item.videoHorizon : (item.reader.videoEnd ?? item.videoHorizon)
        // A last picture that starts just before a planned end (the other track's) does not stretch the play.
        if let end = item.reader.knownEnd { pictureEnd = min(pictureEnd, end) }
        let target = Int64(((pictureEnd - item.itemOffset) * rate).rounded())
        if item.itemFrames >= target {
            if item.videoDone || !item.showsVideo { item.audioDone = true }
            return nil
        }
        let itemCount = min(target - item.itemFrames, Int64(rate / 20))
        item.itemFrames += itemCount
        let count = Int((Double(itemCount) / item.rate).rounded())
        return [Float](repeating: 0, count: count * engine.audio.format.channels)
    }

    /// A read error: the item ends where it got to, reported with reason `error`.
    func fail(_ item: ActiveItem, _ error: MediaError) {
        if error.message != "interrupted" {
            core.logger.error("item \(item.cursor.id) failed while playing: \(error.description)")
        }
        item.failure = error.description
        item.audioDone = true
        item.videoDone = true
    }

    /// The active item is fully written: close its segment and start the next play right after it.
    private func finish(_ item: ActiveItem) {
        active = nil
        item.reader.closeStream()
        // Its sound was handed over already (a crossfade nothing came in over): the queue ends with it.
        if item.crossfade.handedOverEnd != nil {
            if core.locked({ $0.serial == item.serial }) { engine.audio.drain() }
            return
        }
        let endFrame = item.startFrame + item.audioFrames
        let next = core.locked {
            $0.playWritten(item.cursor, serial: item.serial, endFrame: endFrame, failure: item.failure)
        }
        if let next {
            start(next, at: endFrame, joins: true)
        } else if core.locked({ $0.serial == item.serial }) {
            engine.audio.drain()
        }
    }
}
