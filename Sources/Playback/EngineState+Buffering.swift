// Waits for network bytes as decisions: which plays' readers wait, whether one of them is the play the
// decode thread feeds (then the listener will hear the wait: status `buffering` and `event.buffering`),
// and when that ends. A wait of the prefetcher, opening the next item while the current one plays, is
// no one's concern until that item is the one fed.

import Media
import QueueModel

/// Plays whose readers wait for network bytes now; the one reported buffering, and whether its outputs
/// had run dry when last reported. Owned by EngineState.
struct BufferingWaits {
    var plays: Set<Cursor> = []
    var reported: Cursor?
    var empty = false
}

extension EngineState {
    /// The play the decode thread is writing, or about to open.
    var fedCursor: Cursor? {
        switch phase.run?.feed {
        case .requested(let request)?: request.cursor
        case .opening(let play)?: play.cursor
        case .feeding?, .waitingForSchedule?, .complete?, nil: segments.last { $0.serial == serial }?.cursor
        }
    }

    /// `cursor`'s reader waits for bytes (`waiting`, repeated every few tenths of a second) or stopped
    /// waiting. `ahead`: seconds written to the outputs beyond what is heard now.
    mutating func noteSourceWaiting(_ cursor: Cursor, waiting: Bool, ahead: Double) {
        if waiting { buffering.plays.insert(cursor) } else { buffering.plays.remove(cursor) }
        let fed = fedCursor
        let isBuffering = fed.map { buffering.plays.contains($0) } ?? false
        let empty = isBuffering && ahead < 0.01
        guard isBuffering != status.buffering || (isBuffering && empty != buffering.empty) else { return }
        guard let reported = isBuffering ? fed : buffering.reported else { return }
        buffering.reported = isBuffering ? fed : nil
        buffering.empty = empty
        if isBuffering != status.buffering { updateStatus { $0.buffering = isBuffering } }
        emit(
            .buffering(
                BufferingReport(
                    id: reported.id, bufferedAhead: max(0, ahead), likelyToKeepUp: !isBuffering, bufferEmpty: empty)))
    }

    /// Reports that `cursor`'s item is being opened, can play, or could not be opened.
    mutating func noteLoading(_ cursor: Cursor, _ loadStatus: LoadStatus, error: String? = nil) {
        emit(
            .itemLoading(
                id: cursor.id, play: cursor.play, status: loadStatus, error: error, interrupt: cursor.isInterrupt))
    }

    /// A stream item's reader lost its stream or has it again (Demuxer+Stream): told as events whether or
    /// not the play is the one heard (a stream opened ahead, in the last seconds before its turn, may drop
    /// before it starts); its figures (bitrate, latency, pace) are kept on its segment for the status.
    mutating func noteStreamNews(_ cursor: Cursor, _ news: StreamNews) {
        // The count and the state follow the play, so a status made when it starts (after a resume) has them.
        for index in segments.indices where segments[index].cursor == cursor {
            switch news {
            case .stalled:
                segments[index].stream?.stalls += 1
                segments[index].stream?.down = true
                segments[index].stream?.bitrate = nil  // measured again once it is back
                segments[index].stream?.latency = nil
            case .resumed: segments[index].stream?.down = false
            case .figures(let bitrate): segments[index].stream?.bitrate = bitrate
            case .latency(let latency, let pace):
                segments[index].stream?.latency = latency
                segments[index].stream?.pace = pace
            case .paced(let pace, _, _): segments[index].stream?.pace = pace
            }
            if status.currentID == cursor.id && status.play == cursor.play && segments[index].heard == .started {
                // The figures are read from the segment by `status(heard:)`: no change event every 2 s.
                if news.isFigure { continue }
                let stream = segments[index].stream?.withoutFigures
                updateStatus { $0.stream = stream }
            }
        }
        switch news {
        case .stalled(let reason):
            emit(.itemStalled(id: cursor.id, play: cursor.play, reason: reason, interrupt: cursor.isInterrupt))
        case .resumed(let after):
            emit(.itemResumed(id: cursor.id, play: cursor.play, after: after, interrupt: cursor.isInterrupt))
        case .figures, .latency, .paced: break  // the status has them; no event
        }
    }
}

extension StreamNews {
    /// Figures the status reads from the play's segment when asked (no change event for them).
    var isFigure: Bool {
        switch self {
        case .figures, .latency, .paced: true
        case .stalled, .resumed: false
        }
    }
}
