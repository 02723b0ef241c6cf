// One URL's cache: which bytes are on disk, what the server said about the file, and the transfers that
// fill it. Readers (the engine's decode and prefetch threads) wait here for the bytes they need; a read
// far from every running transfer (an MP4's `moov` at the end, a seek) starts a second ranged request
// instead of reading through; when a transfer ends with holes left, the next one fills them, so the file
// completes in the background. A transfer that fails or stalls is retried from where it stopped, with
// `If-Range`, so a file changed on the server restarts cleanly instead of mixing versions.
//
// Threads: readers call `open`/`waitForBytes`/`read`; the HTTP client's event loop calls `accept`,
// `store` and `transferEnded`; disk writes run on `diskQueue`, in arrival order. Fields marked "guarded"
// belong to `condition`; disk I/O and HTTP calls are never made while holding it. Keeping the stored copy
// true (revalidation, digests, the scrub) is in CacheEntry+Upkeep.swift.

import AsyncHTTPClient
import CacheControl
import Foundation
import Logging
import Media
import NIOCore
import NIOHTTP1
import SystemClock

final class CacheEntry: @unchecked Sendable {
    let url: String
    let files: CacheFiles
    let client: HTTPClient
    private let settings: NetworkCache.Settings
    let logger: Logger
    let diskQueue = DispatchQueue(label: "queued.cache.disk")
    let condition = NSCondition()

    /// Guarded. What the server said (nil: nothing yet). Written to disk whenever it changes.
    var meta: CacheMeta?
    /// Guarded. The bytes on disk.
    var present: ByteRanges
    /// Guarded. Running transfers, oldest first (at most `maxTransfers`).
    private var transfers: [HTTPTransfer] = []
    /// Guarded. The URL requests go to (after redirects), and how many redirects led there.
    var location: String
    private var redirects = 0
    /// Guarded. Why the last transfer failed, until one succeeds; failed attempts in a row.
    private var failure: MediaError?
    private var failedAttempts = 0
    /// Guarded. When bytes last arrived (or a transfer started).
    private var lastProgress = Monotonic.now()
    /// Guarded. The server could not be reached: no new attempt before `retryAt` (monotonic); `backoff`
    /// doubles with each such failure in a row (2 s up to 5 min).
    private var retryAt = -Double.infinity
    private var backoff = 0.0
    /// Guarded. When the server last gave or confirmed this version (monotonic; nil: not since start-up).
    var validatedAt: Double?
    var revalidating = false
    /// Guarded. A newer version is being downloaded beside this one (status `stale`).
    var superseded = false
    /// Guarded. Replaced by a newer version or evicted: starts no transfer; reads of missing bytes fail.
    var retired = false
    /// Guarded. Why the bytes must not be played (see `retire`).
    private var rejection: String?
    /// Guarded. This run read the cached pieces back once (`scrubOnce`).
    var scrubbed = false
    /// Guarded. Bumped when the server's file changed under a download and the bytes start over: a
    /// play opened on an older version fails rather than read the new one's bytes.
    private var version = 0
    /// Guarded. Completion was told (once per time the file becomes complete).
    var toldComplete = false
    /// Guarded. When progress news was last given, and the bytes on disk then.
    private var lastNews = (at: -Double.infinity, bytes: Int64(0))
    /// Guarded. News and idleness to tell once the lock is released (see `unlockAndTell`).
    private var pendingNews: [CacheNews] = []
    private var becameIdle = false

    /// Set once by NetworkCache before the entry is used; called outside the lock, in order per entry.
    var news: (@Sendable (CacheNews) -> Void)?
    /// Set once by NetworkCache: no transfer runs any more (complete, or gave up). Called outside the lock.
    var onIdle: (@Sendable () -> Void)?

    static let maxTransfers = 2
    /// A read this far ahead of a running transfer waits for it; further, it gets its own request (256 KiB
    /// is a fifth of a second at 10 Mbit/s: a new request's round trip costs about as much).
    static let readAhead: Int64 = 256 << 10
    /// Bytes a play waits for once it had to wait (about 2 s of a 2 Mbit/s clip).
    static let resumeAhead: Int64 = 512 << 10
    static let maxRedirects = 5
    static let scrubDelay = 1.0
    static let maxAttempts = 4

    init(url: String, files: CacheFiles, client: HTTPClient, settings: NetworkCache.Settings, logger: Logger) {
        self.url = url
        self.files = files
        self.client = client
        self.settings = settings
        self.logger = logger
        location = url
        diskQueue.setSpecific(key: Self.onDiskQueue, value: true)
        let stored = files.readMeta()
        if let stored, stored.url == url {
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
            present = ByteRanges()
        }
    }

