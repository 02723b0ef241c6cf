// The proof-of-play log: records kept until a consumer (the fleet bridge) says the broker has them
// (`plays.ack`), so a broker outage, a bridge restart or a power cut loses none. In the state directory:
// `plays.jsonl` (one record per line, appended and fsync'd before the record is visible to anyone) and
// `plays.meta` (the next seq, how far records were acknowledged, how many fell off the cap), replaced
// atomically. A torn last line (power cut mid-append) is skipped; a seq is never handed out twice, even
// after every record was acknowledged and the file compacted away. Over its cap (count or bytes) the
// oldest records fall off and are counted.
// In memory each kept record is its seq and where its line is in `plays.jsonl` (24 bytes, so 10,000 kept
// records cost ~250 KiB, not the ~3 MiB their text would); `list` reads the lines back from the file.
// Without a state directory the lines themselves are kept (256 at most).
// Threads: `append` and the file work run on the owner's one recording queue; `list`, `ack` and `summary`
// from any thread read and change the in-memory index under `lock` (no I/O under it: `list` takes the
// open file and the places under the lock and reads after it).

import FoundationEssentials
import Glibc
import SystemSupport
import JSONText

public final class PlayLogStore: PlayLogControl, @unchecked Sendable {
    /// A screen nobody collects from keeps its newest records up to these (a week of one-minute plays);
    /// in memory only (no state directory: nothing survives a restart anyway), the newest 256.
    public struct Limits: Sendable {
        public var records = 10_000
        public var bytes = 8 << 20
        public init() {}

        public static let inMemory: Limits = {
            var limits = Limits()
            limits.records = 256
            return limits
        }()
    }

    public struct Summary: Sendable, Equatable {
        /// The seq the next record gets.
        public var nextSeq: Int64
        /// Records up to this seq were acknowledged (or fell off): they are gone.
        public var ackedThrough: Int64
        /// Records that fell off the cap before anyone acknowledged them, ever.
        public var dropped: Int64
        /// Records kept now.
        public var count: Int
    }

    /// A kept record: where its JSON text is (parsed again only when listed).
    private struct Kept {
        enum Text {
            /// In memory only (no state directory).
            case line([UInt8])
            /// In `plays.jsonl`, as the current `LogFile` sees it.
            case file(offset: Int64, length: Int)
        }
        let seq: Int64
        let text: Text
        var bytes: Int {
            switch text {
            case .line(let line): line.count
            case .file(_, let length): length
            }
        }
    }

    /// `plays.jsonl` open for reading; replaced (with every kept offset) when the file is compacted, while a
    /// reader that took the old one still reads the old, renamed-over file. Closed when the last user lets go.
    private final class LogFile: Sendable {
        let descriptor: Int32
        init?(path: String) {
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return nil }
        }
        deinit { close(descriptor) }

