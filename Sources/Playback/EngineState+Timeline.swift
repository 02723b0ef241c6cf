// Timeline decisions. The decode thread reports each play it opened, failed to open, or wrote to its end
// (and learns what to play next); the presenter reports where the listener is and which picture it showed,
// and the state announces, in timeline order, the plays reached: exactly one start before exactly one end
// per play (a play that failed without reaching the timeline gets only its end), and nothing of a play
// before the previous play's end — except in a crossfade, where the entering play starts inside the
// overlap and the leaving one ends after it.

import Media
import QueueModel

extension EngineState {
    // MARK: From the decode thread

    /// A play of `cursor` was opened for `serial`; false if a cut made it stale.
    mutating func playOpened(_ segment: Segment, knownDuration: Double?) -> Bool {
        guard segment.serial == serial else { return false }
        var segment = segment
        segment.fadeIn = fadeInOnOpening(segment)
        segments.append(segment)
        updateRun { $0.feed = .feeding }
        if let knownDuration { queue.setKnownDuration(segment.cursor.id, knownDuration) }
        if let size = segment.pictureSize, !segment.cursor.isInterrupt { queue.setKnownSize(segment.cursor.id, size) }
        return true
    }

    /// The first picture of a play is decoded: its size as seen (an EXIF turn is known only now) is the
    /// play's, reported with its start and kept on the queue entry.
    mutating func firstPictureDecoded(_ cursor: Cursor, serial: Int, size: PictureSize) {
        guard let index = segments.lastIndex(where: { $0.serial == serial && $0.cursor == cursor }),
            segments[index].pictureSize != size
        else { return }
        segments[index].pictureSize = size
        if !cursor.isInterrupt { queue.setKnownSize(cursor.id, size) }
    }

    /// The play's video decoder changed while it played (a hardware decode gave up): the status and the
    /// play's record say which decoder runs now.
    mutating func decoderChanged(_ cursor: Cursor, serial: Int, to decoding: VideoDecoding) {
        guard let index = segments.lastIndex(where: { $0.serial == serial && $0.cursor == cursor }) else { return }
        segments[index].decoding = decoding
        if status.currentID == cursor.id && status.play == cursor.play {
            updateStatus { $0.decoder = decoding }
        }
    }

    /// A decoded picture joins the picture queue in timeline order (in a crossfade two plays' pictures
    /// interleave).
    mutating func queuePicture(_ timed: TimedFrame) {
        guard let last = frames.last, last.time > timed.time else {
            frames.append(timed)
            return
        }
        let index = frames.firstIndex { $0.time > timed.time } ?? frames.endIndex
        frames.insert(timed, at: index)
    }

    /// The play of `cursor` could not be opened: it is recorded as a failed play at `frame` (nothing on the
    /// timeline). Returns the play to try next, or nil (stale, the end of the queue, or every item failed).
    mutating func openFailed(_ cursor: Cursor, serial: Int, at frame: Int64, error: String) -> NextPlay? {
        guard serial == self.serial else { return nil }
        var segment = Segment(
            serial: serial, cursor: cursor, startFrame: frame, itemOffset: 0, duration: nil,
            showsVideo: false, continuesPlay: false)
        segment.failure = error
        segment.endFrame = frame
        segments.append(segment)
        if cursor.isInterrupt { return interruptSuccessor(after: cursor, failed: true) }
        consecutiveFailures += 1
        return successorOrStop(after: cursor, lastError: error)
    }

    /// The play of `cursor` is written up to `endFrame` (with `failure` if reading it failed). Returns the
    /// play to start right after it, or nil.
    mutating func playWritten(_ cursor: Cursor, serial: Int, endFrame: Int64, failure: String?) -> NextPlay? {
        guard serial == self.serial else { return nil }
        var wroteNothing = false
        if let index = segments.lastIndex(where: { $0.cursor == cursor && $0.endFrame == nil }) {
            segments[index].endFrame = endFrame
            segments[index].failure = failure
            wroteNothing = endFrame == segments[index].startFrame
            // Nothing of a play is shown after its end (a read error cut it short while pictures were
            // queued ahead); a play left with no picture to show starts by the clock, not a picture.
            let end = Double(endFrame) / sampleRate - 1e-9
            frames.removeAll { $0.serial == serial && $0.cursor == cursor && $0.time >= end }
            if !frames.contains(where: { $0.serial == serial && $0.cursor == cursor }) {
                segments[index].showsVideo = false
            }
            wakeWaiters = true
        }
        if cursor.isInterrupt { return interruptSuccessor(after: cursor, failed: failure != nil) }
        // A failed play that put nothing on the timeline counts towards the all-failed stop, as a failed
        // open does: otherwise a queue of such items would loop forever without time passing.
        guard let failure, wroteNothing else {
            consecutiveFailures = 0
            return successorOrStop(after: cursor, lastError: nil)
        }
        consecutiveFailures += 1
        return successorOrStop(after: cursor, lastError: failure)
    }

