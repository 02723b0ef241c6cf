// The bridge's log: one line per event on standard error (journald keeps it under systemd), filtered by
// --log-level. Hand-written rather than swift-log's StreamLogHandler only to keep the line format the daemon's
// log uses ("<time> <level> queued-mqtt: <message>").

import FoundationEssentials
import Glibc
import SystemSupport

final class BridgeLog: @unchecked Sendable {
    private let minimum: Int
    private let lock = ThreadLock()
    private static let levels = ["trace", "debug", "info", "notice", "warning", "error"]

    init(level: String) {
        minimum = Self.levels.firstIndex(of: level) ?? 2
    }

    func info(_ message: String) { write(2, message) }
    func warning(_ message: String) { write(4, message) }
    func error(_ message: String) { write(5, message) }

    private func write(_ level: Int, _ message: String) {
        guard level >= minimum else { return }
        let line = "\(Date().ISO8601Format()) \(Self.levels[level]) queued-mqtt: \(message)\n"
        let bytes = Array(line.utf8)
        lock.withLock { _ = bytes.withUnsafeBytes { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) } }
    }
}

enum BridgeVersion {
    static let number = "0.6.0"
}
