// One HTTP GET of a URL from a byte offset to the end (`Range: bytes=N-`), feeding its CacheEntry. The
// HTTP client (async-http-client) calls it on its event loop; each body part is written to disk on the
// entry's disk queue before the next is asked for (the returned future is the backpressure), so a slow
// disk slows the download instead of filling memory.

import AsyncHTTPClient
import FoundationEssentials
import Glibc
import SystemSupport
import NIOCore
import NIOHTTP1

/// What a response's head means for the entry.
enum ResponseVerdict: Equatable {
    /// 206 for the range asked: bytes follow at `start`; `length` from Content-Range (nil: "*").
    case partial(length: Int64?)
    /// 200: the whole file from byte 0 (`changed`: the server's validators differ from the cached ones, or
    /// If-Range failed, so the cached bytes are another version).
    case whole(length: Int64?, changed: Bool)
    /// 3xx with a Location to follow.
    case redirect(String)
    case failure(String)

    static func judge(_ head: HTTPResponseHead, requestedStart: Int64, cached: CacheMeta?) -> ResponseVerdict {
        let status = head.status.code
        let etag = head.headers.first(name: "ETag")
        let lastModified = head.headers.first(name: "Last-Modified")
        switch status {
        case 206:
            guard let range = head.headers.first(name: "Content-Range"), let parsed = parseContentRange(range),
                parsed.start == requestedStart
            else { return .failure("the server answered a range request with a range that was not asked for") }
            return .partial(length: parsed.length)
        case 200:
            let length = head.headers.first(name: "Content-Length").flatMap { Int64($0) }
            var changed = false
            if let cached {
                if let etag, let old = cached.etag {
                    changed = etag != old
                } else if let lastModified, let old = cached.lastModified {
                    changed = lastModified != old
                } else {
                    changed = requestedStart > 0
                }
                if let length, let old = cached.length, length != old { changed = true }
            }
            return .whole(length: length, changed: changed)
        case 301, 302, 303, 307, 308:
            guard let location = head.headers.first(name: "Location") else {
                return .failure("HTTP \(status) without a Location")
            }
            return .redirect(location)
        default:
            return .failure("HTTP \(status) \(head.status.reasonPhrase)")
        }
    }

    /// "bytes 100-199/2000" → (100, 2000); "bytes 100-199/*" → (100, nil).
    static func parseContentRange(_ value: String) -> (start: Int64, length: Int64?)? {
        let trimmed = value.trimmingSpaces()
        guard trimmed.lowercased().hasPrefix("bytes ") else { return nil }
        let spec = trimmed.dropFirst("bytes ".count)
        let parts = spec.split(separator: "/", maxSplits: 1)
        guard parts.count == 2, let dash = parts[0].firstIndex(of: "-"), let start = Int64(parts[0][..<dash]) else {
            return nil
        }
        return (start, parts[1] == "*" ? nil : Int64(parts[1]))
    }
}

final class HTTPTransfer: HTTPClientResponseDelegate, @unchecked Sendable {
    typealias Response = Void

    /// Its id in the entry's state (`CacheEntryState.transfers`), where its position and progress are.
    let id: Int
    /// The entry asked to cancel it (superseded, stalled, retired): a task attached later is cancelled at
    /// once. Guarded by the entry's lock, like `task`.
    var isCancelled = false
    var task: HTTPClient.Task<Void>?
    static let maxQueuedBytes = 4 << 20
    private weak var entry: CacheEntry?

    init(entry: CacheEntry, id: Int) {
        self.entry = entry
        self.id = id
    }

    func didReceiveHead(task: HTTPClient.Task<Void>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        if entry?.accept(head, from: self) != true { task.cancel() }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Void>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        guard let entry else { return task.eventLoop.makeSucceededVoidFuture() }
        let promise = task.eventLoop.makePromise(of: Void.self)
        let queued = entry.store(Array(buffer.readableBytesView), from: self) { keepGoing in
            if !keepGoing { task.cancel() }
            promise.succeed(())
        }
        // While little waits for the disk, take the next part at once: the client drops parts it holds
        // back when the connection closes, and those would be fetched again after a cut.
        return queued < Self.maxQueuedBytes ? task.eventLoop.makeSucceededVoidFuture() : promise.futureResult
    }

    func didReceiveError(task: HTTPClient.Task<Void>, _ error: Error) {
        entry?.transferEnded(self, error: error)
    }

    func didFinishRequest(task: HTTPClient.Task<Void>) throws {
        entry?.transferEnded(self, error: nil)
    }
}
