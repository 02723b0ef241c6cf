// What a transfer's callbacks decide (CacheEntry carries it out): a response head (a piece, the whole
// file, a changed file, a redirect, an error), body bytes on their way to the disk and written, the end.
// A transfer no longer in `transfers` is stopped: its answer is refused and its bytes and end are ignored.

import CacheControl
import FoundationEssentials
import Glibc
import SystemSupport
import Media
import NIOHTTP1

extension CacheEntryState {
    /// Takes a response's head; `keepGoing` false ends the transfer (its task is cancelled).
    mutating func accept(
        _ head: HTTPResponseHead, from id: Int, now: Double
    ) -> (keepGoing: Bool, actions: [CacheEntryAction]) {
        guard let index = transfers.firstIndex(where: { $0.id == id }) else { return (false, []) }
        transfers[index].answered = true
        let transfer = transfers[index]
        if head.status.code == 200 || head.status.code == 206 { validatedAt = now }
        switch ResponseVerdict.judge(head, requestedStart: transfer.start, cached: meta) {
        case .partial(let length):
            return (true, updateMeta(head, length: length ?? meta?.length, acceptsRanges: true))
        case .whole(let length, let changed):
            // 200 to an If-Range request: the file changed (RFC 9110 13.1.5); without If-Range: the server
            // ignores Range, and sends only from the start from now on.
            var actions: [CacheEntryAction] = []
            if changed || transfer.askedIfUnchanged {
                actions += [.log(.info, "cache: the file changed on the server; fetching it again"), .truncateFiles]
                present = ByteRanges()
                toldComplete = false
                version += 1
            }
            transfers[index].position = 0
            actions += updateMeta(
                head, length: length, acceptsRanges: transfer.askedIfUnchanged && meta?.acceptsRanges == true)
            return (true, actions)
        case .redirect(let target):
            transfers.remove(at: index)
            guard let next = URL(string: target, relativeTo: URL(string: location))?.absoluteURL,
                let scheme = next.scheme?.lowercased(), scheme == "http" || scheme == "https"
            else {
                return (false, fail(id, MediaError(operation: "open", path: url, message: "redirect to \(target) refused"), now: now))
            }
            redirects += 1
            guard redirects <= Self.maxRedirects else {
                return (false, fail(id, MediaError(operation: "open", path: url, message: "more than 5 redirects"), now: now))
            }
            location = next.absoluteString
            return (false, start(at: transfer.start, now: now))
        case .failure(let message):
            return (false, fail(id, MediaError(operation: "open", path: url, message: message), now: now))
        }
    }

    /// The server's validators and length as this head gives them; written when they changed (a new
    /// version loses the digest of the old).
    private mutating func updateMeta(_ head: HTTPResponseHead, length: Int64?, acceptsRanges: Bool) -> [CacheEntryAction] {
        var updated = CacheMeta(
            url: url, length: length, etag: head.headers.first(name: "ETag"),
            lastModified: head.headers.first(name: "Last-Modified"), acceptsRanges: acceptsRanges)
        updated.sha256 = meta?.sha256  // the same version keeps its digest
        guard updated != meta else { return [] }
        if let meta, meta.length != length || meta.etag != updated.etag || meta.lastModified != updated.lastModified {
            updated.sha256 = nil
        }
        meta = updated
        return [.writeMeta(updated)]
    }

    /// `count` body bytes arrived: where they go in the file and how many of the transfer's bytes wait for
    /// the disk, this part included (nil: the transfer is stopped, drop them).
    mutating func receive(_ count: Int, from id: Int) -> (offset: Int64, queuedBytes: Int)? {
        guard let index = transfers.firstIndex(where: { $0.id == id }) else { return nil }
        let offset = transfers[index].position
        transfers[index].position += Int64(count)
        transfers[index].queuedBytes += count
        return (offset, transfers[index].queuedBytes)
    }

    /// Bytes of the transfer reached the disk at `range` (`error`: the write failed, which fails the
    /// transfer). `keepGoing` false ends it: the disk failed, or it caught up with bytes already here
    /// (another transfer's, or kept from before) and the next gap gets its own request.
    mutating func written(
        _ range: Range<Int64>, from id: Int, error: MediaError?, now: Double
    ) -> (keepGoing: Bool, actions: [CacheEntryAction]) {
        if let index = transfers.firstIndex(where: { $0.id == id }) { transfers[index].queuedBytes -= range.count }
        if let error { return (false, [.log(.error, "cache: \(error)")] + fail(id, error, now: now)) }
        present.insert(range)
        lastProgress = now
        failure = nil
        failedAttempts = 0
        backoff = 0
        let actions = progressNews(force: false, now: now)
        let ahead = present.contiguous(from: range.upperBound)
        if ahead > 0, meta?.acceptsRanges == true, isRunning(id) {
            transfers.removeAll { $0.id == id }
            return (false, actions + afterTransfer(now: now))
        }
        return (true, actions)
    }

    /// A transfer ended after its writes (`failure`: why it failed, described; nil: the server sent
    /// everything). A server that cannot be reached fails the play now and backs off (the client already
    /// retried the connection); a transfer cut after it began is resumed from where it stopped, up to
    /// `maxAttempts` in a row.
    mutating func ended(_ id: Int, failure reason: String?, now: Double) -> [CacheEntryAction] {
        guard let index = transfers.firstIndex(where: { $0.id == id }) else { return [] }
        let transfer = transfers.remove(at: index)
        var actions: [CacheEntryAction] = []
        if let reason {
            failedAttempts = transfer.answered ? failedAttempts + 1 : Self.maxAttempts
            let message = transfer.answered ? reason : "cannot connect to \(Self.host(of: location)): \(reason)"
            failure = MediaError(operation: "read", path: url, message: message)
            actions.append(
                .log(.warning, "cache: transfer failed (\(message)); attempt \(failedAttempts) of \(Self.maxAttempts)"))
            var retryIn: Double? = failedAttempts < Self.maxAttempts ? 0 : nil
            if !transfer.answered {
                backoff = nextBackoff
                retryAt = now + backoff
                retryIn = backoff
            }
            actions.append(.tell(.error(reason: message, retryIn: retryIn)))
        } else if meta?.length == nil, var known = meta {
            // No declared length: the end of the body is the end of the file.
            known.length = transfer.position
            meta = known
            actions.append(.writeMeta(known))
        }
        return actions + afterTransfer(now: now)
    }

    /// The owner could not make the transfer's request (`message`: why): it fails like an HTTP error.
    mutating func requestRefused(_ id: Int, message: String, now: Double) -> [CacheEntryAction] {
        fail(id, MediaError(operation: "open", path: url, message: message), now: now)
    }

    static func host(of url: String) -> String {
        guard let parsed = URL(string: url), let host = parsed.host else { return url }
        return parsed.port.map { "\(host):\($0)" } ?? host
    }
}