    /// The play after `cursor` in the queue (the first open one), or nil — also when `lastError` ends a full
    /// pass of failures.
    mutating func successorOrStop(after cursor: Cursor, lastError: String?) -> NextPlay? {
        if let lastError, consecutiveFailures >= max(1, queue.count) {
            updateRun { $0.feed = .complete(error: "every item in the queue failed to play (last: \(lastError))") }
            return nil
        }
        let candidate = queue.successor(of: cursor)
        let choice = firstOpen(from: candidate)
        noteScheduled(choice, from: candidate)
        guard let next = choice.cursor else {
            if !choice.waiting { updateRun { $0.feed = .complete(error: nil) } }
            return nil
        }
        updateRun { $0.feed = .opening(NextPlay(cursor: next)) }
        return NextPlay(cursor: next)
    }

    // MARK: From the presenter

    /// The listener is at timeline frame `heard`: announce what it reached, go idle when all is heard,
    /// report progress. `wallClock`: now, in seconds since the epoch (for itemStarted).
    mutating func listenerReached(_ heard: Int64, wallClock: Double) {
        // A synchronized start not yet let go: nothing has started, whatever the (corked) clock says.
        guard scheduledStart == nil else { return }
        announce(heard: heard, wallClock: wallClock)
        // Played through once everything was heard and every picture shown.
        if segments.isEmpty && frames.isEmpty, case .complete(let error)? = phase.run?.feed {
            enter(error == nil ? .idle : .stopped(resume: nil, error: error)) {
                $0.error = error
                $0.describeNoPlay()
            }
        }
        // Waiting for a window, and the last play before the wait has been heard.
        if scheduleWait != nil && segments.isEmpty && frames.isEmpty && !status.waitingForSchedule
            && phase.run?.motion == .playing
        {
            showWaiting()
        }
        reportProgress(heard: heard)
    }

    /// Announces what the listener reached at `heard`, as the presenter's next look would: a decision that
    /// depends on the play heard now takes it from the listener, not from the last look.
    mutating func catchUp(heard: Int64, wallClock: Double) {
        guard scheduledStart == nil else { return }
        announce(heard: heard, wallClock: wallClock)
    }

    /// A picture of `cursor`'s play (of `serial`) is on screen: that play starts now if it had not, and
    /// every play before it on the timeline is over.
    mutating func picturePresented(serial: Int, cursor: Cursor, wallClock: Double) {
        func index() -> Int? { segments.firstIndex { $0.serial == serial && $0.cursor == cursor && $0.heard != .ended } }
        guard let found = index(), segments[found].heard == .ahead else { return }
        // Announcing the ones before may remove segments, so look it up again.
        announce(heard: segments[found].startFrame, upTo: found, closingEarlier: true, wallClock: wallClock)
        if let again = index(), segments[again].heard == .ahead { announceStart(again, wallClock: wallClock) }
    }

    /// Announces starts and ends of segments the listener has reached, in timeline order (at most up to
    /// `limit`). With `closingEarlier` (a picture of the segment at `limit` is on screen), every segment
    /// before `limit` that ends by its start is over whatever the clock says: each is started if it never
    /// was, then ended. Plays overlap only in a crossfade: the later one may start while the earlier one
    /// plays on, but no play ends before the ones before it.
    private mutating func announce(
        heard: Int64, upTo limit: Int? = nil, closingEarlier: Bool = false, wallClock: Double
    ) {
        let closedBy = limit.map { segments[$0].startFrame } ?? .max
        /// A play before this one has started and not ended (it overlaps what follows), and where the first
        /// such play ends: a later play starting at or after that end waits for it to be announced (a look that
        /// passed a whole crossfaded play at once — a busy presenter, or untimed output — must not tell a
        /// third play's start before the first one's end).
        var earlierOpen = false
        var earlierEnd = Int64.max
        var index = 0
        while index < min(segments.count, limit ?? .max) {
            let segment = segments[index]
            guard segment.serial == serial else {
                index += 1
                continue
            }
            let closes = closingEarlier && (segment.endFrame.map { $0 <= closedBy } ?? true)
            if segment.heard == .ahead {
                guard closes || heard >= segment.startFrame else { break }
                guard closes || !earlierOpen || segment.startFrame < earlierEnd else { break }
                if segment.failure != nil, segment.endFrame == segment.startFrame {
                    // A failed open inside an overlap ends after the play still open before it.
                    if !earlierOpen { announceEnd(index) }
                    index += 1
                    continue
                }
                if !closes && segment.showsVideo && !pictureWaitIsOver(segment, heard: heard) { break }
                announceStart(index, wallClock: wallClock)
            }
            if !earlierOpen, let end = segments[index].endFrame, closes || heard >= end,
                !nextStartsBeforeEnd(index, heard: heard)
            {
                announceEnd(index)
            } else {
                // Still playing: the next play may start meanwhile only if it overlaps this one.
                guard overlapsNext(index) else { break }
                if !earlierOpen, let end = segments[index].endFrame { earlierEnd = end }
                earlierOpen = true
            }
            index += 1
        }
        let deferred = segments.contains { $0.serial == serial && $0.heard == .started } && pendingEnd(heard: heard)
        segments.removeAll { $0.heard == .ended }
        if deferred { announce(heard: heard, upTo: nil, closingEarlier: false, wallClock: wallClock) }
    }

