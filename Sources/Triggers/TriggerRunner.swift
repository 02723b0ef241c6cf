// Carries the trigger rules out: reads the local inputs (a thread per serial port or input device, reopened
// after an unplug), takes keys from the window and fired names from triggers.fire, and makes each matching
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
        lock.withLock { (self.rules, patterns) = (rules, compiled) }
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
        let (rules, patterns) = lock.withLock { (self.rules, self.patterns) }
        let matches = TriggerMatch.matches(input, rules: rules, patterns: patterns)
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

    /// Opens a reader for each serial port and input device the rules name; closes those no rule names. The
    /// readers are chosen and registered under the lock in one step, so two callers never open one device twice.
    private func openReaders() {
        let (stale, fresh) = lock.withLock { () -> ([DeviceReader], [DeviceReader]) in
            var wanted: [String: DeviceReader.Kind] = [:]
            for rule in rules {
                switch rule.source {
                case .serial(let path, _): wanted[path] = .lines
                case .evdev(let path, _): wanted[path] = .events
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

/// One serial port (lines) or input device (evdev events), read on its own thread; reopened a second after
/// it goes away (a USB adapter unplugged), until stopped.
final class DeviceReader: @unchecked Sendable {
    enum Kind: Equatable { case lines, events }

    let path: String
    let kind: Kind
    private let logger: Logger
    private let deliver: @Sendable (TriggerInput) -> Void
    private let lock = ThreadLock()
    private var stopping = false
    private let finished = DispatchSemaphore(value: 0)

    init(path: String, kind: Kind, logger: Logger, deliver: @escaping @Sendable (TriggerInput) -> Void) {
        (self.path, self.kind, self.logger, self.deliver) = (path, kind, logger, deliver)
    }

    func start() {
        Threads.start(named: "queued.trigger-input") { [self] in
            var warned = false
            while !lock.withLock({ stopping }) {
                // Non-blocking: a FIFO opens before its writer does, and poll() below lets stop() in.
                let fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
                if fd < 0 {
                    if !warned { logger.warning("trigger input \(path): \(String(cString: strerror(errno))); trying again every second") }
                    warned = true
                    waitOrStop(1)
                    continue
                }
                warned = false
                if kind == .lines { Self.makeRaw(fd) }
                logger.info("trigger input \(path) open")
                read(fd)
                close(fd)
                waitOrStop(1)
            }
            finished.signal()
        }
    }

    func stop() {
        lock.withLock { stopping = true }
        finished.wait()
    }

    private func waitOrStop(_ seconds: Double) {
        let deadline = Monotonic.now() + seconds
        while !lock.withLock({ stopping }) && Monotonic.now() < deadline { usleep(50_000) }
    }

    /// Reads until the device goes away or the reader is stopped.
    private func read(_ fd: Int32) {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !lock.withLock({ stopping }) {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 200) >= 0 else { return }
            if poller.revents & Int16(POLLIN) == 0 {
                // A FIFO whose writer closed says POLLHUP with nothing to read: reopen for the next writer.
                if poller.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { return }
                continue
            }
            let count = Glibc.read(fd, &buffer, buffer.count)
            if count < 0 && (errno == EAGAIN || errno == EINTR) { continue }
            guard count > 0 else { return }
            pending += buffer[..<count]
            switch kind {
            case .lines: deliverLines(&pending)
            case .events: deliverEvents(&pending)
            }
        }
    }

    /// Lines end at \n or \r; a line longer than 4 KiB is cut there (a device that never ends its lines).
    private func deliverLines(_ pending: inout [UInt8]) {
        while let end = pending.firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) ?? (pending.count > 4096 ? 4096 : nil) {
            let line = String(decoding: pending[..<end], as: UTF8.self)
            pending.removeFirst(min(pending.count, end + 1))
            if !line.isEmpty { deliver(.line(path: path, text: line)) }
        }
    }

    /// struct input_event: a timeval (16 bytes on 64-bit Linux, 8 on 32-bit ARM), type, code (u16 each), value
    /// (s32), in the machine's byte order (little-endian on every board queued runs on). A key press is type
    /// EV_KEY (1) with value 1 (2 is autorepeat, 0 the release).
    private func deliverEvents(_ pending: inout [UInt8]) {
        let time = MemoryLayout<timeval>.size
        let size = time + 8
        while pending.count >= size {
            let type = UInt16(pending[time]) | UInt16(pending[time + 1]) << 8
            let code = UInt16(pending[time + 2]) | UInt16(pending[time + 3]) << 8
            let value = Int32(bitPattern: UInt32(pending[time + 4]) | UInt32(pending[time + 5]) << 8 | UInt32(pending[time + 6]) << 16 | UInt32(pending[time + 7]) << 24)
            pending.removeFirst(size)
            if type == 1 && value == 1 { deliver(.evdev(path: path, code: code)) }
        }
    }

    /// A terminal in raw mode (no echo, no line editing, bytes as they come); anything else is left alone.
    private static func makeRaw(_ fd: Int32) {
        var settings = termios()
        guard tcgetattr(fd, &settings) == 0 else { return }
        cfmakeraw(&settings)
        _ = tcsetattr(fd, TCSANOW, &settings)
    }
}
