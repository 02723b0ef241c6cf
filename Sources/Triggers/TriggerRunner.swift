// Carries the trigger rules out: reads the local inputs (a thread per serial port, input device or GPIO
// line, reopened after an unplug), takes keys from the window and fired names from triggers.fire, and makes each matching
// rule's call through `call` — the daemon's own socket, so a trigger can do exactly what a client can and
// is checked the same way. Calls run one at a time on the runner's queue ("queued.triggers"), never on the
// thread an input arrived on.

import Dispatch
import Glibc
import JSONText
import Logging
import SystemClock
import SystemSupport

public final class TriggerRunner: @unchecked Sendable {
    /// The daemon's JSON-RPC: a method and its params by name → the result (throws the call's error).
    public typealias Call = @Sendable (_ method: String, _ params: JSONObject) throws -> JSONValue

    private let call: Call
    /// The id of the item heard now (while-playing=ignore compares it with what a rule started).
    private let nowPlaying: @Sendable () -> Int64?
    private let logger: Logger
    private let queue = DispatchQueue(label: "queued.triggers")

    /// Guards `rules` and their `patterns` (matched from any thread) and `readers`.
    private let lock = ThreadLock()
    private var rules: [TriggerRule]
    private var patterns: CompiledPatterns
    private var readers: [String: DeviceReader] = [:]
    /// Guarded by `lock`: each GPIO rule's memory of its line's last edge (by rule index).
    private var debounces: [Int: EdgeDebounce] = [:]
    /// Queue only: cooldowns, and the interrupt each rule last started.
    private var gate = TriggerGate()
    private var started: [Int: Int64] = [:]
    /// Guarded by `lock`: between start() and stop().
    private var running = false

    public init(rules: [TriggerRule], logger: Logger, nowPlaying: @escaping @Sendable () -> Int64?, call: @escaping Call) {
        self.rules = rules
        patterns = CompiledPatterns(rules)
        self.logger = logger
        self.nowPlaying = nowPlaying
        self.call = call
    }

    public var list: [TriggerRule] { lock.withLock { rules } }

    /// Starts reading the local inputs the rules name.
    public func start() {
        lock.withLock { running = true }
        openReaders()
    }

    public func stop() {
        let readers = lock.withLock { () -> [DeviceReader] in
            running = false
            let all = Array(self.readers.values)
            self.readers = [:]
            return all
        }
        for reader in readers { reader.stop() }
        queue.sync {}
    }

    /// Replaces every rule (triggers.set): the inputs no rule names any more are closed, new ones opened.
    public func replace(with rules: [TriggerRule]) {
        let compiled = CompiledPatterns(rules)
        lock.withLock { (self.rules, patterns, debounces) = (rules, compiled, [:]) }
        queue.async { [self] in
            gate.reset()
            started = [:]
        }
        openReaders()
    }

    /// An input from anywhere (a key in the window, triggers.fire): the rules it fires, counted now and
    /// carried out on the runner's queue.
    @discardableResult
    public func input(_ input: TriggerInput) -> Int {
        let (rules, matches) = lock.withLock { () -> ([TriggerRule], [(index: Int, groups: [String])]) in
            let current = self.rules
            if case .gpio(let line, let edge, let time) = input {
                return (current, TriggerMatch.gpioMatches(line: line, edge: edge, time: time, rules: current, debounces: &debounces))
            }
            return (current, TriggerMatch.matches(input, rules: current, patterns: patterns))
        }
        guard !matches.isEmpty else { return 0 }
        let heard = Monotonic.now()
        queue.async { [self] in
            for match in matches where match.index < rules.count {
                fire(rules[match.index], index: match.index, groups: match.groups, heard: heard)
            }
        }
        return matches.count
    }

    /// Queue: one rule's call, unless it is cooling down or what it started still plays.
    private func fire(_ rule: TriggerRule, index: Int, groups: [String], heard: Double) {
        guard gate.admit(index, cooldown: rule.cooldown, now: heard) else {
            logger.info("trigger \(rule.shown): cooling down")
            return
        }
        if rule.ignoreWhilePlaying, let mine = started[index], nowPlaying() == mine {
            logger.info("trigger \(rule.shown): what it started still plays")
            return
        }
        do {
            let (method, params) = try TriggerAction.call(rule.action, groups: groups)
            let result = try call(method, params)
            if method == "queue.interrupt", let id = result["id"]?.intValue { started[index] = id }
            let latency = (Monotonic.now() - heard) * 1000
            logger.info("trigger \(rule.shown): \(method) done \(Int(latency.rounded())) ms after the input")
        } catch {
            logger.warning("trigger \(rule.shown): \(error)")
        }
    }

    // MARK: Local inputs

    /// Opens a reader for each serial port, input device and GPIO line the rules name; closes those no rule names. The
    /// readers are chosen and registered under the lock in one step, so two callers never open one device twice.
    private func openReaders() {
        let (stale, fresh) = lock.withLock { () -> ([DeviceReader], [DeviceReader]) in
            var wanted: [String: DeviceReader.Kind] = [:]
            for rule in rules {
                switch rule.source {
                case .serial(let path, _): wanted[path] = .lines
                case .evdev(let path, _): wanted[path] = .events
                case .gpio(let line, _, _, let bias):
                    // One request per line: rules on it ask one bias (TriggerRule.conflict refuses others).
                    wanted["gpio:\(line)"] = wanted["gpio:\(line)"] ?? .gpio(line, bias)
                default: break
                }
            }
            let stale = readers.filter { wanted[$0.key] != $0.value.kind }
            for key in stale.keys { readers[key] = nil }
            guard running else { return (Array(stale.values), []) }
            var fresh: [DeviceReader] = []
            for (path, kind) in wanted.sorted(by: { $0.key < $1.key }) where readers[path] == nil {
                let reader = DeviceReader(path: path, kind: kind, logger: logger) { [weak self] input in self?.input(input) }
                readers[path] = reader
                fresh.append(reader)
            }
            return (Array(stale.values), fresh)
        }
        for reader in stale { reader.stop() }
        for reader in fresh { reader.start() }
    }
}
