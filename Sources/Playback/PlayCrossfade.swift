// A play's crossfades as one small state machine, kept by its ActiveItem (decode thread only): how it comes
// in — alone, or mixed over the leaving play's sound for the overlap — and how it goes out — to its own end,
// handing over to the next play at a timeline frame, or handed over (its pictures stop where its sound
// ends). What it read past the hand-over waits in `held` to be mixed under the next play. The decode loop
// (DecodeLoop+Crossfade) asks it where things are and moves it on; it does no I/O.

struct PlayCrossfade {
    /// How the play goes out.
    enum Out: Equatable {
        /// To its own end: the next play joins or cuts in after it.
        case toItsEnd
        /// The next play comes in at timeline frame `at`, the two overlapping `frames`.
        case handsOver(at: Int64, frames: Int64)
        /// Handed over: its sound ends at `end` (timeline seconds), the overlap's end, and so do its pictures.
        case handedOver(end: Double)
    }

    private(set) var out = Out.toItsEnd
    /// Coming in over the leaving play: how far the mix has gone and the play under it (nil: alone, or the
    /// mix is done).
    private(set) var mixingIn: (mix: CrossfadeMix, under: ActiveItem)?
    /// The play's sound read past where the next one comes in, waiting to be mixed under it.
    var held = HeldSamples()

    init(comingIn: (mix: CrossfadeMix, leaving: ActiveItem)? = nil) {
        mixingIn = comingIn.flatMap { $0.mix.isFinished ? nil : ($0.mix, $0.leaving) }
    }

    /// Whether the mix over the leaving play is still under way.
    var isMixingIn: Bool { mixingIn != nil }
    /// Frames of the mix still to go (0 when none).
    var mixRemaining: Int { mixingIn?.mix.remaining ?? 0 }

    /// The timeline frame where the next play comes in, while that is planned.
    var handOverFrame: Int64? {
        if case .handsOver(let at, _) = out { return at }
        return nil
    }

    /// Frames the planned hand-over overlaps (0: none).
    var overlapFrames: Int64 {
        if case .handsOver(_, let frames) = out { return frames }
        return 0
    }

    /// Where its sound ends once handed over (timeline seconds).
    var handedOverEnd: Double? {
        if case .handedOver(let end) = out { return end }
        return nil
    }

    /// Plans the hand-over anew (every chunk: the play's known length may change): a crossfade of `frames`
    /// frames before the play's end at timeline frame `endFrame`, never more than half the play of
    /// `length` frames, so every play moves the timeline on; 0: none. A play handed over stays so.
    mutating func plan(frames: Int64, endFrame: Int64, length: Int64) {
        guard handedOverEnd == nil else { return }
        let overlap = min(frames, length / 2)
        out = overlap > 0 ? .handsOver(at: endFrame - overlap, frames: overlap) : .toItsEnd
    }

    /// No crossfade out as things stand now (none asked for, or the play's length unknown): it plays to its
    /// end. A play handed over stays so.
    mutating func noHandOver() {
        if handedOverEnd == nil { out = .toItsEnd }
    }

    /// Nothing comes in over it after all (the queue changed, nothing could be opened): it plays to its end.
    mutating func cancelHandOver() { out = .toItsEnd }

    /// It was handed over: its sound and pictures end at `end` (timeline seconds).
    mutating func handedOver(end: Double) { out = .handedOver(end: end) }

    /// Mixes the leaving play's samples (`leaving(frames)` reads them) under the first frames of `chunk`.
    /// Returns the leaving play once the mix is done (its sound past the overlap is not heard).
    mutating func mixLeaving(into chunk: inout [Float], channels: Int, leaving read: (ActiveItem, Int) -> [Float]) -> ActiveItem? {
        guard var (mix, under) = mixingIn else { return nil }
        let wanted = min(chunk.count / channels, mix.remaining)
        mix.mix(read(under, wanted), into: &chunk)
        guard mix.isFinished else {
            mixingIn = (mix, under)
            return nil
        }
        mixingIn = nil
        return under
    }
}
