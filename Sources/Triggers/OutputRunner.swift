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
    /// Queue only: the plays started and not yet ended, by item id, with what their rules match on.
    private var playing: [Int64: (uri: String, title: String?)] = [:]

    public init(rules: [OutputRule], commandTimeout: Double = 10, logger: Logger) {
        (self.rules, self.commandTimeout, self.logger) = (rules, commandTimeout, logger)
    }

    /// Any thread: a play of item `id` started.
    public func started(id: Int64, uri: String, title: String?) {
        guard !rules.isEmpty else { return }
        queue.async { [self] in
            playing[id] = (uri, title)
            for rule in rules where rule.moment == .start && rule.matches(uri: uri, title: title) { carryOut(rule, uri: uri) }
        }
    }

    /// Any thread: a play of item `id` ended.
    public func ended(id: Int64) {
        guard !rules.isEmpty else { return }
        queue.async { [self] in
            guard let play = playing.removeValue(forKey: id) else { return }
            for rule in rules where rule.moment == .end && rule.matches(uri: play.uri, title: play.title) { carryOut(rule, uri: play.uri) }
        }
    }

    /// Waits for the actions asked for so far (tests, shutdown).
    public func drain() { queue.sync {} }

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
