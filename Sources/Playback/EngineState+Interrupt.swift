// Interrupts (`queue.interrupt`): an item played now, outside the queue, `plays` times; then the queue
// resumes the play it interrupted at the position it had — play count unchanged and no itemEnded for it
// (it has not ended). The switch is a splice, not a cut: the audio output takes back what was written past
// a point just ahead of what the listener has heard (`AudioSink.retract`, the server's part included), and
// the interrupt starts on the timeline right there, so what is heard runs from the interrupted item's
// samples straight into the interrupt's with nothing inserted, soon after the request (the decode thread
// is let out of a blocked write for it; the cut is just past what the sink has read); the interrupted
// play's segment ends at that frame and it later resumes from exactly there, after the interrupt's last
// play (a gapless join).
// A second interrupt while one is under way queues behind it: an urgent message is never lost to another.
// An interrupt before a synchronized start's instant calls that start off: the interrupt plays now.
// Interrupt plays are cursors of pass 0 (queue passes count from 1), so every decision can tell them apart.

import QueueModel

extension Cursor {
    /// A play of an interrupt rather than of the queue.
    var isInterrupt: Bool { pass == 0 }
}

/// One interrupt: its item, with an id of its own from the queue's id space, and how often it plays.
public struct Interrupt: Sendable, Equatable {
    public let id: ItemID
    public let item: MediaItem
    public let plays: Int

    func cursor(play: Int) -> Cursor { Cursor(id: id, play: play, pass: 0) }
}

/// Where playback goes once the interrupts are over.
enum InterruptReturn: Equatable {
    /// The decode thread has not spliced yet: the interrupted play is not known.
    case pending
    /// The interrupted play, from where it was cut (or the play that was to follow it).
    case play(NextPlay)
    /// Nothing was playing: playback goes idle again.
    case idle
    /// Every item was outside its schedule: playback waits again, from this play.
    case scheduleWait(Cursor)
}

/// The interrupts under way. Owned by EngineState (EngineCore's lock).
struct Interruptions {
    /// Interrupts not yet fully written: the first is playing (or about to), the rest wait behind it.
    var waiting: [Interrupt] = []
    /// Interrupt items by id while a play of theirs may still be heard (title, uri, the decoder's lookups).
    var known: [ItemID: Interrupt] = [:]
    /// Where playback goes after the last interrupt; nil once the decode thread has gone back (or none).
    var back: InterruptReturn?
    /// The play that is going back, from when the decode thread went back until it is heard.
    var resuming: NextPlay?
    /// The interrupted play, heard up to the splice and not yet resumed: it owes its itemEnded if the
    /// interrupt is abandoned (a cut elsewhere) instead.
    var suspended: Cursor?

    var isEmpty: Bool { waiting.isEmpty && back == nil && resuming == nil && suspended == nil && known.isEmpty }

    /// A play of an interrupt ended: the interrupt is forgotten after its last play, or after one cut short.
    mutating func ended(_ cursor: Cursor, early: Bool) {
        guard let interrupt = known[cursor.id], !waiting.contains(where: { $0.id == cursor.id }) else { return }
        if early || cursor.play >= interrupt.plays { known[cursor.id] = nil }
    }
}

extension EngineState {
    /// Plays `interrupt` now, or after the interrupts already under way.
    mutating func interrupt(_ interrupt: Interrupt) {
        interruptions.known[interrupt.id] = interrupt
        interruptions.waiting.append(interrupt)
        // One under way will go on to this one when its last play is written.
        guard interruptions.waiting.count == 1 else { return }
        let first = interrupt.cursor(play: 1)
        switch phase {
        case .idle, .stopped:
            interruptions.back = .idle
            cut(to: first, endReason: nil)
            resume()
        case .running(let run):
            if let wait = scheduleWait, segments.isEmpty {
                interruptions.back = .scheduleWait(wait)
                cut(to: first, endReason: nil)
            } else if let request = startRequest, !request.splice {
                // A play requested and not yet begun: nothing of it was written, so nothing to splice.
                interruptions.back = .play(
                    NextPlay(cursor: request.cursor, position: request.position, continuesPlay: request.continuesPlay))
                interruptions.suspended = request.continuesPlay ? startedPlay : nil
                cut(to: first, endReason: nil)
            } else {
                splice(first)
            }
            if run.motion == .paused { resume() }
        }
    }

