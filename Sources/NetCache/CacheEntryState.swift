// What one URL's cache knows and decides, as a value: the bytes on disk, what the server said, the running
// transfers, failures and backoff, the file's version. CacheEntry owns one under its lock, feeds it what
// happened (a read's wait, a response head, bytes written, a transfer's end) with the monotonic time, and
// carries out the actions it returns after unlocking. No I/O, no HTTP calls, no clock and no lock in here,
// so every decision can be tested by calling these methods and comparing the actions
// (Tests/NetCacheTests/CacheEntryStateTests.swift). What a transfer's callbacks decide is in
// CacheEntryState+Transfers.swift, the upkeep of a complete copy in CacheEntryState+Upkeep.swift.

import CacheControl
import FoundationEssentials
import Glibc
import SystemSupport
import Logging
import Media

/// What CacheEntry carries out for its state, in the order given.
enum CacheEntryAction: Equatable, Sendable {
    /// GET `request.location` from `request.start` to the end.
    case startTransfer(TransferRequest)
    /// Cancel the transfer's HTTP task (superseded, stalled, or the entry retired).
    case cancelTransfer(id: Int)
    /// Replace the meta file with this.
    case writeMeta(CacheMeta)
    /// Empty the data and ranges files: the server's file changed and the bytes start over.
    case truncateFiles
    /// fdatasync the data and the ranges log: the file just became complete.
    case syncFiles
    case log(Logger.Level, String)
    case tell(CacheNews)
    /// No transfer runs any more (complete, or gave up).
    case becameIdle
}

/// One request to start: `Range: bytes=<start>-`, and `If-Range: <ifRange>` when set.
struct TransferRequest: Equatable, Sendable {
    let id: Int
    let start: Int64
    let location: String
    let ifRange: String?
}

/// One reader's wait (owned by the reader's thread, not guarded): what it waits for and how it has gone.
struct ReaderWait {
    enum Goal: Equatable {
        /// `open`: the file's length (or at least the server's first answer).
        case length
        /// `waitForBytes`: the byte at `offset` of `version`.
        case bytes(at: Int64, version: Int)
    }
    let goal: Goal
    /// The wait lasted past one slice and the engine was told (buffering): go on only with bytes in hand.
    var noticed = false
    /// Every transfer was asked again once after the network timeout; a second stall fails the read.
    var stalledOnce = false
    /// 0.2 s slices waited so far.
    var slices = 0

    var offset: Int64 {
        if case .bytes(let offset, _) = goal { return offset }
        return 0
    }
}

/// Its fields are changed only by its own methods (here and in CacheEntryState+*.swift); CacheEntry reads
/// them and calls the methods, under its lock.
struct CacheEntryState {
    /// One running transfer as the decisions see it.
    struct Transfer: Equatable {
        let id: Int
        /// The byte it asked for first.
        let start: Int64
        /// The next byte it will deliver.
        var position: Int64
        /// Sent with If-Range: a 200 then means the cached bytes are another version.
        let askedIfUnchanged: Bool
        /// The server answered (an error before that means it could not be reached at all).
        var answered = false
        /// Bytes handed to the disk queue and not yet written (its backpressure).
        var queuedBytes = 0
    }

    static let maxTransfers = 2
    /// A read this far ahead of a running transfer waits for it; further, it gets its own request (256 KiB
    /// is a fifth of a second at 10 Mbit/s: a new request's round trip costs about as much).
    static let readAhead: Int64 = 256 << 10
    /// Bytes a play waits for once it had to wait (about 2 s of a 2 Mbit/s clip).
    static let resumeAhead: Int64 = 512 << 10
    static let maxRedirects = 5
    static let maxAttempts = 4
    /// Backoff after a failure to reach the server: doubles from 2 s, up to 5 min.
    static let firstBackoff = 2.0
    static let maxBackoff = 300.0

