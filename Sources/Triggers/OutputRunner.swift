// Carries output rules out when plays start and end (the main engine's events), one action at a time on its
// own queue ("queued.outputs"): a command runs with a timeout in its own process group (a hung one is
// stopped and reported), a serial line is written without waiting on a device that does not take it.

import Dispatch
import Glibc
import Logging
import SystemSupport

public final class OutputRunner: @unchecked Sendable {
    public let rules: [OutputRule]
    private let logger: Logger
    private let commandTimeout: Double
    private let queue = DispatchQueue(label: "queued.outputs")
    /// Guards `playing` and `waiting`; never held while an action runs.
    private let lock = ThreadLock()
    /// The plays started and not yet ended, by item id, with what their rules match on.
    private var playing: [Int64: (uri: String, title: String?)] = [:]
    /// Rules with an action asked for and not yet done: another of the same rule meanwhile is dropped, so a
    /// command that hangs until its timeout on short items cannot pile work up.
    private var waiting: Set<Int> = []

    public init(rules: [OutputRule], commandTimeout: Double = 10, logger: Logger) {
        (self.rules, self.commandTimeout, self.logger) = (rules, commandTimeout, logger)
    }

    /// Any thread: a play of item `id` started.
    public func started(id: Int64, uri: String, title: String?) {
        guard !rules.isEmpty else { return }
        lock.withLock { playing[id] = (uri, title) }
        run(.start, uri: uri, title: title)
    }

    /// Any thread: a play of item `id` ended.
    public func ended(id: Int64) {
        guard !rules.isEmpty, let play = lock.withLock({ playing.removeValue(forKey: id) }) else { return }
        run(.end, uri: play.uri, title: play.title)
    }

    /// Waits for the actions asked for so far (tests, shutdown).
    public func drain() { queue.sync {} }

    private func run(_ moment: OutputRule.Moment, uri: String, title: String?) {
        for (index, rule) in rules.enumerated() where rule.moment == moment && rule.matches(uri: uri, title: title) {
            guard lock.withLock({ waiting.insert(index).inserted }) else {
                logger.warning("output \(rule.line): skipped for \(uri), the one before is still running")
                continue
            }
            queue.async { [self] in
                carryOut(rule, uri: uri)
                _ = lock.withLock { waiting.remove(index) }
            }
        }
    }

    private func carryOut(_ rule: OutputRule, uri: String) {
        switch rule.action {
        case .command(let words):
            let outcome = ChildCommand.run(words, timeout: commandTimeout)
            if outcome.succeeded {
                logger.info("output \(rule.line): done for \(uri)")
            } else {
                logger.warning("output \(rule.line): \(outcome)")
            }
        case .serial(let path, let line):
            let fd = open(path, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
            guard fd >= 0 else {
                logger.warning("output \(rule.line): \(path): \(String(cString: strerror(errno)))")
                return
            }
            defer { close(fd) }
            let bytes = Array((line + "\r\n").utf8)
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written == bytes.count {
                logger.info("output \(rule.line): written for \(uri)")
            } else {
                logger.warning("output \(rule.line): \(path) took \(max(0, written)) of \(bytes.count) bytes")
            }
        }
    }
}
