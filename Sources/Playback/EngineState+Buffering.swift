// Waits for network bytes as decisions: which plays' readers wait, whether one of them is the play the
// decode thread feeds (then the listener will hear the wait: status `buffering` and `event.buffering`),
// and when that ends. A wait of the prefetcher, opening the next item while the current one plays, is
// no one's concern until that item is the one fed.

import QueueModel

extension EngineState {
    /// The play the decode thread is writing, or about to open.
    var fedCursor: Cursor? {
        if let request = startRequest { return request.cursor }
        if let upcoming { return upcoming }
        return segments.last { $0.serial == serial }?.cursor
    }

    /// `cursor`'s reader waits for bytes (`waiting`, repeated every few tenths of a second) or stopped
    /// waiting. `ahead`: seconds written to the outputs beyond what is heard now.
    mutating func noteSourceWaiting(_ cursor: Cursor, waiting: Bool, ahead: Double) {
        if waiting { waitingPlays.insert(cursor) } else { waitingPlays.remove(cursor) }
        let fed = fedCursor
        let isBuffering = fed.map { waitingPlays.contains($0) } ?? false
        let empty = isBuffering && ahead < 0.01
        guard isBuffering != status.buffering || (isBuffering && empty != bufferEmpty) else { return }
        guard let reported = isBuffering ? fed : bufferingPlay else { return }
        bufferingPlay = isBuffering ? fed : nil
        bufferEmpty = empty
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
}