    let url: String
    /// No byte for this long: every transfer is asked again from where it stopped, then the read fails.
    let timeout: Double
    /// What the server said (nil: nothing yet).
    var meta: CacheMeta?
    /// The bytes on disk.
    var present: ByteRanges
    /// Running transfers, oldest first (at most `maxTransfers`). One not listed is stopped: its bytes are
    /// dropped, its answer refused, its end ignored.
    var transfers: [Transfer] = []
    /// The URL requests go to (after redirects), and how many redirects led there.
    var location: String
    var redirects = 0
    /// Why the last transfer failed, until one succeeds; failed attempts in a row.
    var failure: MediaError?
    var failedAttempts = 0
    /// When bytes last arrived (or a transfer started).
    var lastProgress: Double
    /// The server could not be reached: no new attempt before `retryAt`; `backoff` doubles with each
    /// such failure in a row.
    var retryAt = -Double.infinity
    var backoff = 0.0
    /// When the server last gave or confirmed this version (nil: not since start-up).
    var validatedAt: Double?
    /// A conditional HEAD is on its way.
    var revalidating = false
    /// A newer version is being downloaded beside this one (status `stale`).
    var superseded = false
    /// Replaced by a newer version or evicted: starts no transfer; reads of missing bytes fail.
    var retired = false
    /// Why the bytes must not be played (a digest mismatch): reads fail, even of bytes on disk.
    var rejection: String?
    /// This run read the cached pieces back once (`scrubOnce`).
    var scrubbed = false
    /// Bumped when the server's file changed under a download and the bytes start over: a play opened
    /// on an older version fails rather than read the new one's bytes.
    var version = 0
    /// Completion was told (once per time the file becomes complete).
    var toldComplete = false
    /// When progress news was last given, and the bytes on disk then.
    var lastNews = (at: -Double.infinity, bytes: Int64(0))
    /// The id the next transfer gets.
    var nextTransferID = 1

    /// `meta` and `present`: what the files held at start-up (nil and empty: nothing).
    init(url: String, meta: CacheMeta?, present: ByteRanges, timeout: Double, now: Double) {
        self.url = url
        self.meta = meta
        self.present = present
        self.timeout = timeout
        location = url
        lastProgress = now
    }

    // MARK: Status

    /// Whether every byte is on disk (such an item plays with no network at all).
    var isComplete: Bool {
        guard let length = meta?.length else { return false }
        return present.covers(length: length)
    }

    /// The transfers failed and gave up: nothing more comes without a new request from a reader.
    var gaveUp: Bool { failure != nil && transfers.isEmpty && failedAttempts >= Self.maxAttempts }

    func isRunning(_ id: Int) -> Bool { transfers.contains { $0.id == id } }

    var status: CacheStatus {
        let length = meta?.length
        if isComplete {
            return CacheStatus(state: superseded ? .stale : .complete, bytes: present.count, length: length)
        }
        if let failure, gaveUp {
            return CacheStatus(state: .error, bytes: present.count, length: length, error: failure.message)
        }
        return CacheStatus(state: present.count > 0 ? .partial : .none, bytes: present.count, length: length)
    }

    // MARK: Readers

    /// A play opens: the answer when it needs no wait (complete), nil when it must wait for the length
    /// (`waitStep` with `.length`). Throws while retired or while a server that could not be reached is
    /// in its backoff; otherwise forgets the last failure (a new play asks again).
    mutating func open(now: Double) throws(MediaError) -> (size: Int64?, seekable: Bool, version: Int)? {
        if isComplete, let meta { return (meta.length, true, version) }
        if retired { throw MediaError(operation: "open", path: url, message: "removed from the cache") }
        let wait = retryAt - now
        if wait > 0, let failure {
            throw MediaError(
                operation: failure.operation, path: url,
                message: failure.message + " (tried again in \(Int(wait.rounded(.up))) s)")
        }
        failedAttempts = 0
        failure = nil
        return nil
    }

    /// What an open that waited for the length answers.
    var opened: (size: Int64?, seekable: Bool, version: Int) {
        (meta?.length, meta?.acceptsRanges ?? false || isComplete, version)
    }