    /// A started play whose end the listener passed, left open this look only because the play overlapping
    /// it started in the same look (its end is announced at once after).
    private func pendingEnd(heard: Int64) -> Bool {
        guard let first = segments.firstIndex(where: { $0.serial == serial && $0.heard != .ended }),
            segments[first].heard == .started, let end = segments[first].endFrame, heard >= end
        else { return false }
        return !nextStartsBeforeEnd(first, heard: heard)
    }

    /// In a crossfade the listener passed both the entering play's start and the leaving one's end: the
    /// start comes first, so the leaving play ends once the entering one has started (a later look).
    private func nextStartsBeforeEnd(_ index: Int, heard: Int64) -> Bool {
        guard overlapsNext(index),
            let next = segments[(index + 1)...].first(where: { $0.serial == segments[index].serial }),
            next.heard == .ahead, heard >= next.startFrame, !(next.failure != nil && next.endFrame == next.startFrame)
        else { return false }
        return !next.showsVideo || pictureWaitIsOver(next, heard: heard)
    }

    /// Whether the play after `index` (of the same serial) starts before the one at `index` ends.
    private func overlapsNext(_ index: Int) -> Bool {
        guard let end = segments[index].endFrame,
            let next = segments[(index + 1)...].first(where: { $0.serial == segments[index].serial })
        else { return false }
        return next.startFrame < end
    }

    /// A play with pictures starts when its first picture is shown. Timed, one that shows none within half
    /// a second (or by its end, if sooner) starts by the clock. Untimed there is no clock to wait on: the
    /// decode thread clears `showsVideo` when a play ends with no picture left to show.
    private func pictureWaitIsOver(_ segment: Segment, heard: Int64) -> Bool {
        guard !untimed else { return false }
        return heard >= min(segment.startFrame + Int64(sampleRate / 2), segment.endFrame ?? .max)
    }

    private mutating func announceStart(_ index: Int, wallClock: Double) {
        segments[index].heard = .started
        let segment = segments[index]
        lastProgressFrame = .min
        // A seek goes on with the play started already; so does an interrupted play going back.
        updateRun { $0.started = segment.cursor }
        if interruptions.resuming?.cursor == segment.cursor || interruptions.suspended == segment.cursor {
            interruptions.resuming = nil
            interruptions.suspended = nil
        }
        if !segment.continuesPlay {
            emit(
                .itemStarted(
                    id: segment.cursor.id, play: segment.cursor.play, wallClock: wallClock,
                    timeline: Double(segment.startFrame) / sampleRate, interrupt: segment.cursor.isInterrupt,
                    size: segment.pictureSize, item: item(for: segment.cursor), decoder: segment.decoding,
                    web: segment.web))
            if !segment.cursor.isInterrupt {
                let before = queue.version
                _ = queue.begin(segment.cursor)
                noteQueueChange(from: before)
            }
        }
        updateStatus { $0.describe(segment) }
    }

    private mutating func announceEnd(_ index: Int) {
        segments[index].heard = .ended
        let segment = segments[index]
        let reason: EndReason = segment.failure == nil ? .eof : .error
        if startedPlay == segment.cursor { updateRun { $0.started = nil } }
        // Interrupted: not ended, it goes on after the interrupt.
        if segment.suspends {
            interruptions.suspended = segment.cursor
            return
        }
        endPlay(segment.cursor, reason: reason, error: segment.failure)
    }

    private mutating func reportProgress(heard: Int64) {
        guard progressInterval > 0, status.state == .playing, let segment = audibleSegment else { return }
        guard lastProgressFrame == .min || heard - lastProgressFrame >= Int64(progressInterval * sampleRate) else {
            return
        }
        lastProgressFrame = heard
        emit(
            .progress(
                id: segment.cursor.id, position: position(in: segment, heard: heard), duration: segment.duration,
                play: segment.cursor.play, interrupt: segment.cursor.isInterrupt))
    }
}
