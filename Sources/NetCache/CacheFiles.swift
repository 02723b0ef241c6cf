// One cached URL on disk, three files named by a hash of the URL:
//   <key>.data    the bytes, sparse: each arrives at its own offset (pwrite), holes stay unwritten;
//   <key>.ranges  an append-only log, one line per piece written: "<offset> <length> <crc32 hex>";
//   <key>.meta    the URL, its length and validators (ETag, Last-Modified), replaced atomically.
// A piece counts only once its line is in the log, and a line after the log's last "synced" line counts
// only if the bytes it names still have its checksum: after kill -9 (the page cache survives) nothing
// received is fetched again; after a power cut, lines whose bytes did not reach the disk are dropped, so
// what comes back is never wrong — at most the bytes since the last sync (every `syncEvery` bytes) are
// fetched again. Lines before a "synced" line name bytes that were fdatasynced before it was written,
// so they are not read back: opening a complete file after a restart costs no pass over its data.
// Used by one CacheEntry, on its disk queue (writes) and by readers (pread, thread-safe).

import CZlib
import Crypto
import FoundationEssentials
import SystemSupport
import Glibc
import Media

/// What the server said about the file: enough to ask for the rest of the same version.
public struct CacheMeta: Codable, Sendable, Equatable {
    public var url: String
    public var length: Int64?
    public var etag: String?
    public var lastModified: String?
    /// The server answered a Range request with 206 (seeks and resumes can ask for pieces).
    public var acceptsRanges: Bool
    /// SHA-256 of the complete file (lowercase hex), once something asked for it; nil until then.
    public var sha256: String? = nil
}

final class CacheFiles: @unchecked Sendable {
    /// Set at init; changed only by `promote` (the entry's disk queue, after its last write).
    private(set) var dataPath: String
    private var rangesPath: String
    private var metaPath: String
    private let data: Int32
    private let rangesLog: Int32
    /// Bytes written since the last fdatasync (disk queue only).
    private var unsynced = 0
    private let syncEvery = 1 << 20

