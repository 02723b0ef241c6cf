// One URL's cache: which bytes are on disk, what the server said about the file, and the transfers that
// fill it. Readers (the engine's decode and prefetch threads) wait here for the bytes they need; a read
// far from every running transfer (an MP4's `moov` at the end, a seek) starts a second ranged request
// instead of reading through; when a transfer ends with holes left, the next one fills them, so the file
// completes in the background. A transfer that fails or stalls is retried from where it stopped, with
// `If-Range`, so a file changed on the server restarts cleanly instead of mixing versions.
//
// The decisions are CacheEntryState's (a value, tested on its own); this class owns one under `condition`,
// feeds it what happened with the monotonic time, and carries out the actions it returns: HTTP requests,
// cancels, news and idleness once the lock is released; disk work enqueued on `diskQueue` before, so that
// the disk sees it in the order it was decided (an enqueue never waits). Under `condition` nothing else is
// locked or called out to: the reader's `isCancelled` and `onWaiting` (they take the engine's lock) are
// called between wait slices with it released. See the lock-order table in Sources/queued/LockOrder.swift.
//
// Threads: readers call `open`/`waitForBytes`/`read`; the HTTP client's event loop calls `accept`,
// `store` and `transferEnded`; disk writes run on `diskQueue`, in arrival order. Keeping the stored copy
// true (revalidation, digests, the scrub) is in CacheEntry+Upkeep.swift.

import AsyncHTTPClient
import CacheControl
import Dispatch
import FoundationEssentials
import Glibc
import SystemSupport
import Logging
import Media
import NIOCore
import NIOHTTP1
import SystemClock

final class CacheEntry: @unchecked Sendable {
    /// Set at init, then read-only (any thread).
    let url: String
    let files: CacheFiles
    let client: HTTPClient
    let logger: Logger
    /// Disk writes, in the order they were decided; runs `store`'s writes and `transferEnded`.
    let diskQueue = DispatchQueue(label: "queued.cache.disk")
    /// Guards `state` and `handles`; readers wait on it in slices of 0.2 s.
    let condition = ThreadCondition()

    /// Guarded by `condition`. Everything the entry knows and decides.
    var state: CacheEntryState
    /// Guarded by `condition`. The delegates of the state's running transfers, by id (to cancel their tasks).
    private var handles: [Int: HTTPTransfer] = [:]

    /// Set once by NetworkCache before the entry is used; called outside the lock, in order per entry.
    var news: (@Sendable (CacheNews) -> Void)?
    /// Set once by NetworkCache: no transfer runs any more (complete, or gave up). Called outside the lock.
    var onIdle: (@Sendable () -> Void)?

    static let scrubDelay = 1.0
    /// A reader's wait is one slice at a time, so that its cancellation is polled with the lock released.
    static let waitSlice = 0.2

    /// Runs on the thread that opens the URL first (it reads the files back).
    init(url: String, files: CacheFiles, client: HTTPClient, settings: NetworkCache.Settings, logger: Logger) {
        self.url = url
        self.files = files
        self.client = client
        self.logger = logger
        diskQueue.setSpecific(key: Self.onDiskQueue, value: true)
        var meta: CacheMeta?
        var present = ByteRanges()
        if let stored = files.readMeta(), stored.url == url {
            meta = stored
            let verified = files.verifiedRanges()
            present = verified.kept
            if verified.damagedBytes > 0 {
                // Not yet synced when the daemon stopped (a power cut) or damaged on disk since.
                logger.warning(
                    "cache: \(verified.damagedBytes) cached bytes no longer match their checksum; fetching them again",
                    metadata: ["url": "\(url)"])
            }
        } else {
            files.truncate()
        }
        state = CacheEntryState(
            url: url, meta: meta, present: present, timeout: settings.timeout, now: Monotonic.now())
    }

    // MARK: Deciding and carrying out (any thread)

    /// What is left to do once the lock is released.
    private enum Followup {
        case begin(HTTPTransfer, TransferRequest)
        case cancel(HTTPClient.Task<Void>?)
        case log(Logger.Level, String)
        case tell(CacheNews)
        case idle
    }

    /// Takes the lock, lets the state decide, releases the lock and carries out the actions. Any thread.
    @discardableResult
    func decide<Result>(_ decision: (inout CacheEntryState, Double) -> (Result, [CacheEntryAction])) -> Result {
        condition.lock()
        let (result, actions) = decision(&state, Monotonic.now())
        unlockAndCarryOut(actions)
        return result
    }

    /// Called with the lock held: carries out `actions` and releases it.
    func unlockAndCarryOut(_ actions: [CacheEntryAction]) {
        let followups = prepareLocked(actions)
        condition.unlock()
        carryOut(followups)
    }

