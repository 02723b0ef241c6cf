// Carries output rules out when plays start and end (the main engine's events), one action at a time on its
// own queue ("queued.outputs"): a command runs with a timeout in its own process group (a hung one is
// stopped and reported), a serial line is written without waiting on a device that does not take it, a GPIO
// line is requested at its first use and held (a line given back may fall to any value), and an MQTT
// message goes to `publish` (the daemon's event to the fleet bridge).

import Dispatch
import GPIO
import Glibc
import Logging
import SystemSupport

public final class OutputRunner: @unchecked Sendable {
    private let logger: Logger
    private let commandTimeout: Double
    private let queue = DispatchQueue(label: "queued.outputs")
    /// Guards `rules`, `playing` and `waiting`; never held while an action runs.
    private let lock = ThreadLock()
    private var current: [OutputRule]
    /// The plays started and not yet ended, by item id, with what their rules match on.
    private var playing: [Int64: (uri: String, title: String?)] = [:]
    /// Rules with an action asked for and not yet done, by the rule set's generation and the rule's index:
    /// another of the same rule meanwhile is dropped, so a command that hangs until its timeout on short
    /// items cannot pile work up. A replace starts a new generation (indexes name other rules then).
    private var waiting: Set<[Int]> = []
    private var generation = 0

    /// Queue only: the GPIO lines outputs have set, held until the runner goes.
    private var gpioLines: [GPIOLineName: GPIOLine] = [:]
    /// Queue only: how often each line was set; a pulse's end sets 0 only if nothing set the line since.
    private var gpioSets: [GPIOLineName: Int] = [:]
    /// Hands an MQTT output to whoever publishes it (any thread; must not wait).
    private let publish: @Sendable (_ topic: String, _ payload: String) -> Void

    public init(
        rules: [OutputRule], commandTimeout: Double = 10, logger: Logger,
        publish: @escaping @Sendable (_ topic: String, _ payload: String) -> Void = { _, _ in }
    ) {
        (current, self.commandTimeout, self.logger, self.publish) = (rules, commandTimeout, logger, publish)
    }

    /// The rules in force (any thread).
    public var rules: [OutputRule] { lock.withLock { current } }

    /// Replaces every rule (outputs.set): plays started before still end under the new ones. GPIO lines the
    /// old rules set stay held (and where they were) until the daemon exits.
    public func replace(with rules: [OutputRule]) {
        lock.withLock {
            current = rules
            generation += 1
        }
    }

    /// Any thread: a play of item `id` started.
    public func started(id: Int64, uri: String, title: String?) {
        lock.withLock { playing[id] = (uri, title) }
        run(.start, uri: uri, title: title)
    }

    /// Any thread: a play of item `id` ended.
    public func ended(id: Int64) {
        guard let play = lock.withLock({ playing.removeValue(forKey: id) }) else { return }
        run(.end, uri: play.uri, title: play.title)
    }

    /// Waits for the actions asked for so far (tests, shutdown).
    public func drain() { queue.sync {} }

    private func run(_ moment: OutputRule.Moment, uri: String, title: String?) {
        let (rules, generation) = lock.withLock { (current, self.generation) }
        for (index, rule) in rules.enumerated() where rule.moment == moment && rule.matches(uri: uri, title: title) {
            let key = [generation, index]
            guard lock.withLock({ waiting.insert(key).inserted }) else {
                logger.warning("output \(rule.shown): skipped for \(uri), the one before is still running")
                continue
            }
            queue.async { [self] in
                carryOut(rule, uri: uri)
                _ = lock.withLock { waiting.remove(key) }
            }
        }
    }

    private func carryOut(_ rule: OutputRule, uri: String) {
        switch rule.action {
        case .command(let words):
            let outcome = ChildCommand.run(words, timeout: commandTimeout)
            if outcome.succeeded {
                logger.info("output \(rule.shown): done for \(uri)")
            } else {
                logger.warning("output \(rule.shown): \(outcome)")
            }
        case .serial(let path, let line):
            let fd = open(path, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
            guard fd >= 0 else {
                logger.warning("output \(rule.shown): \(path): \(String(cString: strerror(errno)))")
                return
            }
            defer { close(fd) }
            let bytes = Array((line + "\r\n").utf8)
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written == bytes.count {
                logger.info("output \(rule.shown): written for \(uri)")
            } else {
                logger.warning("output \(rule.shown): \(path) took \(max(0, written)) of \(bytes.count) bytes")
            }
        case .gpio(let name, let setting):
            do {
                let line = try gpioLine(name)
                gpioSets[name, default: 0] += 1
                switch setting {
                case .high: try line.set(true)
                case .low: try line.set(false)
                case .pulse(let seconds):
                    try line.set(true)
                    // Back to 0 later on this queue, without holding up the outputs in between — unless the
                    // line was set again meanwhile (a later pulse or setting wins).
                    let mark = gpioSets[name]
                    queue.asyncAfter(deadline: .now() + seconds) { [self] in
                        guard gpioSets[name] == mark, let held = gpioLines[name] else { return }
                        do { try held.set(false) } catch { logger.warning("output \(rule.shown): \(error)") }
                    }
                }
                logger.info("output \(rule.shown): set for \(uri)")
            } catch {
                gpioLines[name] = nil
                logger.warning("output \(rule.shown): \(error)")
            }
        case .mqtt(let topic, let payload):
            publish(topic, payload)
            logger.info("output \(rule.shown): handed to the fleet bridge for \(uri)")
        }
    }

    /// Queue: the output line, requested (at 0) the first time.
    private func gpioLine(_ name: GPIOLineName) throws(GPIOError) -> GPIOLine {
        if let held = gpioLines[name] { return held }
        let line = try GPIOLine.output(name, value: false)
        gpioLines[name] = line
        return line
    }
}
