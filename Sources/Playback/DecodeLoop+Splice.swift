// The decode thread placing an interrupt (DecodeLoop.start with no start frame): the interrupted play goes on
// being heard while the interrupt opens, then what the audio output has not played yet is taken back from a
// little past the heard position and the interrupt starts there. Its first pictures are decoded before that
// point is chosen: decoded after it, they would have to fit in the lead too (100 ms more), and the lead is
// what a trigger or an alert waits before its first picture.

import Media
import SystemClock

/// An interrupt's pictures decoded before its splice, handed to its play once it is active.
struct PicturesAhead {
    var frames: [VideoFrame] = []
    /// The item's pictures ended (or failed: `error`) within them.
    var ended = false
    var error: MediaError?
    /// The pictures reach `videoLead` past the start, or fill the picture budget: the play's first samples
    /// can be written at once, so the splice needs no lead for pictures.
    var enough = false
}

extension DecodeLoop {
    /// Most wall time spent decoding an interrupt's first pictures before its splice (beyond it, the splice
    /// leaves `videoLead` for the rest, as it would for none).
    static let decodeAheadLimit = 0.1

    /// Decodes the opened interrupt's first pictures: up to `videoLead` past `position`, within the picture
    /// budget and `decodeAheadLimit` (checked between pictures: one slow first picture, a large still, runs to
    /// its end while the interrupted play's written sound, about 0.3 s, goes on). Nothing for streams and web
    /// pages (their reads wait on the network or a renderer): they keep the `videoLead` in the splice. Stops
    /// when the interrupt is no longer wanted (a cut, another interrupt).
    func decodeAhead(_ opened: Result<any ItemReader, MediaError>, from position: Double) -> PicturesAhead {
        var ahead = PicturesAhead()
        guard engine.video != nil, case .success(let reader) = opened, reader.hasVideo else {
            ahead.enough = true
            return ahead
        }
        guard !reader.isStream, reader.webPage == nil else { return ahead }
        let deadline = Monotonic.now() + Self.decodeAheadLimit
        var limit = engine.config.frameQueueCapacity
        let serial = self.serial
        while Monotonic.now() < deadline, core.locked({ $0.serial == serial && !$0.shuttingDown }) {
            let frame: VideoFrame?
            do { frame = try reader.readVideo() } catch {
                ahead.error = error
                ahead.ended = true
                break
            }
            guard let frame else {
                ahead.ended = true
                break
            }
            if ahead.frames.isEmpty {
                limit = min(limit, max(2, engine.config.pictureQueueBytes / max(1, frame.byteCount)))
            }
            ahead.frames.append(frame)
            if frame.pts + frame.duration >= position + engine.config.videoLead || ahead.frames.count >= limit {
                ahead.enough = true
                return ahead
            }
        }
        // Ended or failed: nothing more to decode before the samples either. Out of time: the rest needs its lead.
        ahead.enough = ahead.ended
        return ahead
    }

    /// Takes back what the audio output has not played yet, from `after` on but no sooner than its
    /// `spliceLead` allows (and `videoLead` more when the interrupt's first pictures are still to be decoded),
    /// and tells the state the interrupt starts there. Returns that frame.
    func splice(after frame: Int64, opened: Result<any ItemReader, MediaError>, ahead: PicturesAhead) -> Int64 {
        let serial = self.serial
        // Overtaken while it opened (a cut, another interrupt): what was written stays; the newer request
        // places itself.
        guard core.locked({ $0.serial == serial }) else { return engine.audio.writtenFrames() }
        var lead = engine.config.spliceLead
        if !ahead.enough { lead += engine.config.videoLead }
        let at = engine.audio.retract(from: frame, lead: lead)
        core.locked { $0.spliced(at: at, serial: serial) }
        return at
    }

    /// The pictures decoded before the splice, queued for the now active play in order.
    func take(_ ahead: PicturesAhead, into item: ActiveItem) {
        for frame in ahead.frames { queuePicture(frame, of: item) }
        if let error = ahead.error {
            fail(item, error)
        } else if ahead.ended {
            item.videoDone = true
        }
    }
}
