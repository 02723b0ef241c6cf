// Keeping a CacheEntry's stored copy true: asking the server whether a complete file is still its
// version (conditional HEAD), the file's SHA-256 for items that carry one, and the first-play scrub that
// finds pieces damaged on disk. Same threads and lock rules as CacheEntry.swift.

import AsyncHTTPClient
import Foundation
import Media
import NIOCore
import NIOHTTP1
import SystemClock

extension CacheEntry {
    /// Asks the server whether this complete version is still current — when it was last confirmed more
    /// than `interval` seconds ago (nil: now) — with a conditional HEAD (If-None-Match/If-Modified-Since).
    /// `changed` runs when the server has another version. The current version keeps playing meanwhile.
    func revalidate(every interval: Double?, changed: @escaping @Sendable () -> Void) {
        condition.lock()
        let now = Monotonic.now()
        guard completeLocked, !revalidating, !retired, !superseded, let known = meta,
            interval.map({ interval in validatedAt.map { now - $0 >= interval } ?? true }) ?? true
        else {
            condition.unlock()
            return
        }
        revalidating = true
        let target = location
        condition.unlock()
        var headers = HTTPHeaders()
        headers.add(name: "User-Agent", value: "queued")
        headers.add(name: "Accept-Encoding", value: "identity")
        if let etag = known.etag { headers.add(name: "If-None-Match", value: etag) }
        if let lastModified = known.lastModified { headers.add(name: "If-Modified-Since", value: lastModified) }
        guard let request = try? HTTPClient.Request(url: target, method: .HEAD, headers: headers) else {
            condition.withLock { revalidating = false }
            return
        }
        client.execute(request: request).whenComplete { [self] result in
            condition.lock()
            revalidating = false
            var isChanged = false
            switch result {
            case .success(let response) where response.status.code == 304:
                validatedAt = Monotonic.now()
            case .success(let response) where response.status.code == 200:
                let head = HTTPResponseHead(
                    version: response.version, status: response.status, headers: response.headers)
                if case .whole(_, let differs) = ResponseVerdict.judge(head, requestedStart: 0, cached: known), differs
                {
                    isChanged = true
                } else {
                    validatedAt = Monotonic.now()
                }
            case .success(let response):
                logger.info("cache: revalidation answered \(response.status.code)", metadata: ["url": "\(url)"])
            case .failure(let error):
                logger.info("cache: cannot revalidate (\(Self.describe(error)))", metadata: ["url": "\(url)"])
            }
            condition.unlock()
            if isChanged {
                logger.info(
                    "cache: the file changed on the server; fetching the new version", metadata: ["url": "\(url)"])
                changed()
            }
        }
    }

    // MARK: Integrity

    /// The SHA-256 of the complete file (lowercase hex), computed once per version and kept in its meta;
    /// nil while incomplete or unreadable. The first call reads the whole file: any thread but the
    /// HTTP client's.
    func sha256() -> String? {
        let known = condition.withLock { completeLocked ? meta : nil }
        guard let known, let length = known.length else { return nil }
        if let digest = known.sha256 { return digest }
        let digest: String
        do throws(MediaError) {
            digest = try files.sha256(length: length)
        } catch {
            logger.warning("cache: \(error)", metadata: ["url": "\(url)"])
            return nil
        }
        condition.withLock {
            guard meta == known, var updated = meta else { return }  // a new version meanwhile: not its digest
            updated.sha256 = digest
            meta = updated
            let files = self.files
            let written = updated
            diskQueue.async { try? files.writeMeta(written) }
        }
        return digest
    }

    /// The first time a run plays this entry: reads every cached piece back in the background and drops
    /// the ones whose bytes no longer match their checksum (a damaged disk, a file changed behind our back).
    /// Those bytes are fetched again — before the play reads them when it has not got there yet. Begun a
    /// second after the play opened, so that it does not compete with the play's start for the CPU.
    func scrubOnce() {
        let first = condition.withLock { () -> Bool in
            defer { scrubbed = true }
            return !scrubbed && !retired
        }
        guard first else { return }
        diskQueue.asyncAfter(deadline: .now() + Self.scrubDelay) { [self] in
            // On the disk queue: no write runs meanwhile, so the log and `present` agree.
            let verified = files.verifiedRanges(checkAll: true).kept
            condition.lock()
            defer { unlockAndTell() }
            let kept = present.intersection(verified)
            guard !retired, kept.count < present.count else { return }
            logger.warning(
                "cache: \(present.count - kept.count) cached bytes no longer match their checksum; fetching them again",
                metadata: ["url": "\(url)"])
            present = kept
            toldComplete = false
            if var known = meta, known.sha256 != nil {
                known.sha256 = nil
                meta = known
                let files = self.files
                let written = known
                diskQueue.async { try? files.writeMeta(written) }
            }
            noteProgressLocked(force: true)
            fillNextGapLocked()
            condition.broadcast()
        }
    }
}
