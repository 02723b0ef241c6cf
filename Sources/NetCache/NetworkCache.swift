// The daemon's network items: one HTTP client, one cache directory, one CacheEntry per URL. The engine
// asks it for a ByteSource when an item's URI is http(s); FFmpeg then reads the cached bytes through
// AVIOBridge and never sees the URL. Thread-safe: `entries` is guarded by `lock`.
import AsyncHTTPClient
import Foundation
import Logging
import Media
import NIOCore

public final class NetworkCache: ByteSourceProvider, @unchecked Sendable {
    public struct Settings: Sendable {
        /// Where the cached files live (created 0700 when missing).
        public var directory: String
        /// No byte for this long: the transfer is asked again from where it stopped, then the read fails.
        public var timeout: Double = 15
        public init(directory: String) { self.directory = directory }
    }

    public let settings: Settings
    private let client: HTTPClient
    private let logger: Logger
    private let lock = NSLock()
    /// Guarded. Entries opened so far, by URL.
    private var entries: [String: CacheEntry] = [:]

    public init(settings: Settings, logger: Logger) throws(MediaError) {
        self.settings = settings
        self.logger = logger
        do {
            try FileManager.default.createDirectory(
                atPath: settings.directory, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        } catch {
            throw MediaError(operation: "create the cache", path: settings.directory, message: "\(error)")
        }
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,  // followed by CacheEntry: http(s) only, at most 5
            // The client retries a refused connection until its connect timeout: a few seconds, so that a dead
            // server fails its item before the engine takes the wait for a stall.
            timeout: .init(connect: .seconds(3), read: .seconds(Int64(settings.timeout))),
            decompression: .disabled)
        configuration.httpVersion = .http1Only
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    deinit {
        try? client.syncShutdown()
    }

    public func source(for uri: String, limits: SourceLimits) throws(MediaError) -> ByteSource {
        let entry = try self.entry(for: uri)
        let (size, seekable) = try entry.open(limits: limits)
        return CachingByteSource(entry: entry, size: size, isSeekable: seekable, limits: limits)
    }

    /// The entry of `uri`, made on first use. Making one reads its files back (the ranges are verified
    /// against the data), so that happens outside the lock; a racing second one is dropped.
    private func entry(for uri: String) throws(MediaError) -> CacheEntry {
        if let entry = lock.withLock({ entries[uri] }) { return entry }
        let files = try CacheFiles(directory: settings.directory, key: CacheFiles.key(for: uri))
        let made = CacheEntry(url: uri, files: files, client: client, settings: settings, logger: logger)
        return lock.withLock {
            if let first = entries[uri] { return first }
            entries[uri] = made
            return made
        }
    }
}

/// One play's view of a cached URL: a position, reads that wait for the bytes.
final class CachingByteSource: ByteSource {
    private let entry: CacheEntry
    let size: Int64?
    let isSeekable: Bool
    private let limits: SourceLimits
    private var position: Int64 = 0

    init(entry: CacheEntry, size: Int64?, isSeekable: Bool, limits: SourceLimits) {
        self.entry = entry
        self.size = size
        self.isSeekable = isSeekable
        self.limits = limits
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(MediaError) -> Int {
        let available = try entry.waitForBytes(at: position, limits: limits)
        guard available > 0 else { return 0 }
        let wanted = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<min(buffer.count, Int(available))])
        let count = try entry.read(into: wanted, at: position)
        position += Int64(count)
        return count
    }

    func seek(to offset: Int64) throws(MediaError) {
        position = offset
    }
}
