// The decode thread's side of a crossfade. While a play whose successor comes in with a crossfade is
// written, every chunk works out where the successor starts: the crossfade's length before the play's end
// as its reader knows it (PlayCrossfade's hand-over frame; a play of unknown length is cut). There the play is handed over:
// its end (the overlap's end) goes to EngineState, the next play opens starting at that frame, and the
// leaving play stays open beside it (`leaving`). For the overlap each chunk of the entering play's sound
// is mixed with as many frames of the leaving play's, read on demand (its samples past the overlap are
// dropped), and the leaving play's pictures up to its end are decoded beside the entering play's. Only
// the sound read ahead is held, never pictures. Decode thread only.

import Media
import QueueModel

extension DecodeLoop {
    /// Whether `item` has no room in the picture queue. Beside a leaving play each play has its own share
    /// (what its pictures' size allows), so that neither starves the other: the queue spans from what is
    /// heard to a little past what is written, which may be more pictures than one share.
    func pictureQueueIsFull(for item: ActiveItem, in state: EngineState) -> Bool {
        guard leaving != nil else { return state.frames.count >= item.pictureQueueLimit }
        let own = state.frames.reduce(0) { $0 + ($1.cursor == item.cursor && $1.serial == item.serial ? 1 : 0) }
        return own >= item.pictureQueueLimit
    }

    /// Where the play hands over to a crossfade of `seconds` (nil: none), from its length as known now
    /// (PlayCrossfade.plan keeps it within half the play).
    func planCrossfade(_ item: ActiveItem, seconds: Double?) {
        guard let seconds, let end = item.reader.knownEnd ?? item.reader.duration, end > item.itemOffset else {
            item.crossfade.noHandOver()
            return
        }
        let length = Int64(((end - item.itemOffset) / item.rate * rate).rounded())
        item.crossfade.plan(frames: Int64((seconds * rate).rounded()), endFrame: item.startFrame + length, length: length)
    }

    /// Decodes the leaving play's next picture when it is due before the active play's, as far ahead of the
    /// sound written as the active play's pictures go. False when there was nothing to do for it.
    func feedLeaving(_ item: ActiveItem, beside active: ActiveItem) -> Bool {
        guard !item.videoDone, item.serial == active.serial else {
            leaving = nil
            return false
        }
        let written = Double(active.startFrame + active.audioFrames) / rate
        let horizon = Double(item.startFrame) / rate + (item.videoHorizon - item.itemOffset) / item.rate
        guard horizon < written + engine.config.videoLead,
            !core.locked({ pictureQueueIsFull(for: item, in: $0) })
        else { return false }
        feedVideo(item)
        return true
    }

    /// Mixes the leaving play's next samples under the first frames of `chunk`, the entering play's.
    func mixLeaving(into chunk: inout [Float], of item: ActiveItem) {
        let done = item.crossfade.mixLeaving(into: &chunk, channels: engine.audio.format.channels) { from, frames in
            leavingSamples(of: from, frames: frames)
        }
        done?.crossfade.held.removeAll()  // past the overlap: not heard
    }

    /// The leaving play's next `frames` frames of sound: what it read past the hand-over first, then read
    /// now; fewer when its sound ended (the rest is silence).
    private func leavingSamples(of item: ActiveItem, frames: Int) -> [Float] {
        let wanted = frames * engine.audio.format.channels
        while item.crossfade.held.count < wanted && !item.audioSourceDone {
            do {
                if let samples = try item.reader.readAudio() {
                    item.crossfade.held.append(try item.tempo?.process(samples)[...] ?? samples[...])
                } else {
                    item.audioSourceDone = true
                    if let rest = try item.tempo?.finish() { item.crossfade.held.append(rest[...]) }
                }
            } catch {
                item.audioSourceDone = true  // its sound stops here; the entering play's goes on
            }
        }
        return item.crossfade.held.take(wanted)
    }

    /// The play reached where the next one comes in: its end (the overlap's end) goes to the state, the next
    /// play opens there, and this one stays beside it. With no crossfade left (the queue changed, nothing
    /// could be opened), what it read ahead is written as it is and it plays on to its own end.
    func handOver(_ item: ActiveItem) {
        let overlapStart = item.startFrame + item.audioFrames
        let overlap = item.crossfade.overlapFrames
        let endFrame = overlapStart + overlap
        let next = core.locked { state -> NextPlay?? in
            guard state.serial == item.serial, state.crossfadeOut(of: item.cursor) != nil else { return .none }
            return .some(state.playWritten(item.cursor, serial: item.serial, endFrame: endFrame, failure: nil))
        }
        guard let next else {
            item.crossfade.cancelHandOver()
            deliver(item.crossfade.held.take(item.crossfade.held.count), of: item)
            return
        }
        item.crossfade.handedOver(end: Double(endFrame) / rate)
        active = nil
        leaving = item.showsVideo && !item.videoDone ? item : nil
        if let next {
            start(
                next, at: overlapStart, joins: true,
                crossfade: (CrossfadeMix(frames: Int(overlap), channels: engine.audio.format.channels), item))
        }
        guard active == nil else { return }
        // Nothing came in (the end of the queue, every next item failed, a cut): its sound up to the end
        // the state has is written on its own, and it stays active until its last pictures are decoded.
        leaving = nil
        guard core.locked({ $0.serial == item.serial }) else { return }
        var mix = CrossfadeMix(frames: Int(overlap), channels: engine.audio.format.channels)
        var fadingOut = [Float](repeating: 0, count: mix.frames * engine.audio.format.channels)
        mix.mix(leavingSamples(of: item, frames: mix.frames), into: &fadingOut)
        deliver(fadingOut, of: item)
        item.crossfade.held.removeAll()
        item.audioDone = true
        active = item
    }
}