    /// Opens (or creates) the files of `key` in `directory`.
    init(directory: String, key: String) throws(MediaError) {
        dataPath = directory + "/" + key + ".data"
        rangesPath = directory + "/" + key + ".ranges"
        metaPath = directory + "/" + key + ".meta"
        data = open(dataPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard data >= 0 else {
            throw MediaError(operation: "open the cache", path: dataPath, message: String(cString: strerror(errno)))
        }
        rangesLog = open(rangesPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard rangesLog >= 0 else {
            let message = String(cString: strerror(errno))
            close(data)
            throw MediaError(operation: "open the cache", path: rangesPath, message: message)
        }
    }

    deinit {
        close(data)
        close(rangesLog)
    }

    // MARK: Reading back (at start-up)

    func readMeta() -> CacheMeta? {
        guard let bytes = FileManager.default.contents(atPath: metaPath) else { return nil }
        return try? JSONDecoder().decode(CacheMeta.self, from: bytes)
    }

    /// The pieces the log names that are known synced, or whose bytes still match their checksum
    /// (`checkAll`: every piece is read back and checked, synced or not — the scrub of a damaged file).
    /// A piece past the data file's end is never counted (the file was cut short behind our back).
    /// `damagedBytes`: how many bytes the log names whose checksum no longer matches.
    func verifiedRanges(checkAll: Bool = false) -> (kept: ByteRanges, damagedBytes: Int) {
        guard let log = FileManager.default.contents(atPath: rangesPath) else { return (ByteRanges(), 0) }
        let lines = log.split(separator: 0x0A)
        let lastSynced = checkAll ? -1 : lines.lastIndex { $0.elementsEqual(Self.syncedLine.utf8.dropLast()) } ?? -1
        var info = stat()
        let dataSize = fstat(data, &info) == 0 ? Int64(info.st_size) : 0
        var ranges = ByteRanges()
        var damagedBytes = 0
        for (number, line) in lines.enumerated() {
            let fields = String(decoding: line, as: UTF8.self).split(separator: " ")
            guard fields.count == 3, let offset = Int64(fields[0]), let length = Int(fields[1]),
                let sum = UInt32(fields[2], radix: 16), offset >= 0, length > 0, length <= 1 << 26,
                offset + Int64(length) <= dataSize
            else { continue }
            if number < lastSynced {
                ranges.insert(offset..<offset + Int64(length))
                continue
            }
            var buffer = [UInt8](repeating: 0, count: length)
            let read = buffer.withUnsafeMutableBytes { pread(data, $0.baseAddress, length, off_t(offset)) }
            guard read == length, Self.checksum(buffer) == sum else {
                damagedBytes += length
                continue
            }
            ranges.insert(offset..<offset + Int64(length))
        }
        return (ranges, damagedBytes)
    }

    // MARK: Writing (the entry's disk queue)

    func writeMeta(_ meta: CacheMeta) throws(MediaError) {
        guard let bytes = try? JSONEncoder().encode(meta) else { return }
        let temporary = metaPath + ".tmp"
        guard
            FileManager.default.createFile(atPath: temporary, contents: bytes, attributes: [.posixPermissions: 0o600]),
            rename(temporary, metaPath) == 0
        else {
            throw MediaError(operation: "write the cache", path: metaPath, message: String(cString: strerror(errno)))
        }
    }

    /// Writes a piece at `offset` and logs it; syncs data then log every `syncEvery` bytes.
    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(MediaError) {
        var done = 0
        while done < bytes.count {
            let written = pwrite(data, bytes.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done))
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else {
                throw MediaError(
                    operation: "write the cache", path: dataPath, message: String(cString: strerror(errno)))
            }
            done += written
        }
        let line = "\(offset) \(bytes.count) \(String(Self.checksum(bytes), radix: 16))\n"
        let logged = line.withCString { Glibc.write(rangesLog, $0, strlen($0)) }
        guard logged == line.utf8.count else {
            throw MediaError(operation: "write the cache", path: rangesPath, message: String(cString: strerror(errno)))
        }
        unsynced += bytes.count
        if unsynced >= syncEvery { sync() }
    }

    /// Makes everything logged so far durable, and says so in the log (see `verifiedRanges`).
    func sync() {
        guard fdatasync(data) == 0 else { return }
        let written = Self.syncedLine.withCString { Glibc.write(rangesLog, $0, strlen($0)) }
        fdatasync(rangesLog)
        if written > 0 { unsynced = 0 }
    }

    private static let syncedLine = "synced\n"

    /// Forgets every byte (the file changed on the server): the data and the log start empty.
    func truncate() {
        ftruncate(data, 0)
        ftruncate(rangesLog, 0)
    }

    /// Makes these files (a new version, downloaded beside the old one) the files of `key`. The old meta
    /// goes first, so a crash part way leaves no entry at all (fetched again) rather than a mix of versions;
    /// readers of the old version keep their open descriptors and read it to the end.
    func promote(to key: String, in directory: String) throws(MediaError) {
        let target = (
            directory + "/" + key + ".data", directory + "/" + key + ".ranges", directory + "/" + key + ".meta"
        )
        unlink(target.2)
        guard rename(dataPath, target.0) == 0, rename(rangesPath, target.1) == 0, rename(metaPath, target.2) == 0 else {
            throw MediaError(
                operation: "replace the cached file", path: target.0, message: String(cString: strerror(errno)))
        }
        (dataPath, rangesPath, metaPath) = target
    }

    /// Deletes the files (eviction); open descriptors keep working until this object goes.
    func remove() {
        unlink(metaPath)
        unlink(rangesPath)
        unlink(dataPath)
    }

    /// Disk space the data takes (a sparse file counts only what was written).
    func allocatedBytes() -> Int64 {
        var info = stat()
        guard fstat(data, &info) == 0 else { return 0 }
        return Int64(info.st_blocks) * 512
    }

    /// Marks the entry used now (its meta file's time orders eviction, least recently used first).
    func touch() {
        utimensat(AT_FDCWD, metaPath, nil, 0)
    }

    /// Reads cached bytes (the caller knows they are present).
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(MediaError) -> Int {
        while true {
            let count = pread(data, buffer.baseAddress, buffer.count, off_t(offset))
            if count >= 0 { return count }
            if errno == EINTR { continue }
            throw MediaError(operation: "read the cache", path: dataPath, message: String(cString: strerror(errno)))
        }
    }

    /// SHA-256 of the first `length` bytes (lowercase hex), read in 1 MiB pieces.
    func sha256(length: Int64) throws(MediaError) -> String {
        var hasher = SHA256()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var offset: Int64 = 0
        while offset < length {
            let wanted = Int(min(Int64(buffer.count), length - offset))
            let count = buffer.withUnsafeMutableBytes { bytes in
                pread(data, bytes.baseAddress, wanted, off_t(offset))
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                let reason = count < 0 ? String(cString: strerror(errno)) : "shorter than its length"
                throw MediaError(operation: "read the cache", path: dataPath, message: reason)
            }
            buffer.withUnsafeBytes { hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            offset += Int64(count)
        }
        return hasher.finalize().hexDigits
    }

    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        UInt32(crc32(0, bytes.bindMemory(to: UInt8.self).baseAddress, uInt(bytes.count)))
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0) }
    }

    /// The file name stem for `url`: 64-bit FNV-1a, hex (the meta file holds the URL, so a collision is
    /// seen as a different URL and the entry is started again rather than served).
    static func key(for url: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in url.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