    /// A read of bytes the digest check rejected fails before it waits.
    var rejectedRead: MediaError? {
        rejection.map { MediaError(operation: "read", path: url, message: $0) }
    }

    /// Whether `wait` is over (then `answer` says how), or why it fails: the transfers gave up or the
    /// entry was retired. False: keep waiting.
    func isOver(_ wait: ReaderWait) throws(MediaError) -> Bool {
        if isSatisfied(wait) { return true }
        if let failure, gaveUp { throw failure }
        if retired { throw MediaError(operation: "read", path: url, message: "removed from the cache") }
        return false
    }

    /// How many bytes from the wait's offset are on disk (0: the end), or why its version is gone.
    func answer(_ wait: ReaderWait) throws(MediaError) -> Int64 {
        guard case .bytes(let offset, let openedVersion) = wait.goal else { return 0 }
        if version != openedVersion {
            throw MediaError(
                operation: "read", path: url,
                message: "the file changed on the server while it played; the next play gets the new version")
        }
        return present.contiguous(from: offset)
    }

    /// Whether what `wait` waits for is here (or its version is gone, or it is past the end).
    func isSatisfied(_ wait: ReaderWait) -> Bool {
        switch wait.goal {
        case .length:
            return meta != nil
        case .bytes(let offset, let openedVersion):
            if version != openedVersion { return true }
            if let length = meta?.length, offset >= length { return true }
            let available = present.contiguous(from: offset)
            // After a wait the engine noticed (buffering), go on only with some bytes in hand, so that a
            // download about as fast as the play does not make it stop and start on every read.
            guard wait.noticed, let length = meta?.length else { return available > 0 }
            return available >= min(Self.resumeAhead, length - offset)
        }
    }

    /// One slice of a reader's wait past `isOver`: after the network timeout with no byte, every transfer
    /// is asked again from where it got to (once; a second stall fails the read).
    mutating func checkStall(_ wait: inout ReaderWait, now: Double) throws(MediaError) -> [CacheEntryAction] {
        guard now - lastProgress > timeout else { return [] }
        guard !wait.stalledOnce else {
            throw MediaError(
                operation: "read", path: url, message: "stalled: no data from the server for \(timeout) s")
        }
        wait.stalledOnce = true
        var actions: [CacheEntryAction] = [.log(.warning, "cache: no data for \(timeout) s; asking again")]
        for transfer in transfers { actions.append(.cancelTransfer(id: transfer.id)) }
        transfers = []
        lastProgress = now
        actions += ensureTransfer(covering: wait.offset, now: now)
        return actions
    }

    /// Starts a transfer for `offset` unless a running one will bring it soon: a read within `readAhead`
    /// of a transfer waits for it; further, it gets its own ranged request, the oldest of `maxTransfers`
    /// making room. A server that ignores ranges only sends from the start: the read waits for it.
    mutating func ensureTransfer(covering offset: Int64, now: Double) -> [CacheEntryAction] {
        if let length = meta?.length, offset >= length { return [] }
        if retired { return [] }
        let acceptsRanges = meta?.acceptsRanges ?? true
        if !acceptsRanges, !transfers.isEmpty { return [] }
        if transfers.contains(where: { $0.start <= offset && offset <= $0.position + Self.readAhead }) { return [] }
        if failure != nil, failedAttempts >= Self.maxAttempts { return [] }
        var actions: [CacheEntryAction] = []
        if transfers.count >= Self.maxTransfers, let oldest = transfers.first {
            transfers.removeFirst()
            actions.append(.cancelTransfer(id: oldest.id))
        }
        return actions + start(at: acceptsRanges ? offset : 0, now: now)
    }

    // MARK: Background, retirement