    /// Leaves the decode thread a request to put `cursor` where the audio output's unsent samples begin,
    /// keeping what is on the timeline before it (segments and pictures go on under the new serial).
    private mutating func splice(_ cursor: Cursor) {
        if interruptions.back == nil { interruptions.back = .pending }
        // What the decode thread was about to open after the play being cut: where the queue goes back to
        // if the splice lands past everything written.
        let opening: NextPlay? = if case .opening(let play)? = phase.run?.feed, !play.cursor.isInterrupt { play } else { nil }
        serial += 1
        for index in segments.indices { segments[index].serial = serial }
        for index in frames.indices { frames[index].serial = serial }
        // Whatever interrupt is still on the timeline plays to its end: this one goes after it.
        let after = segments.filter { $0.cursor.isInterrupt }.compactMap(\.endFrame).max() ?? 0
        var request = StartRequest(serial: serial, cursor: cursor, position: 0, continuesPlay: false)
        request.splice = true
        request.spliceAfter = after
        request.openingBeforeSplice = opening
        setFeed(.requested(request))
        wakeWaiters = true
        // The decode thread may be waiting for room in the output (up to a server request away): the
        // splice is measured from the moment it gets to it.
        actions.append(.cancelAudioWrite)
    }

    /// Decode thread, the interrupt's first play opened: the audio output dropped what it had not sent, and
    /// the interrupt starts at timeline frame `frame`. The play that frame falls in is cut there and is what
    /// resumes afterwards; nothing decoded beyond it is kept.
    mutating func spliced(at frame: Int64, serial: Int) {
        guard serial == self.serial, let request = startRequest else { return }
        var back: NextPlay?
        // In a crossfade two plays are under way: the entering one is interrupted (and goes on afterwards),
        // the leaving one ends where the interrupt comes in.
        let underway = segments.indices.filter { segments[$0].startFrame < frame && (segments[$0].endFrame ?? .max) > frame }
        for leaving in underway.dropLast() where !segments[leaving].cursor.isInterrupt {
            segments[leaving].endFrame = frame
        }
        if let index = underway.last, !segments[index].cursor.isInterrupt {
            let segment = segments[index]
            back = NextPlay(cursor: segment.cursor, position: position(in: segment, heard: frame), continuesPlay: true)
            segments[index].endFrame = frame
            segments[index].suspends = true
        } else if let later = segments.first(where: { $0.startFrame >= frame && !$0.cursor.isInterrupt }) {
            // Not heard beyond its first frame, if at all: it goes back from its start (a play already
            // announced is suspended, as above).
            back = NextPlay(
                cursor: later.cursor, position: later.itemOffset, continuesPlay: later.continuesPlay || later.heard != .ahead)
            if later.heard != .ahead { interruptions.suspended = later.cursor }
        } else if let resuming = interruptions.resuming {
            back = resuming
        } else if let opening = request.openingBeforeSplice {
            back = opening
        }
        segments.removeAll { $0.startFrame >= frame && $0.endFrame != $0.startFrame }
        let cut = Double(frame) / sampleRate - 1e-9
        frames.removeAll { $0.time >= cut }
        interruptions.resuming = nil
        if let back {
            interruptions.back = .play(back)
        } else if interruptions.back == .pending {
            // The queue had been written to its end: nothing to go back to.
            interruptions.back = .idle
        }
        wakeWaiters = true
    }

    /// What plays after interrupt play `cursor`, without acting on it (the prefetcher, loop seams, re-feeds).
    func plannedAfterInterrupt(_ cursor: Cursor) -> NextPlay? {
        let waiting = interruptions.waiting
        if let first = waiting.first, first.id == cursor.id {
            if cursor.play < first.plays { return NextPlay(cursor: first.cursor(play: cursor.play + 1)) }
            if waiting.count > 1 { return NextPlay(cursor: waiting[1].cursor(play: 1)) }
        } else if let first = waiting.first {
            return NextPlay(cursor: first.cursor(play: 1))
        }
        if case .play(let back) = interruptions.back { return back }
        return interruptions.resuming
    }

    /// Decode thread: interrupt play `cursor` is written (`failed`: it could not be opened or read, and the
    /// rest of that interrupt is dropped). Returns what goes on the timeline after it.
    mutating func interruptSuccessor(after cursor: Cursor, failed: Bool) -> NextPlay? {
        if let first = interruptions.waiting.first, first.id == cursor.id {
            if !failed && cursor.play < first.plays { return opening(first.cursor(play: cursor.play + 1)) }
            interruptions.waiting.removeFirst()
        }
        if let next = interruptions.waiting.first { return opening(next.cursor(play: 1)) }
        return goBack()
    }

