// The bridge's log: one line per event on standard error (journald keeps it under systemd), filtered by
// --log-level. Hand-written rather than swift-log's StreamLogHandler only to keep the line format the daemon's
// log uses ("<time> <level> queued-mqtt: <message>").

import Foundation

final class BridgeLog: @unchecked Sendable {
    private let minimum: Int
    private let lock = NSLock()
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
        lock.withLock { FileHandle.standardError.write(Data(line.utf8)) }
    }
}

enum BridgeVersion {
    static let number = "0.6.0"
}