    /// Downloads what is missing in the background (prefetch); `started` false when there is nothing to
    /// do now (complete, retired, or waiting out a backoff).
    mutating func fillInBackground(now: Double) -> (started: Bool, actions: [CacheEntryAction]) {
        guard !retired, !isComplete else { return (false, []) }
        if !transfers.isEmpty { return (true, []) }
        guard now >= retryAt else { return (false, []) }
        failedAttempts = 0
        failure = nil
        if let length = meta?.length, meta?.acceptsRanges == true, let gap = present.firstGap(below: length) {
            return (true, start(at: gap, now: now))
        }
        return (true, start(at: 0, now: now))
    }

    /// Stops for good (replaced or evicted): every transfer is cancelled; `rejection`: the bytes are
    /// known wrong.
    mutating func retire(rejection: String?) -> [CacheEntryAction] {
        retired = true
        if let rejection { self.rejection = rejection }
        let cancelled = transfers.map { CacheEntryAction.cancelTransfer(id: $0.id) }
        transfers = []
        return cancelled
    }

    mutating func markSuperseded() { superseded = true }

    // MARK: Shared steps

    /// Records a new transfer from `start` and asks for it (with If-Range once bytes of a known version
    /// are cached: a changed file then answers 200 with all of the new version).
    mutating func start(at start: Int64, now: Double) -> [CacheEntryAction] {
        let id = nextTransferID
        nextTransferID += 1
        let validator = start > 0 || present.count > 0 ? meta?.etag ?? meta?.lastModified : nil
        transfers.append(Transfer(id: id, start: start, position: start, askedIfUnchanged: validator != nil))
        lastProgress = now
        return [.startTransfer(TransferRequest(id: id, start: start, location: location, ifRange: validator))]
    }

    /// The transfer failed for good (an HTTP error, a refused redirect, the disk): the play fails now, and
    /// neither a later pass nor the prefetcher asks again before a backoff (2 s doubling to 5 min).
    mutating func fail(_ id: Int, _ error: MediaError, now: Double) -> [CacheEntryAction] {
        transfers.removeAll { $0.id == id }
        failure = error
        failedAttempts = Self.maxAttempts
        backoff = nextBackoff
        retryAt = now + backoff
        return [.tell(.error(reason: error.message, retryIn: backoff))] + (transfers.isEmpty ? [.becameIdle] : [])
    }

    var nextBackoff: Double { min(max(backoff * 2, Self.firstBackoff), Self.maxBackoff) }

    /// Progress news at most 4 times a second (`force`: now, e.g. the last bytes arrived).
    mutating func progressNews(force: Bool, now: Double) -> [CacheEntryAction] {
        let elapsed = now - lastNews.at
        guard force || elapsed >= 0.25 else { return [] }
        let rate = elapsed.isFinite && elapsed > 0 ? Double(present.count - lastNews.bytes) / elapsed : 0
        lastNews = (now, present.count)
        return [.tell(.progress(bytes: present.count, length: meta?.length, rate: max(0, rate)))]
    }

    /// Once no transfer runs, fills the holes in the background (and resumes after a cut connection)
    /// from the first missing byte.
    mutating func fillNextGap(now: Double) -> [CacheEntryAction] {
        guard transfers.isEmpty, let length = meta?.length, let gap = present.firstGap(below: length) else { return [] }
        return start(at: meta?.acceptsRanges == true ? gap : 0, now: now)
    }

    /// A transfer ended or stopped: a file now complete is synced and told once; otherwise the next gap
    /// is filled (unless the transfers gave up).
    mutating func afterTransfer(now: Double) -> [CacheEntryAction] {
        var actions: [CacheEntryAction] = []
        if isComplete {
            if !toldComplete {
                toldComplete = true
                actions.append(.syncFiles)
                actions.append(.log(.info, "cache: complete (\(present.count) bytes)"))
                actions += progressNews(force: true, now: now)
                actions.append(.tell(.complete))
            }
        } else if failedAttempts < Self.maxAttempts && !retired {
            actions += fillNextGap(now: now)
        }
        if transfers.isEmpty { actions.append(.becameIdle) }
        return actions
    }
}