    /// The decode thread opens `cursor`'s play next.
    private mutating func opening(_ cursor: Cursor) -> NextPlay {
        updateRun { $0.feed = .opening(NextPlay(cursor: cursor)) }
        return NextPlay(cursor: cursor)
    }

    /// The interrupts are all written: playback goes back to where it was.
    private mutating func goBack() -> NextPlay? {
        let back = interruptions.back
        interruptions.back = nil
        switch back {
        case .play(let play) where queue.entry(play.cursor.id) != nil:
            interruptions.resuming = play
            updateRun { $0.feed = .opening(play) }
            return play
        case .play(let play):
            // Its item was removed meanwhile (its play ended then): the queue goes on after it.
            return successorOrStop(after: play.cursor, lastError: nil)
        case .scheduleWait(let cursor):
            updateRun { $0.feed = .waitingForSchedule(cursor) }
            return nil
        case .idle, .pending, nil:
            updateRun { $0.feed = .complete(error: nil) }
            return nil
        }
    }

    /// The play an interrupt stands in for: suspended, about to be cut, or going back.
    var interruptedPlay: NextPlay? {
        if case .play(let back) = interruptions.back { return back }
        if let resuming = interruptions.resuming { return resuming }
        return interruptions.suspended.map { NextPlay(cursor: $0, continuesPlay: true) }
    }

    /// `next` during an interrupt: the rest of it is dropped, and the next interrupt or the queue goes on.
    mutating func skipInterrupt(_ cursor: Cursor) {
        interruptions.waiting.removeAll { $0.id == cursor.id }
        if let next = interruptions.waiting.first {
            cut(to: next.cursor(play: 1), endReason: .skipped)
            return
        }
        let back = interruptions.back ?? interruptions.resuming.map { .play($0) } ?? .idle
        interruptions.back = nil
        interruptions.resuming = nil
        switch back {
        case .play(let play) where queue.entry(play.cursor.id) != nil:
            cut(
                to: play.cursor, position: play.position, endReason: .skipped, continuesPlay: play.continuesPlay,
                keepInterrupts: true)
            interruptions.resuming = play
        case .scheduleWait(let wait):
            cut(to: nil, endReason: .skipped, keepInterrupts: true)
            setFeed(.waitingForSchedule(wait))
            showWaiting()
        case .play(let play):
            if !startOrWait(from: queue.successor(of: play.cursor), endReason: .skipped) { goIdle() }
        case .idle, .pending:
            cut(to: nil, endReason: .skipped)
            goIdle()
        }
    }

    /// Takes back the interrupts `ids` (an alert cleared): those waiting are dropped, and if one of them is
    /// heard now it is cut short as `next` would, so playback goes on to the next other interrupt or back.
    /// One being spliced in or already placed after what is heard (`heardFrame`) is never heard: when no
    /// other interrupt waits, the play heard goes on where it is (its unheard rest written again).
    mutating func withdrawInterrupts(_ ids: Set<ItemID>, heardFrame: Int64) {
        if let play = current, !play.cursor.isInterrupt,
            startRequest.map({ $0.splice && ids.contains($0.cursor.id) }) ?? false
                || segments.contains(where: { $0.cursor.isInterrupt && ids.contains($0.cursor.id) }),
            interruptions.waiting.allSatisfy({ ids.contains($0.id) })
        {
            let position = position(of: play, heard: heardFrame)
            interruptions = Interruptions()
            cut(to: play.cursor, position: position, endReason: nil, continuesPlay: true, keepInterrupts: true)
            return
        }
        let heard = current?.cursor
        // The first waiting one may be opening already (the decoder looks it up): only those behind it are
        // forgotten at once; the rest as their plays end.
        let opening = interruptions.waiting.first?.id
        for id in ids where id != heard?.id && id != opening { interruptions.known[id] = nil }
        interruptions.waiting.removeAll { ids.contains($0.id) && $0.id != heard?.id }
        if let heard, heard.isInterrupt, ids.contains(heard.id) { skipInterrupt(heard) }
    }

    private mutating func goIdle() {
        enter(.idle) { $0.describeNoPlay() }
    }

    /// A cut elsewhere (stop, a jump, a cleared queue) ends the interrupts: the interrupted play, heard and
    /// suspended, ends too (with the cut's reason), and nothing goes back to it.
    mutating func abandonInterrupts(reason: EndReason?, target: Cursor?) {
        guard !interruptions.isEmpty else { return }
        let suspended = interruptions.suspended
        interruptions = Interruptions()
        if let suspended, suspended != target || reason != nil {
            endPlay(suspended, reason: reason ?? .skipped, error: nil)
        }
    }
}
