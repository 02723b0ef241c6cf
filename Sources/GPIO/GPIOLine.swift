// One GPIO line held through libgpiod: asked for as an input whose edges are read, or as an output whose
// value is set. Owns the chip handle (closing it gives the line back to the kernel) and turns libgpiod's -1
// and errno into GPIOError. A line is named `CHIP:LINE`: the chip by name, path, label or number
// ("gpiochip0", "/dev/gpiochip0", "pinctrl-bcm2711", "0"), the line by offset or by name ("17", "GPIO17").
// Not thread-safe: one owner uses it at a time (a reader's thread, the outputs' queue); Sendable only so
// that owner's queue can keep it in a later block.

import CGpiod
import Glibc

public struct GPIOError: Error, Sendable, CustomStringConvertible {
    public let description: String
    /// `what` failed with the errno libgpiod left (read at once, before anything else can change it).
    init(_ what: String, code: Int32 = errno) { description = "\(what): \(String(cString: strerror(code)))" }
}

/// A line's name as rules write it: `CHIP:LINE`.
public struct GPIOLineName: Sendable, Hashable, CustomStringConvertible {
    public let chip: String
    public let line: String

    /// Parses `gpiochip0:17`; nil when there is no chip or no line.
    public init?(_ text: String) {
        guard let colon = text.lastIndex(of: ":") else { return nil }
        chip = String(text[..<colon])
        line = String(text[text.index(after: colon)...])
        guard !chip.isEmpty, !line.isEmpty, !line.contains(" ") else { return nil }
    }

    public var description: String { "\(chip):\(line)" }
}

public enum GPIOEdge: String, Sendable, Equatable {
    case rising, falling
}

/// Pull-up, pull-down or neither, asked of the line's bias when it is requested (the kernel and the chip
/// must support it; a chip that cannot refuses the request).
public enum GPIOBias: String, Sendable, Equatable {
    case asIs = "as-is", pullUp = "pull-up", pullDown = "pull-down", disable

    var flags: Int32 {
        switch self {
        case .asIs: 0
        case .pullUp: Int32(GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP)
        case .pullDown: Int32(GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_DOWN)
        case .disable: Int32(GPIOD_LINE_REQUEST_FLAG_BIAS_DISABLE)
        }
    }
}

public final class GPIOLine: @unchecked Sendable {
    public let name: GPIOLineName
    private let chip: OpaquePointer
    private let line: OpaquePointer

    /// The consumer the kernel shows for lines queued holds (`gpioinfo`).
    static let consumer = "queued"

    private init(name: GPIOLineName) throws(GPIOError) {
        self.name = name
        guard let chip = gpiod_chip_open_lookup(name.chip) else { throw GPIOError("GPIO chip \(name.chip)") }
        let line: OpaquePointer? =
            if let offset = UInt32(name.line) { gpiod_chip_get_line(chip, offset) } else { gpiod_chip_find_line(chip, name.line) }
        guard let line else {
            let error = GPIOError("line \(name.line) of \(name.chip)")
            gpiod_chip_close(chip)
            throw error
        }
        (self.chip, self.line) = (chip, line)
    }

    deinit { gpiod_chip_close(chip) }

    /// The line as an input reporting both edges (debounce and the edge wanted are the reader's decision).
    public static func input(_ name: GPIOLineName, bias: GPIOBias) throws(GPIOError) -> GPIOLine {
        let held = try GPIOLine(name: name)
        // errno read while `held` lives (its deinit closes the chip, which may set errno).
        let (result, code) = (gpiod_line_request_both_edges_events_flags(held.line, consumer, bias.flags), errno)
        guard result == 0 else { throw GPIOError("edges of \(name)", code: code) }
        return held
    }

    /// The line as an output, first at `value`.
    public static func output(_ name: GPIOLineName, value: Bool) throws(GPIOError) -> GPIOLine {
        let held = try GPIOLine(name: name)
        let (result, code) = (gpiod_line_request_output_flags(held.line, consumer, 0, value ? 1 : 0), errno)
        guard result == 0 else { throw GPIOError("output \(name)", code: code) }
        return held
    }

    /// Waits up to `timeout` seconds for an edge: the edge and its time (seconds, as the kernel stamped it:
    /// CLOCK_MONOTONIC since Linux 5.7, CLOCK_REALTIME before; only differences are used), nil when the
    /// time passed. Throws when the line is gone (a chip unbound).
    public func nextEdge(timeout: Double) throws(GPIOError) -> (edge: GPIOEdge, time: Double)? {
        var wait = timespec(tv_sec: Int(timeout), tv_nsec: Int((timeout - timeout.rounded(.down)) * 1e9))
        switch gpiod_line_event_wait(line, &wait) {
        case 0: return nil
        case 1: break
        default: throw GPIOError("waiting on \(name)")
        }
        var event = gpiod_line_event()
        guard gpiod_line_event_read(line, &event) == 0 else { throw GPIOError("reading \(name)") }
        let edge: GPIOEdge = event.event_type == Int32(GPIOD_LINE_EVENT_RISING_EDGE) ? .rising : .falling
        return (edge, Double(event.ts.tv_sec) + Double(event.ts.tv_nsec) / 1e9)
    }

    public func set(_ value: Bool) throws(GPIOError) {
        guard gpiod_line_set_value(line, value ? 1 : 0) == 0 else { throw GPIOError("setting \(name)") }
    }
}