    /// Whether every byte is on disk (such an item plays with no network at all).
    var completeLocked: Bool {
        guard let length = meta?.length else { return false }
        return present.covers(length: length)
    }

    /// Releases the lock, then gives the news recorded under it (so observers may call back in).
    func unlockAndTell() {
        let told = pendingNews
        let idle = becameIdle
        pendingNews = []
        becameIdle = false
        condition.unlock()
        if let news { for item in told { news(item) } }
        if idle { onIdle?() }
    }

    // MARK: Status and upkeep (any thread)

    var isComplete: Bool { condition.withLock { completeLocked } }

    func status() -> CacheStatus {
        condition.withLock {
            let length = meta?.length
            if completeLocked {
                return CacheStatus(state: superseded ? .stale : .complete, bytes: present.count, length: length)
            }
            if let failure, transfers.isEmpty, failedAttempts >= Self.maxAttempts {
                return CacheStatus(state: .error, bytes: present.count, length: length, error: failure.message)
            }
            return CacheStatus(state: present.count > 0 ? .partial : .none, bytes: present.count, length: length)
        }
    }

    /// Downloads what is missing in the background (prefetch); false when there is nothing to do now
    /// (complete, retired, or waiting out a backoff).
    func fillInBackground() -> Bool {
        condition.lock()
        defer { unlockAndTell() }
        guard !retired, !completeLocked else { return false }
        if !transfers.isEmpty { return true }
        guard Monotonic.now() >= retryAt else { return false }
        failedAttempts = 0
        failure = nil
        if let length = meta?.length, meta?.acceptsRanges == true, let gap = present.firstGap(below: length) {
            startLocked(at: gap)
        } else {
            startLocked(at: 0)
        }
        return !transfers.isEmpty
    }

    /// Stops for good: a newer version replaced this one, or it was evicted (`removeFiles`: delete it —
    /// done before this returns, after the writes already queued, so a new entry for the same URL made
    /// next never loses its files to this one). `rejection`: the bytes are known wrong (a digest
    /// mismatch): reads fail with this reason, even of bytes on disk.
    func retire(removeFiles: Bool, rejection: String? = nil) {
        condition.withLock {
            retired = true
            if let rejection { self.rejection = rejection }
            for transfer in transfers { cancelLocked(transfer) }
            condition.broadcast()
        }
        guard removeFiles else { return }
        if DispatchQueue.getSpecific(key: Self.onDiskQueue) == true {
            files.remove()
        } else {
            diskQueue.sync { files.remove() }
        }
    }

    /// Marks `diskQueue` (for `retire`, which may be called from it through the cache's idle handling).
    private static let onDiskQueue = DispatchSpecificKey<Bool>()

    func markSuperseded() { condition.withLock { superseded = true } }

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

    // MARK: Readers

    /// Waits until the file's length is known (from the cache or the first response) and returns it with
    /// whether the source can seek and the version its reads must stay on. A complete entry answers at
    /// once, without the network.
    func open(limits: SourceLimits) throws(MediaError) -> (size: Int64?, seekable: Bool, version: Int) {
        condition.lock()
        defer { condition.unlock() }
        if completeLocked, let meta { return (meta.length, true, version) }
        if retired { throw MediaError(operation: "open", path: url, message: "removed from the cache") }
        // A server that could not be reached is tried again once its backoff is over (a later pass).
        let wait = retryAt - Monotonic.now()
        if wait > 0, let failure {
            throw MediaError(
                operation: failure.operation, path: url,
                message: failure.message + " (tried again in \(Int(wait.rounded(.up))) s)")
        }
        failedAttempts = 0
        failure = nil
        try waitLocked(limits: limits) { meta != nil }
        return (meta?.length, meta?.acceptsRanges ?? false || completeLocked, version)
    }

