// The threads that read the local inputs of triggers: a serial port (lines), an input device (evdev events)
// or a GPIO line (edges through libgpiod), each on its own thread, reopened a second after it goes away (a
// USB adapter unplugged, a chip unbound) until stopped. What they read goes to `deliver` as a TriggerInput.

import Dispatch
import GPIO
import Glibc
import Logging
import SystemClock
import SystemSupport

final class DeviceReader: @unchecked Sendable {
    enum Kind: Equatable {
        case lines, events
        case gpio(GPIOLineName, GPIOBias)
    }

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
            if case .gpio(let line, let bias) = kind {
                readEdges(line, bias: bias)
                finished.signal()
                return
            }
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
            case .gpio: return
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

    /// Holds the GPIO line and reads its edges until stopped; a line that cannot be had (no chip, taken by
    /// another program, a bias the chip refuses) is tried again every second, said once.
    private func readEdges(_ name: GPIOLineName, bias: GPIOBias) {
        var warned = false
        while !lock.withLock({ stopping }) {
            do {
                let line = try GPIOLine.input(name, bias: bias)
                logger.info("trigger input gpio \(name) open")
                warned = false
                while !lock.withLock({ stopping }) {
                    guard let (edge, time) = try line.nextEdge(timeout: 0.2) else { continue }
                    deliver(.gpio(line: name, edge: edge, time: time))
                }
                return
            } catch {
                if !warned { logger.warning("trigger input gpio \(error); trying again every second") }
                warned = true
                waitOrStop(1)
            }
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
