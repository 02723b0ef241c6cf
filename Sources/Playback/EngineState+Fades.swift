// Fades and dips between plays, and stills that move, as decisions: where on the output timeline a play darkens toward the next
// play's transition colour and lightens from its own, so that the presenter draws each picture under the
// right veil (and redraws a still at display rate while the veil moves) and the decode thread scales the
// sound by the same curve. A play fades in only when it joins the play before it (a natural end, a loop
// seam); a cut — `next`, a seek, a start — is never softened. Interrupts are never faded. A crossfade
// has no veil: its overlap is the decode thread's (DecodeLoop+Crossfade) and the presenter's (`crossfade`).

import QueueModel

/// A picture partly covered by a transition's colour: `level` 1 is the picture alone, 0 the colour alone.
public struct PictureVeil: Sendable, Equatable {
    public var level: Double
    public var color: TransitionColor
    public init(level: Double, color: TransitionColor) {
        self.level = level
        self.color = color
    }
}

/// One side of a join: the instant of the join on the timeline (seconds), how long the ramp lasts on this
/// side, and the colour it passes through.
struct FadeRamp: Equatable {
    var join: Double
    var half: Double
    var color: TransitionColor
}

/// Where a play fades in (after its start) and out (before its end).
struct FadeWindow: Equatable {
    var fadeIn: FadeRamp?
    var fadeOut: FadeRamp?

    /// The veil at timeline second `time`; nil outside both ramps (the picture alone).
    func veil(at time: Double) -> PictureVeil? {
        var veil: PictureVeil?
        if let fadeIn, time < fadeIn.join + fadeIn.half {
            veil = PictureVeil(level: max(0, (time - fadeIn.join) / fadeIn.half), color: fadeIn.color)
        }
        if let fadeOut, time > fadeOut.join - fadeOut.half {
            let level = max(0, (fadeOut.join - time) / fadeOut.half)
            if level < (veil?.level ?? 1) { veil = PictureVeil(level: level, color: fadeOut.color) }
        }
        return veil
    }

    /// Whether either ramp overlaps `span` (timeline seconds).
    func touches(_ span: ClosedRange<Double>) -> Bool {
        if let fadeIn, span.overlaps(fadeIn.join...(fadeIn.join + fadeIn.half)) { return true }
        if let fadeOut, span.overlaps((fadeOut.join - fadeOut.half)...fadeOut.join) { return true }
        return false
    }

    /// The sound's gain at `time`: the picture's level (1 outside the ramps).
    func gain(at time: Double) -> Float { Float(veil(at: time)?.level ?? 1) }
}

extension EngineState {
    /// The soft transition into `cursor`'s play (its item's, else the daemon's default); nil for a cut.
    func transitionInto(_ cursor: Cursor) -> ItemTransition? {
        guard !cursor.isInterrupt, let item = queue.entry(cursor.id)?.item else { return nil }
        guard let transition = item.transition ?? defaultTransition, transition.softens else { return nil }
        return transition
    }

    /// The soft transition `segment` opens with: only when it follows the play before it on its own (the
    /// decode thread says so: not a cut, a seek or a splice) and neither is an interrupt.
    func fadeInOnOpening(_ segment: Segment) -> ItemTransition? {
        guard segment.joinsPrevious, !segment.continuesPlay,
            segments.last(where: { $0.serial == segment.serial })?.cursor.isInterrupt != true,
            let transition = transitionInto(segment.cursor), transition.veils
        else { return nil }
        return transition
    }

    /// The soft transition from `cursor`'s play into the play after it, as the queue stands now (nil: a cut).
    func transitionOut(of cursor: Cursor) -> ItemTransition? {
        guard !cursor.isInterrupt, let next = nextPlay(after: cursor).cursor else { return nil }
        return transitionInto(next)
    }

    /// Seconds of the crossfade from `cursor`'s play into the play after it, as the queue stands now (nil:
    /// the join is not a crossfade).
    func crossfadeOut(of cursor: Cursor) -> Double? {
        transitionOut(of: cursor).flatMap { $0.overlaps ? $0.duration : nil }
    }

    /// Where `cursor`'s play of `serial` fades in and out, as known now: its end is where it was written to,
    /// else where its length puts it; the fade out follows the play that comes next. nil: no fade.
    func fadeWindow(for cursor: Cursor, serial: Int) -> FadeWindow? {
        fadeWindow(for: cursor, serial: serial, leavingWith: transitionOut(of: cursor))
    }

    /// The same with the transition out of the play known already (`transitionOut(of:)`).
    func fadeWindow(for cursor: Cursor, serial: Int, leavingWith out: ItemTransition?) -> FadeWindow? {
        guard let segment = segments.last(where: { $0.cursor == cursor && $0.serial == serial }) else { return nil }
        var window = FadeWindow()
        let start = Double(segment.startFrame) / sampleRate
        if let transition = segment.fadeIn {
            window.fadeIn = FadeRamp(join: start, half: transition.duration / 2, color: transition.color)
        }
        if segment.failure == nil, let transition = out, transition.veils {
            let end =
                segment.endFrame.map { Double($0) / sampleRate }
                ?? segment.duration.map { start + ($0 - segment.itemOffset) / segment.rate }
            if let end { window.fadeOut = FadeRamp(join: end, half: transition.duration / 2, color: transition.color) }
        }
        return window.fadeIn == nil && window.fadeOut == nil ? nil : window
    }

    /// Where a still with a motion is looked at, at timeline second `time`: its frame that far through the
    /// play. nil for a picture that stands still (no motion, or not a still).
    func motionFrame(for cursor: Cursor, serial: Int, at time: Double) -> MotionFrame? {
        guard let segment = segments.last(where: { $0.cursor == cursor && $0.serial == serial }), segment.isStill,
            let motion = item(for: cursor)?.motion, let length = segment.duration, length > 0
        else { return nil }
        let start = Double(segment.startFrame) / sampleRate
        return motion.frame(at: (time - start) * segment.rate / (length - segment.itemOffset))
    }
}
