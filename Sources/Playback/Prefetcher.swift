// Opens the item after the current one on its own thread, so that a slow open (a large file, a busy
// disk, a loaded machine) never keeps the decode thread from feeding the audio output. One job at a
// time; the decode thread hands a job in and later takes its result. MediaReaders cross from this
// thread to the decode thread once, through `Opened`, and are then used by the decode thread only.

import FoundationEssentials
import Glibc
import SystemSupport
import Media
import QueueModel

final class Prefetcher: @unchecked Sendable {
    /// A reader handed from the prefetch thread to the decode thread.
    final class Opened: @unchecked Sendable {
        let result: Result<any ItemReader, MediaError>
        init(_ result: Result<any ItemReader, MediaError>) { self.result = result }
    }

    private struct Job {
        let cursor: Cursor
        let item: MediaItem
        let open: @Sendable () -> Opened
    }

    /// Guards everything below.
    private let condition = ThreadCondition()
    private var queued: Job?
    private var running: (cursor: Cursor, item: MediaItem)?
    private var finished: (cursor: Cursor, item: MediaItem, opened: Opened)?
    private var stopped = false

    init() {
        Threads.start(named: "queued.prefetch") { [self] in run() }
    }

    /// Asks for `cursor`'s item to be opened; replaces any job not yet taken.
    func request(_ cursor: Cursor, item: MediaItem, open: @escaping @Sendable () -> Opened) {
        let dropped = condition.withLock {
            queued = Job(cursor: cursor, item: item, open: open)
            defer { finished = nil }
            condition.broadcast()
            return finished
        }
        _ = dropped  // released here, outside the lock (a stream's reader thread is waited for)
    }

    /// The reader opened for exactly this play of this item, waiting for it if it is being opened now;
    /// nil when no such job was asked for (the caller opens it itself).
    func take(_ cursor: Cursor, item: MediaItem) -> Result<any ItemReader, MediaError>? {
        var stale: Opened?
        let taken = condition.withLock { () -> Result<any ItemReader, MediaError>? in
            while let running, running.cursor == cursor, running.item == item, !stopped {
                condition.wait()
            }
            if let queued, queued.cursor == cursor, queued.item == item {
                self.queued = nil  // not started yet: cheaper for the caller to open it now than to wait
                return nil
            }
            guard let finished else { return nil }
            guard finished.cursor == cursor, finished.item == item else {
                // A file opened for another play waits for it (an interrupt may come first); a stream opened
                // ahead holds a connection (a port, a camera's session): it goes.
                if case .success(let reader) = finished.opened.result, reader.isStream {
                    stale = finished.opened
                    self.finished = nil
                }
                return nil
            }
            self.finished = nil
            // Opened for a serial that has gone (a page's wait ended by a user's next): the caller opens it anew.
            if case .failure(let error) = finished.opened.result, error.message == "interrupted" { return nil }
            return finished.opened.result
        }
        _ = stale  // released on return, outside the lock: a stream's reader thread is stopped and waited for
        return taken
    }

    func stop() {
        let dropped = condition.withLock {
            stopped = true
            queued = nil
            defer { finished = nil }
            condition.broadcast()
            return finished
        }
        _ = dropped  // released here, outside the lock (a stream's reader thread is waited for)
    }

    private func run() {
        while let job = nextJob() {
            var opened: Opened? = job.open()
            let replaced = condition.withLock {
                running = nil
                // Kept while it was asked for; a result not taken before the next one is let go.
                defer { if !stopped, let opened { finished = (job.cursor, job.item, opened) } }
                condition.broadcast()
                return stopped ? nil : finished
            }
            _ = replaced  // both released outside the lock (a stream's reader thread is waited for)
            opened = nil
        }
    }

    private func nextJob() -> Job? {
        condition.withLock {
            while queued == nil && !stopped { condition.wait() }
            guard !stopped, let job = queued else { return nil }
            queued = nil
            running = (job.cursor, job.item)
            return job
        }
    }
}