    /// Waits until the byte at `offset` of `openedVersion` is on disk; returns how many bytes from there
    /// are (0: the end).
    func waitForBytes(at offset: Int64, of openedVersion: Int, limits: SourceLimits) throws(MediaError) -> Int64 {
        condition.lock()
        let wait = WaitEpisode()
        defer {
            condition.unlock()
            if wait.noticed { limits.onWaiting?(false) }
        }
        if let rejection { throw MediaError(operation: "read", path: url, message: rejection) }
        var available: Int64 = 0
        try waitLocked(limits: limits, for: offset, episode: wait) {
            if version != openedVersion { return true }
            if let length = meta?.length, offset >= length { return true }
            available = present.contiguous(from: offset)
            // After a wait the engine noticed (buffering), go on only with some bytes in hand, so that a
            // download about as fast as the play does not make it stop and start on every read.
            guard wait.noticed, let length = meta?.length else { return available > 0 }
            return available >= min(Self.resumeAhead, length - offset)
        }
        if version != openedVersion {
            throw MediaError(
                operation: "read", path: url,
                message: "the file changed on the server while it played; the next play gets the new version")
        }
        return available
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(MediaError) -> Int {
        try files.read(into: buffer, at: offset)
    }

    /// Waits (the lock held, released while waiting) until `done`, starting a transfer for `offset` when
    /// none will bring it; fails when the transfers give up, the wait is cancelled, or nothing arrives
    /// for the network timeout.
    private func waitLocked(
        limits: SourceLimits, for offset: Int64 = 0, episode: WaitEpisode? = nil, until done: () -> Bool
    ) throws(MediaError) {
        var stalledOnce = false
        var slices = 0
        while !done() {
            if let failure, transfers.isEmpty, failedAttempts >= Self.maxAttempts { throw failure }
            if retired { throw MediaError(operation: "read", path: url, message: "removed from the cache") }
            if let episode, let onWaiting = limits.onWaiting, slices > 0 {
                // A wait that outlasted one slice is one the listener may hear. Told outside the lock:
                // the engine takes its own lock to note it.
                episode.noticed = true
                condition.unlock()
                onWaiting(true)
                condition.lock()
                if done() { break }
            }
            ensureTransferLocked(covering: offset)
            if limits.isCancelled?() == true {
                throw MediaError(operation: "read", path: url, message: "interrupted")
            }
            if Monotonic.now() - lastProgress > settings.timeout {
                guard !stalledOnce else {
                    throw MediaError(
                        operation: "read", path: url,
                        message: "stalled: no data from the server for \(settings.timeout) s")
                }
                // Start again from where each transfer got to (a new connection may get through).
                stalledOnce = true
                logger.warning("cache: no data for \(settings.timeout) s; asking again", metadata: ["url": "\(url)"])
                for transfer in transfers { cancelLocked(transfer) }
                lastProgress = Monotonic.now()
                ensureTransferLocked(covering: offset)
            }
            _ = condition.wait(until: Date(timeIntervalSinceNow: 0.2))
            slices += 1
        }
    }

    // MARK: Transfers

    /// Starts a transfer for `offset` unless a running one will bring it soon. Called with the lock held;
    /// the request itself is started after the caller releases it (the client's `execute` may run
    /// callbacks that take the lock).
    private func ensureTransferLocked(covering offset: Int64) {
        if let length = meta?.length, offset >= length { return }
        if retired { return }
        let running = transfers
        let acceptsRanges = meta?.acceptsRanges ?? true
        if !acceptsRanges, !running.isEmpty { return }  // the server only sends from the start: wait for it
        if running.contains(where: { $0.start <= offset && offset <= $0.position + Self.readAhead }) { return }
        if failure != nil, failedAttempts >= Self.maxAttempts { return }
        let start = acceptsRanges ? offset : 0
        if running.count >= Self.maxTransfers, let oldest = running.first { cancelLocked(oldest) }
        startLocked(at: start)
    }

    private func startLocked(at start: Int64) {
        let transfer = HTTPTransfer(entry: self, start: start)
        transfers.append(transfer)
        lastProgress = Monotonic.now()
        var headers = HTTPHeaders()
        headers.add(name: "Range", value: "bytes=\(start)-")
        headers.add(name: "Accept-Encoding", value: "identity")
        headers.add(name: "User-Agent", value: "queued")
        if start > 0 || present.count > 0, let validator = meta?.etag ?? meta?.lastModified {
            // A changed file answers 200 with all of the new version instead of a piece of it.
            headers.add(name: "If-Range", value: validator)
            transfer.askedIfUnchanged = true
        }
        let target = location
        let request: HTTPClient.Request
        do {
            request = try HTTPClient.Request(url: target, method: .GET, headers: headers)
        } catch {
            failLocked(transfer, MediaError(operation: "open", path: url, message: "not a usable URL: \(target)"))
            return
        }
        let client = self.client
        // Out of the lock: the client may call back into this entry before `execute` returns.
        DispatchQueue.global().async { [self] in
            let task = client.execute(request: request, delegate: transfer)
            condition.lock()
            transfer.task = task
            let cancelled = transfer.isCancelled
            condition.unlock()
            if cancelled { task.cancel() }
        }
    }

    private func cancelLocked(_ transfer: HTTPTransfer) {
        transfer.isCancelled = true
        transfers.removeAll { $0 === transfer }
        let task = transfer.task
        DispatchQueue.global().async { task?.cancel() }
    }

    /// The transfer failed for good (an HTTP error, a refused redirect, the disk): the play fails now, and
    /// neither a later pass nor the prefetcher asks again before a backoff (2 s doubling to 5 min).
    private func failLocked(_ transfer: HTTPTransfer, _ error: MediaError) {
        transfers.removeAll { $0 === transfer }
        failure = error
        failedAttempts = Self.maxAttempts
        backoff = min(max(backoff * 2, 2), 300)
        retryAt = Monotonic.now() + backoff
        pendingNews.append(.error(reason: error.message, retryIn: backoff))
        becameIdle = transfers.isEmpty
        condition.broadcast()
    }

    // MARK: Transfer callbacks (the HTTP client's event loop)

    /// Takes a response's head; false ends the transfer.
    func accept(_ head: HTTPResponseHead, from transfer: HTTPTransfer) -> Bool {
        condition.lock()
        defer { unlockAndTell() }
        guard !transfer.isCancelled else { return false }
        transfer.answered = true
        if head.status.code == 200 || head.status.code == 206 { validatedAt = Monotonic.now() }
        switch ResponseVerdict.judge(head, requestedStart: transfer.start, cached: meta) {
        case .partial(let length):
            updateMetaLocked(head, length: length ?? meta?.length, acceptsRanges: true)
            return true
        case .whole(let length, let changed):
            // 200 to an If-Range request: the file changed (RFC 9110 13.1.5); without If-Range: the server
            // ignores Range, and sends only from the start from now on.
            if changed || transfer.askedIfUnchanged {
                logger.info("cache: the file changed on the server; fetching it again", metadata: ["url": "\(url)"])
                present = ByteRanges()
                toldComplete = false
                version += 1
                let files = self.files
                diskQueue.async { files.truncate() }
            }
            transfer.position = 0
            updateMetaLocked(
                head, length: length, acceptsRanges: transfer.askedIfUnchanged && meta?.acceptsRanges == true)
            return true
        case .redirect(let target):
            transfers.removeAll { $0 === transfer }
            transfer.isCancelled = true
            guard let next = URL(string: target, relativeTo: URL(string: location))?.absoluteURL,
                let scheme = next.scheme?.lowercased(), scheme == "http" || scheme == "https"
            else {
                failLocked(transfer, MediaError(operation: "open", path: url, message: "redirect to \(target) refused"))
                return false
            }
            redirects += 1
            guard redirects <= Self.maxRedirects else {
                failLocked(transfer, MediaError(operation: "open", path: url, message: "more than 5 redirects"))
                return false
            }
            location = next.absoluteString
            startLocked(at: transfer.start)
            return false
        case .failure(let message):
            failLocked(transfer, MediaError(operation: "open", path: url, message: message))
            return false
        }
    }

    private func updateMetaLocked(_ head: HTTPResponseHead, length: Int64?, acceptsRanges: Bool) {
        var updated = CacheMeta(
            url: url, length: length, etag: head.headers.first(name: "ETag"),
            lastModified: head.headers.first(name: "Last-Modified"), acceptsRanges: acceptsRanges)
        updated.sha256 = meta?.sha256  // the same version keeps its digest
        guard updated != meta else { return }
        if let meta, meta.length != length || meta.etag != updated.etag || meta.lastModified != updated.lastModified {
            updated.sha256 = nil
        }
        meta = updated
        condition.broadcast()
        let files = self.files
        let logger = self.logger
        let written = updated
        diskQueue.async {
            do { try files.writeMeta(written) } catch { logger.warning("cache: \(error)") }
        }
    }

    /// Writes a body part on the disk queue, then records it; `done(false)` ends the transfer (the rest
    /// is already cached, it was cancelled, or the disk failed).
    /// Returns the transfer's bytes waiting for the disk, this part included (its backpressure).
    @discardableResult
    func store(_ bytes: [UInt8], from transfer: HTTPTransfer, done: @escaping @Sendable (Bool) -> Void) -> Int {
        condition.lock()
        let offset = transfer.position
        transfer.position += Int64(bytes.count)
        let cancelled = transfer.isCancelled
        if !cancelled { transfer.queuedBytes += bytes.count }
        let queued = transfer.queuedBytes
        condition.unlock()
        guard !cancelled else {
            done(false)
            return 0
        }
        let files = self.files
        diskQueue.async { [self] in
            var writeError: MediaError?
            bytes.withUnsafeBytes { buffer in
                do throws(MediaError) { try files.write(buffer, at: offset) } catch { writeError = error }
            }
            condition.lock()
            defer { unlockAndTell() }
            transfer.queuedBytes -= bytes.count
            if let writeError {
                logger.error("cache: \(writeError)", metadata: ["url": "\(url)"])
                failLocked(transfer, writeError)
                transfer.isCancelled = true
                return done(false)
            }
            present.insert(offset..<offset + Int64(bytes.count))
            lastProgress = Monotonic.now()
            failure = nil
            failedAttempts = 0
            backoff = 0
            noteProgressLocked(force: false)
            condition.broadcast()
            // Caught up with bytes already here (another transfer's, or kept from before): stop, the next
            // gap gets its own request. What this transfer received past this piece is still written.
            let ahead = present.contiguous(from: offset + Int64(bytes.count))
            if ahead > 0, meta?.acceptsRanges == true, transfers.contains(where: { $0 === transfer }) {
                transfers.removeAll { $0 === transfer }
                transfer.isCancelled = true
                afterTransferLocked()
                return done(false)
            }
            done(true)
        }
        return queued
    }

    /// A transfer ended (error nil: the server sent everything). Runs after its writes (disk queue).
    func transferEnded(_ transfer: HTTPTransfer, error: Error?) {
        diskQueue.async { [self] in
            condition.lock()
            defer { unlockAndTell() }
            let wasRunning = transfers.contains { $0 === transfer }
            transfers.removeAll { $0 === transfer }
            guard wasRunning, !transfer.isCancelled else { return }
            if let error {
                // A server that cannot be reached fails the play now (the client already retried the
                // connection); a transfer cut after it began is resumed from where it stopped.
                failedAttempts = transfer.answered ? failedAttempts + 1 : Self.maxAttempts
                let reason = Self.describe(error)
                failure = MediaError(
                    operation: "read", path: url,
                    message: transfer.answered ? reason : "cannot connect to \(Self.host(of: location)): \(reason)")
                logger.warning(
                    "cache: transfer failed (\(failure!.message)); attempt \(failedAttempts) of \(Self.maxAttempts)",
                    metadata: ["url": "\(url)"])
                var retryIn: Double? = failedAttempts < Self.maxAttempts ? 0 : nil
                if !transfer.answered {
                    backoff = min(max(backoff * 2, 2), 300)
                    retryAt = Monotonic.now() + backoff
                    retryIn = backoff
                }
                pendingNews.append(.error(reason: failure!.message, retryIn: retryIn))
            } else if meta?.length == nil {
                // No declared length: the end of the body is the end of the file.
                if var known = meta {
                    known.length = transfer.position
                    meta = known
                    let files = self.files
                    let ended = known
                    diskQueue.async { try? files.writeMeta(ended) }
                }
            }
            afterTransferLocked()
        }
    }

    /// A transfer ended or stopped: a file now complete is synced and told once; otherwise the next
    /// gap is filled (unless the transfers gave up).
    private func afterTransferLocked() {
        if completeLocked {
            if !toldComplete {
                toldComplete = true
                let files = self.files
                diskQueue.async { files.sync() }
                logger.info("cache: complete", metadata: ["url": "\(url)", "bytes": "\(present.count)"])
                noteProgressLocked(force: true)
                pendingNews.append(.complete)
            }
        } else if failedAttempts < Self.maxAttempts && !retired {
            fillNextGapLocked()
        }
        becameIdle = transfers.isEmpty
        condition.broadcast()
    }

    /// Progress news at most 4 times a second (`force`: now, e.g. the last bytes arrived).
    func noteProgressLocked(force: Bool) {
        let now = Monotonic.now()
        let elapsed = now - lastNews.at
        guard force || elapsed >= 0.25 else { return }
        let rate = elapsed.isFinite && elapsed > 0 ? Double(present.count - lastNews.bytes) / elapsed : 0
        lastNews = (now, present.count)
        pendingNews.append(.progress(bytes: present.count, length: meta?.length, rate: max(0, rate)))
    }

    /// Once no transfer runs, fills the holes in the background (and resumes after a cut connection)
    /// from the first missing byte.
    func fillNextGapLocked() {
        guard transfers.isEmpty, let length = meta?.length, let gap = present.firstGap(below: length) else { return }
        startLocked(at: meta?.acceptsRanges == true ? gap : 0)
    }

    private static func host(of url: String) -> String {
        guard let parsed = URL(string: url), let host = parsed.host else { return url }
        return parsed.port.map { "\(host):\($0)" } ?? host
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

/// One read's wait for bytes: whether it lasted long enough to be told to the engine (buffering).
/// Used by one reader thread, under the entry's lock.
final class WaitEpisode {
    var noticed = false
}
