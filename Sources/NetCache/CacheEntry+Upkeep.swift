// Keeping a CacheEntry's stored copy true: asking the server whether a complete file is still its
// version (conditional HEAD), the file's SHA-256 for items that carry one, and the first-play scrub that
// finds pieces damaged on disk. What to do is CacheEntryState's (CacheEntryState+Upkeep.swift); the
// threads and lock rules are CacheEntry.swift's.

import AsyncHTTPClient
import Dispatch
import FoundationEssentials
import Glibc
import SystemSupport
import Media
import NIOCore
import NIOHTTP1
import SystemClock

extension CacheEntry {
    /// Asks the server whether this complete version is still current — when it was last confirmed more
    /// than `interval` seconds ago (nil: now) — with a conditional HEAD (If-None-Match/If-Modified-Since).
    /// `changed` runs when the server has another version. The current version keeps playing meanwhile.
    func revalidate(every interval: Double?, changed: @escaping @Sendable () -> Void) {
        let asked = condition.withLock { state.beginRevalidation(every: interval, now: Monotonic.now()) }
        guard let (known, target) = asked else { return }
        var headers = HTTPHeaders()
        headers.add(name: "User-Agent", value: "queued")
        headers.add(name: "Accept-Encoding", value: "identity")
        if let etag = known.etag { headers.add(name: "If-None-Match", value: etag) }
        if let lastModified = known.lastModified { headers.add(name: "If-Modified-Since", value: lastModified) }
        guard let request = try? HTTPClient.Request(url: target, method: .HEAD, headers: headers) else {
            condition.withLock { state.endRevalidation(confirmed: nil, now: Monotonic.now()) }
            return
        }
        client.execute(request: request).whenComplete { [self] result in
            // The HTTP client's event loop.
            var confirmed: Bool?
            switch result {
            case .success(let response) where response.status.code == 304:
                confirmed = true
            case .success(let response) where response.status.code == 200:
                let head = HTTPResponseHead(
                    version: response.version, status: response.status, headers: response.headers)
                if case .whole(_, let differs) = ResponseVerdict.judge(head, requestedStart: 0, cached: known) {
                    confirmed = !differs
                } else {
                    confirmed = true
                }
            case .success(let response):
                logger.info("cache: revalidation answered \(response.status.code)", metadata: ["url": "\(url)"])
            case .failure(let error):
                logger.info("cache: cannot revalidate (\(Self.describe(error)))", metadata: ["url": "\(url)"])
            }
            condition.withLock { state.endRevalidation(confirmed: confirmed, now: Monotonic.now()) }
            if confirmed == false {
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
    /// The digest if `sha256()` has computed it already (cheap: never reads the file).
    var knownSHA256: String? { condition.withLock { state.completeMeta?.sha256 } }

    func sha256() -> String? {
        let known = condition.withLock { state.completeMeta }
        guard let known, let length = known.length else { return nil }
        if let digest = known.sha256 { return digest }
        let digest: String
        do throws(MediaError) {
            digest = try files.sha256(length: length)
        } catch {
            logger.warning("cache: \(error)", metadata: ["url": "\(url)"])
            return nil
        }
        decide { state, _ in ((), state.recordDigest(digest, of: known)) }
        return digest
    }

    /// The first time a run plays this entry: reads every cached piece back in the background and drops
    /// the ones whose bytes no longer match their checksum (a damaged disk, a file changed behind our back).
    /// Those bytes are fetched again — before the play reads them when it has not got there yet. Begun a
    /// second after the play opened, so that it does not compete with the play's start for the CPU.
    func scrubOnce() {
        let first = condition.withLock { state.beginScrub() }
        guard first else { return }
        diskQueue.asyncAfter(deadline: .now() + Self.scrubDelay) { [self] in
            // On the disk queue: no write runs meanwhile, so the log and the state's `present` agree.
            let verified = files.verifiedRanges(checkAll: true).kept
            decide { state, now in ((), state.endScrub(verified: verified, now: now)) }
        }
    }
}