    /// With the lock held: wakes the readers, enqueues the disk work, and resolves the transfers to start
    /// or cancel (a task attached later sees `isCancelled`). Returns the rest, for after the unlock.
    private func prepareLocked(_ actions: [CacheEntryAction]) -> [Followup] {
        condition.broadcast()
        var followups: [Followup] = []
        for action in actions {
            switch action {
            case .startTransfer(let request):
                let transfer = HTTPTransfer(entry: self, id: request.id)
                handles[request.id] = transfer
                followups.append(.begin(transfer, request))
            case .cancelTransfer(let id):
                guard let transfer = handles.removeValue(forKey: id) else { continue }
                transfer.isCancelled = true
                followups.append(.cancel(transfer.task))
            case .writeMeta(let meta):
                let files = self.files
                let logger = self.logger
                diskQueue.async {
                    do throws(MediaError) { try files.writeMeta(meta) } catch { logger.warning("cache: \(error)") }
                }
            case .truncateFiles:
                let files = self.files
                diskQueue.async { files.truncate() }
            case .syncFiles:
                let files = self.files
                diskQueue.async { files.sync() }
            case .log(let level, let message): followups.append(.log(level, message))
            case .tell(let news): followups.append(.tell(news))
            case .becameIdle: followups.append(.idle)
            }
        }
        // Transfers that ended or failed need no cancel.
        handles = handles.filter { state.isRunning($0.key) }
        return followups
    }

    /// Without the lock: requests, cancels, logs, news, and idleness (told once).
    private func carryOut(_ followups: [Followup]) {
        var idle = false
        for followup in followups {
            switch followup {
            case .begin(let transfer, let request): begin(transfer, request)
            case .cancel(let task): DispatchQueue.global().async { task?.cancel() }
            case .log(let level, let message): logger.log(level: level, "\(message)", metadata: ["url": "\(url)"])
            case .tell(let item): news?(item)
            case .idle: idle = true
            }
        }
        if idle { onIdle?() }
    }

    /// Starts a transfer's GET (without the lock: the client may call back into this entry before
    /// `execute` returns).
    private func begin(_ transfer: HTTPTransfer, _ request: TransferRequest) {
        var headers = HTTPHeaders()
        headers.add(name: "Range", value: "bytes=\(request.start)-")
        headers.add(name: "Accept-Encoding", value: "identity")
        headers.add(name: "User-Agent", value: "queued")
        // A changed file answers 200 with all of the new version instead of a piece of it.
        if let validator = request.ifRange { headers.add(name: "If-Range", value: validator) }
        let built: HTTPClient.Request
        do {
            built = try HTTPClient.Request(url: request.location, method: .GET, headers: headers)
        } catch {
            decide { state, now in
                ((), state.requestRefused(request.id, message: "not a usable URL: \(request.location)", now: now))
            }
            return
        }
        let client = self.client
        DispatchQueue.global().async { [self] in
            let task = client.execute(request: built, delegate: transfer)
            condition.lock()
            transfer.task = task
            let cancelled = transfer.isCancelled
            condition.unlock()
            if cancelled { task.cancel() }
        }
    }

    // MARK: Status and upkeep (any thread)

    var isComplete: Bool { condition.withLock { state.isComplete } }

    func status() -> CacheStatus { condition.withLock { state.status } }

    /// Downloads what is missing in the background (prefetch); false when there is nothing to do now
    /// (complete, retired, or waiting out a backoff).
    func fillInBackground() -> Bool {
        decide { state, now in state.fillInBackground(now: now) }
    }

    /// Stops for good: a newer version replaced this one, or it was evicted (`removeFiles`: delete it —
    /// done before this returns, after the writes already queued, so a new entry for the same URL made
    /// next never loses its files to this one). `rejection`: the bytes are known wrong (a digest
    /// mismatch): reads fail with this reason, even of bytes on disk.
    func retire(removeFiles: Bool, rejection: String? = nil) {
        decide { state, _ in ((), state.retire(rejection: rejection)) }
        guard removeFiles else { return }
        if DispatchQueue.getSpecific(key: Self.onDiskQueue) == true {
            files.remove()
        } else {
            diskQueue.sync { files.remove() }
        }
    }

    /// Marks `diskQueue` (for `retire`, which may be called from it through the cache's idle handling).
    private static let onDiskQueue = DispatchSpecificKey<Bool>()

    /// No transfer runs (a transfer holds the entry weakly, so the cache asks before closing it).
    var hasNoTransfers: Bool { condition.withLock { state.transfers.isEmpty && !state.revalidating } }

    func markSuperseded() { condition.withLock { state.markSuperseded() } }

    /// Marks the entry used now (eviction takes the least recently used first).
    func touch() { files.touch() }

    /// Disk space taken.
    func allocatedBytes() -> Int64 { files.allocatedBytes() }

    /// Moves this (new, complete) version's files over the old version's, after its last write.
    func promote(to key: String, in directory: String, done: @escaping @Sendable (Bool) -> Void) {
        let files = self.files
        let logger = self.logger
        let url = self.url
        diskQueue.async {
            do throws(MediaError) {
                files.sync()
                try files.promote(to: key, in: directory)
                done(true)
            } catch {
                logger.error("cache: \(error)", metadata: ["url": "\(url)"])
                done(false)
            }
        }
    }

