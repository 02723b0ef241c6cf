// Watches one hardware decode while it runs and says when to give up on it, as mpv's decoder does: every
// picture clears the error count; three decode errors in a row, a failed copy-back to memory, or no first
// picture within the timeout → software. Where software resumes depends on when: before the first picture
// the packets sent so far are replayed into a software decoder (nothing lost); after it, software starts at
// the next keyframe while the last picture holds (the play goes on, never black). Pure: fed events with the
// time, returns what to do.

public struct HWDecodeMonitor: Sendable, Equatable {
    public enum Event: Sendable, Equatable {
        /// A picture came out (in hardware).
        case picture
        /// The decoder returned an error for a packet or frame.
        case decodeError(String)
        /// Copying a picture back to memory failed.
        case transferFailed(String)
        /// The decoder refused the stream's profile or size (get_format offered no hardware format): the same
        /// decoder goes on in software.
        case formatRefused(String)
        /// Time passes (checked for the first-picture timeout).
        case tick
    }

    public enum Action: Sendable, Equatable {
        case none
        /// Go on in software: `from` says how, `reason` goes to the log and the status.
        case software(reason: String, from: Resume)
    }

    public enum Resume: Sendable, Equatable {
        /// The same decoder already continues in software (get_format chose a software format).
        case sameDecoder
        /// Open a software decoder and send it again the packets sent so far (no first picture yet).
        case replayPackets
        /// Open a software decoder and start at the next keyframe (pictures were shown already).
        case nextKeyframe
    }

    public static let errorsInARow = 3

    public let method: HWMethod
    public let started: Double
    public let firstPictureTimeout: Double
    public private(set) var pictures = 0
    public private(set) var errors = 0
    /// Set once the monitor said software: nothing more to watch.
    public private(set) var gaveUp = false

    public init(method: HWMethod, started: Double, firstPictureTimeout: Double = 2) {
        self.method = method
        self.started = started
        self.firstPictureTimeout = firstPictureTimeout
    }

    /// Takes `event` at monotonic time `now`.
    public mutating func take(_ event: Event, now: Double) -> Action {
        guard !gaveUp else { return .none }
        switch event {
        case .picture:
            pictures += 1
            errors = 0
            return .none
        case .decodeError(let message):
            errors += 1
            guard errors >= Self.errorsInARow else { return .none }
            return giveUp("\(Self.errorsInARow) decode errors in a row (last: \(message))")
        case .transferFailed(let message):
            return giveUp("copying a picture back failed: \(message)")
        case .formatRefused(let what):
            gaveUp = true
            return .software(reason: "\(method.rawValue) refused \(what)", from: .sameDecoder)
        case .tick:
            guard pictures == 0, now - started >= firstPictureTimeout else { return .none }
            return giveUp("no first picture within \(formatted(firstPictureTimeout)) s")
        }
    }

    private mutating func giveUp(_ why: String) -> Action {
        gaveUp = true
        return .software(reason: "\(method.rawValue): \(why)", from: pictures == 0 ? .replayPackets : .nextKeyframe)
    }

    private func formatted(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