        func read(offset: Int64, length: Int) -> [UInt8]? {
            var bytes = [UInt8](repeating: 0, count: length)
            let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, length, off_t(offset)) }
            return count == length ? bytes : nil
        }
    }

    /// nil: in memory only (no state directory).
    private let directory: String?
    private let limits: Limits
    private let lock = ThreadLock()
    /// Guarded by `lock`.
    private var kept: [Kept] = []
    private var keptBytes = 0
    private var nextSeq: Int64 = 1
    private var ackedThrough: Int64 = 0
    private var dropped: Int64 = 0
    /// Guarded by `lock`: where `.file` texts are read from (nil until the file exists).
    private var logFile: LogFile?
    /// Recording queue only: the length of `plays.jsonl`, where the next line goes.
    private var fileSize: Int64 = 0
    /// Recording queue only: lines in `plays.jsonl` (kept or not), to know when to compact.
    private var fileLines = 0
    /// Recording queue only: the file ends in a torn line (see init).
    private var tornTail = false
    /// Recording queue only: how far acknowledgements and drops were last written to `plays.meta`.
    private var writtenMeta: (ackedThrough: Int64, dropped: Int64) = (0, 0)

    private var logPath: String? { directory.map { $0 + "/plays.jsonl" } }
    private var metaPath: String? { directory.map { $0 + "/plays.meta" } }

    /// Opens the log in `directory` (created if missing), reading what a previous run left. A damaged
    /// file never stops this: unreadable lines are skipped, an unreadable meta counts from the records.
    public init(directory: String?, limits: Limits? = nil) {
        self.directory = directory
        self.limits = limits ?? (directory == nil ? .inMemory : Limits())
        guard let directory else { return }
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { writtenMeta = (ackedThrough, dropped) }
        if let meta = metaPath.flatMap({ FileManager.default.contents(atPath: $0) }),
            let value = try? JSON.parse([UInt8](meta))
        {
            nextSeq = max(1, value["nextSeq"]?.intValue ?? 1)
            ackedThrough = max(0, value["ackedThrough"]?.intValue ?? 0)
            dropped = max(0, value["dropped"]?.intValue ?? 0)
        }
        if let logPath, let data = FileManager.default.contents(atPath: logPath) {
            // A power cut mid-append leaves a torn last line: the next record starts on a line of its own.
            tornTail = data.last.map { $0 != UInt8(ascii: "\n") } ?? false
            fileSize = Int64(data.count)
            let bytes = [UInt8](data)
            var start = 0
            while start < bytes.count {
                let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
                defer { start = end + 1 }
                guard end > start else { continue }
                fileLines += 1
                guard let value = try? JSON.parse(bytes[start..<end]), let seq = value["seq"]?.intValue else { continue }
                nextSeq = max(nextSeq, seq + 1)
                guard seq > ackedThrough, seq > (kept.last?.seq ?? 0) else { continue }
                kept.append(Kept(seq: seq, text: .file(offset: Int64(start), length: end - start)))
                keptBytes += end - start
            }
            logFile = LogFile(path: logPath)
        }
    }

    /// Recording queue: numbers `make`'s record with the next seq, keeps it durably, then makes it visible.
    /// Returns the record as kept.
    public func append(_ make: (Int64) -> JSONValue) -> JSONValue {
        let seq = lock.withLock {
            defer { nextSeq += 1 }
            return nextSeq
        }
        let record = make(seq)
        let line = JSON.serialize(record)
        var text = Kept.Text.line(line)
        var opened: LogFile?
        if let logPath {
            let lead = tornTail ? 1 : 0
            var bytes = tornTail ? [UInt8(ascii: "\n")] : []
            bytes += line
            bytes.append(UInt8(ascii: "\n"))
            Self.appendDurably(bytes, to: logPath)
            text = .file(offset: fileSize + Int64(lead), length: line.count)
            fileSize += Int64(bytes.count)
            tornTail = false
            if lock.withLock({ logFile == nil }) { opened = LogFile(path: logPath) }
        }
        fileLines += 1
        lock.withLock {
            if let opened { logFile = opened }
            kept.append(Kept(seq: seq, text: text))
            keptBytes += line.count
            while kept.count > limits.records || (keptBytes > limits.bytes && kept.count > 1) {
                let oldest = kept.removeFirst()
                keptBytes -= oldest.bytes
                ackedThrough = max(ackedThrough, oldest.seq)
                dropped += 1
            }
        }
        return record
    }

    /// Any thread: up to `limit` records after `seq`, oldest first.
    public func list(after seq: Int64, limit: Int) -> [JSONValue] {
        let (texts, file) = lock.withLock {
            let start = firstIndex(after: seq)
            return (kept[start..<min(kept.count, start + max(0, limit))].map(\.text), logFile)
        }
        return texts.compactMap { text in
            switch text {
            case .line(let line): try? JSON.parse(line)
            case .file(let offset, let length): file?.read(offset: offset, length: length).flatMap { try? JSON.parse($0) }
            }
        }
    }

    /// Any thread: records through `seq` are with their consumer; they are forgotten (the file catches up
    /// on the recording queue, in `tidy`). Returns how far records are acknowledged now.
    @discardableResult
    public func ack(through seq: Int64) -> Int64 {
        lock.withLock {
            let clamped = min(seq, nextSeq - 1)
            guard clamped > ackedThrough else { return ackedThrough }
            ackedThrough = clamped
            let gone = firstIndex(after: clamped)
            keptBytes -= kept[..<gone].reduce(0) { $0 + $1.bytes }
            kept.removeFirst(gone)
            return ackedThrough
        }
    }

    public func summary() -> Summary {
        lock.withLock { Summary(nextSeq: nextSeq, ackedThrough: ackedThrough, dropped: dropped, count: kept.count) }
    }

    /// Recording queue: writes `plays.meta` if an ack or the cap changed it, and compacts `plays.jsonl` once
    /// most of its lines are gone. Call after acks (cheap when nothing changed).
    public func tidy(force: Bool = false) {
        guard let logPath, let metaPath else { return }
        let (summary, live, liveFile) = lock.withLock {
            (Summary(nextSeq: nextSeq, ackedThrough: ackedThrough, dropped: dropped, count: kept.count), kept, logFile)
        }
        let compact = force || fileLines > max(1000, 2 * live.count)
        // The meta goes first: compaction may remove the only line that held the highest seq.
        if compact || summary.ackedThrough != writtenMeta.ackedThrough || summary.dropped != writtenMeta.dropped {
            let meta: JSONValue = [
                "nextSeq": .int(summary.nextSeq), "ackedThrough": .int(summary.ackedThrough),
                "dropped": .int(summary.dropped),
            ]
            Self.replaceDurably(metaPath, with: JSON.serialize(meta))
            writtenMeta = (summary.ackedThrough, summary.dropped)
        }
        guard compact else { return }
        // Appends and compaction both run on this queue, so `live` is still every kept record but those
        // acknowledged meanwhile (which the new index simply leaves out).
        var bytes: [UInt8] = []
        var places: [Int64: (offset: Int64, length: Int)] = [:]
        for record in live {
            let text: [UInt8]?
            switch record.text {
            case .line(let line): text = line
            case .file(let offset, let length): text = liveFile?.read(offset: offset, length: length)
            }
            guard let text else { continue }
            places[record.seq] = (Int64(bytes.count), text.count)
            bytes += text
            bytes.append(UInt8(ascii: "\n"))
        }
        guard Self.replaceDurably(logPath, with: bytes) else { return }
        fileSize = Int64(bytes.count)
        fileLines = places.count
        let reopened = LogFile(path: logPath)
        lock.withLock {
            logFile = reopened
            kept = kept.compactMap { record in
                places[record.seq].map { Kept(seq: record.seq, text: .file(offset: $0.offset, length: $0.length)) }
            }
            keptBytes = kept.reduce(0) { $0 + $1.bytes }
        }
    }

    /// Under `lock`: the index of the first kept record with a seq after `seq`.
    private func firstIndex(after seq: Int64) -> Int {
        var low = 0
        var high = kept.count
        while low < high {
            let mid = (low + high) / 2
            if kept[mid].seq <= seq { low = mid + 1 } else { high = mid }
        }
        return low
    }

    private static func appendDurably(_ bytes: [UInt8], to path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        defer { close(fd) }
        bytes.withUnsafeBytes { _ = write(fd, $0.baseAddress, $0.count) }
        fsync(fd)
    }

    /// Writes a temporary file, syncs it, renames it over `path` and syncs the directory.
    @discardableResult
    private static func replaceDurably(_ path: String, with bytes: [UInt8]) -> Bool {
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return false }
        bytes.withUnsafeBytes { _ = write(fd, $0.baseAddress, $0.count) }
        fsync(fd)
        close(fd)
        guard rename(temporary, path) == 0 else { return false }
        let directory = open(PathText.deletingLastComponent(path), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
        return true
    }
}

/// What the socket may ask of the proof-of-play log (`plays.list`, `plays.ack`); the daemon's recorder
/// implements it over a PlayLogStore.
public protocol PlayLogControl: Sendable {
    func list(after seq: Int64, limit: Int) -> [JSONValue]
    /// Returns how far records are acknowledged now.
    func ack(through seq: Int64) -> Int64
    func summary() -> PlayLogStore.Summary
}