    // MARK: Readers (the engine's decode and prefetch threads)

    /// Waits until the file's length is known (from the cache or the first response) and returns it with
    /// whether the source can seek and the version its reads must stay on. A complete entry answers at
    /// once, without the network.
    func open(limits: SourceLimits) throws(MediaError) -> (size: Int64?, seekable: Bool, version: Int) {
        condition.lock()
        defer { condition.unlock() }
        if let answer = try state.open(now: Monotonic.now()) { return answer }
        var wait = ReaderWait(goal: .length)
        try waitLocked(&wait, limits: limits)
        return state.opened
    }

    /// Waits until the byte at `offset` of `openedVersion` is on disk; returns how many bytes from there
    /// are (0: the end).
    func waitForBytes(at offset: Int64, of openedVersion: Int, limits: SourceLimits) throws(MediaError) -> Int64 {
        var wait = ReaderWait(goal: .bytes(at: offset, version: openedVersion))
        defer { if wait.noticed { limits.onWaiting?(false) } }  // after the unlock below
        condition.lock()
        defer { condition.unlock() }
        if let rejected = state.rejectedRead { throw rejected }
        try waitLocked(&wait, limits: limits)
        return try state.answer(wait)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(MediaError) -> Int {
        try files.read(into: buffer, at: offset)
    }

    /// Waits until `wait` is over, starting a transfer for its offset when none will bring it; fails when
    /// the transfers give up, the wait is cancelled, or nothing arrives for the network timeout twice.
    /// Called and returns (also when it throws) with the lock held; releases it for each slice's calls out
    /// (the transfers to start, the engine's `onWaiting` and `isCancelled`, which take the engine's lock).
    private func waitLocked(_ wait: inout ReaderWait, limits: SourceLimits) throws(MediaError) {
        while try !state.isOver(wait) {
            if case .bytes = wait.goal, let onWaiting = limits.onWaiting, wait.slices > 0 {
                // A wait that outlasted one slice is one the listener may hear.
                wait.noticed = true
                condition.unlock()
                onWaiting(true)
                condition.lock()
                if state.isSatisfied(wait) { break }
            }
            unlockAndCarryOut(state.ensureTransfer(covering: wait.offset, now: Monotonic.now()))
            let cancelled = limits.isCancelled?() == true
            condition.lock()
            if cancelled { throw MediaError(operation: "read", path: url, message: "interrupted") }
            let restarted = try state.checkStall(&wait, now: Monotonic.now())
            if !restarted.isEmpty {
                unlockAndCarryOut(restarted)
                condition.lock()
            }
            if try !state.isOver(wait) { _ = condition.wait(seconds: Self.waitSlice) }
            wait.slices += 1
        }
    }

    // MARK: Transfer callbacks (the HTTP client's event loop; `store`'s second half and `transferEnded` on
    // the disk queue)

    /// Takes a response's head; false ends the transfer.
    func accept(_ head: HTTPResponseHead, from transfer: HTTPTransfer) -> Bool {
        decide { state, now in state.accept(head, from: transfer.id, now: now) }
    }

    /// Writes a body part on the disk queue, then records it; `done(false)` ends the transfer (the rest
    /// is already cached, it was cancelled, or the disk failed).
    /// Returns the transfer's bytes waiting for the disk, this part included (its backpressure).
    @discardableResult
    func store(_ bytes: [UInt8], from transfer: HTTPTransfer, done: @escaping @Sendable (Bool) -> Void) -> Int {
        let receipt = condition.withLock { state.receive(bytes.count, from: transfer.id) }
        guard let receipt else {
            done(false)
            return 0
        }
        let files = self.files
        diskQueue.async { [self] in
            var writeError: MediaError?
            bytes.withUnsafeBytes { buffer in
                do throws(MediaError) { try files.write(buffer, at: receipt.offset) } catch { writeError = error }
            }
            condition.lock()
            let (keepGoing, actions) = state.written(
                receipt.offset..<receipt.offset + Int64(bytes.count), from: transfer.id, error: writeError,
                now: Monotonic.now())
            let followups = prepareLocked(actions)
            condition.unlock()
            done(keepGoing)  // the next part is asked for before idleness is handled
            carryOut(followups)
        }
        return receipt.queuedBytes
    }

    /// A transfer ended (error nil: the server sent everything). Runs after its writes (disk queue).
    func transferEnded(_ transfer: HTTPTransfer, error: Error?) {
        let reason = error.map(Self.describe)
        diskQueue.async { [self] in
            decide { state, now in ((), state.ended(transfer.id, failure: reason, now: now)) }
        }
    }

    static func describe(_ error: Error) -> String {
        if let client = error as? HTTPClientError {
            switch client {
            case .readTimeout: return "stalled: no data from the server"
            case .connectTimeout: return "timed out"
            case .remoteConnectionClosed: return "the server closed the connection"
            default: break
            }
        }
        let text = String(describing: error)
        if text.contains("connectionRefused") || text.contains("Connection refused") { return "refused" }
        return text
    }
}
