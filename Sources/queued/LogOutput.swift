// Where and how the daemon's log lines go. On a terminal or a plain file: "<time> <level> <label>: <metadata>
// [<module>] <message>", as swift-log's StreamLogHandler writes them. When stderr is the journal (systemd
// sets $JOURNAL_STREAM to its device:inode), each line starts with a syslog priority, `<4>` for a warning,
// and has no time (journald stamps it), so `journalctl -p warning` finds queued's warnings. `--log-file`
// appends to a file instead (boxes without journald; logrotate's copytruncate works with O_APPEND).
// Hand-written: StreamLogHandler's format is fixed and it writes only to stdout/stderr.
// `--log-level info,ffmpeg=warning`: a level per label, the last part of "queued.ffmpeg".

import ArgumentParser
import FoundationEssentials
import SystemSupport
import Glibc
import Logging

/// `--log-level`: a default level and levels for labels ("info,ffmpeg=warning,cache=debug").
struct LogLevels: ExpressibleByArgument, Sendable, Equatable {
    var fallback: Logger.Level
    /// By the label's name after "queued." ("ffmpeg" for "queued.ffmpeg"), or a whole label.
    var byLabel: [String: Logger.Level]

    init(fallback: Logger.Level = .info, byLabel: [String: Logger.Level] = [:]) {
        self.fallback = fallback
        self.byLabel = byLabel
    }

    init?(argument: String) {
        var fallback = Logger.Level.info
        var byLabel: [String: Logger.Level] = [:]
        for part in argument.split(separator: ",", omittingEmptySubsequences: false) {
            let pieces = part.split(separator: "=", omittingEmptySubsequences: false)
            guard let levelText = pieces.last, let level = Logger.Level(rawValue: String(levelText)) else { return nil }
            switch pieces.count {
            case 1: fallback = level
            case 2 where !pieces[0].isEmpty: byLabel[String(pieces[0])] = level
            default: return nil
            }
        }
        self.init(fallback: fallback, byLabel: byLabel)
    }

    var defaultValueDescription: String { "info" }

    /// The level for a logger's label: its own name's, else its parent's ("queued.cache.disk" →
    /// "cache.disk", "cache"), else the default.
    func level(for label: String) -> Logger.Level {
        var name = label.hasPrefix("queued.") ? String(label.dropFirst("queued.".count)) : label
        while true {
            if let level = byLabel[name] { return level }
            guard let dot = name.lastIndex(of: ".") else { break }
            name = String(name[..<dot])
        }
        return byLabel[label] ?? fallback
    }
}

/// One place lines are written, shared by every logger (one lock, so lines never interleave).
final class LogSink: @unchecked Sendable {
    enum Style {
        /// Time, level, label.
        case plain
        /// `<priority>` and label, no time (journald adds it).
        case journal
    }

    let style: Style
    private let descriptor: Int32
    private let lock = ThreadLock()

    init(style: Style, descriptor: Int32) {
        self.style = style
        self.descriptor = descriptor
    }

    /// stderr, in the journal's style when $JOURNAL_STREAM names it; or `path`, appended to.
    static func make(logFile path: String?, environment: [String: String]) throws -> LogSink {
        if let path {
            let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o640)
            guard descriptor >= 0 else {
                throw ValidationError("--log-file: cannot open \(path): \(String(cString: strerror(errno)))")
            }
            return LogSink(style: .plain, descriptor: descriptor)
        }
        return LogSink(style: isJournal(environment["JOURNAL_STREAM"]) ? .journal : .plain, descriptor: 2)
    }

    /// Whether stderr is the stream `journalStream` ("device:inode", as systemd sets it) names.
    static func isJournal(_ journalStream: String?) -> Bool {
        guard let parts = journalStream?.split(separator: ":"), parts.count == 2,
            let device = UInt64(parts[0]), let inode = UInt64(parts[1])
        else { return false }
        var info = stat()
        guard fstat(2, &info) == 0 else { return false }
        return UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode
    }

    /// Any thread.
    func write(_ line: String) {
        var bytes = Array(line.utf8)
        bytes.append(0x0A)
        lock.withLock {
            var written = 0
            while written < bytes.count {
                let count = bytes.withUnsafeBytes {
                    Glibc.write(descriptor, $0.baseAddress! + written, bytes.count - written)
                }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { return }
                written += count
            }
        }
    }
}

/// A swift-log handler writing to a LogSink. Value type, as swift-log wants; copies share the sink.
struct SinkLogHandler: LogHandler {
    let label: String
    let sink: LogSink
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(
        level: Logger.Level, message: Logger.Message, metadata explicit: Logger.Metadata?, source: String,
        file: String, function: String, line: UInt
    ) {
        let merged = explicit.map { metadata.merging($0) { $1 } } ?? metadata
        let fields = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let described = fields.isEmpty ? "" : " " + fields
        switch sink.style {
        case .plain:
            sink.write("\(Self.timestamp()) \(level) \(label):\(described) [\(source)] \(message)")
        case .journal:
            sink.write("<\(Self.priority(level))>\(label):\(described) \(message)")
        }
    }

    /// syslog(3)'s priorities, which journald reads from a `<N>` prefix.
    static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    /// Local time, as StreamLogHandler writes it: 2026-11-24T09:01:11+0000.
    private static func timestamp() -> String {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        var buffer = [CChar](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &parts)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
