// Failed sign-ins, per client: after `freeFailures` wrong secrets within `window`, each further attempt waits
// (429 with Retry-After) 1 s, then 2, 4… up to 60 s, so a password cannot be guessed at speed (a token
// cannot be guessed at all). Attempts in flight count too: a burst of parallel guesses cannot slip past the
// count before the first bcrypt check ends. A success clears the client's record. Pure bookkeeping on an
// actor; the clock is injected so tests need no sleeps.

import Foundation

public actor SignInThrottle {
    public enum Verdict: Equatable, Sendable {
        case check
        /// Refused without checking: try again after this many seconds.
        case wait(seconds: Int)
    }

    static let freeFailures = 5
    static let longestWait: TimeInterval = 60
    static let window: TimeInterval = 15 * 60
    /// Clients remembered at most (the oldest record goes): a flood of addresses cannot grow memory.
    static let capacity = 4096

    private struct Record {
        var failures = 0
        var inFlight = 0
        var lastFailure = Date.distantPast
        var blockedUntil = Date.distantPast
    }

    private var records: [String: Record] = [:]
    private let now: @Sendable () -> Date

    public init(now: @escaping @Sendable () -> Date = Date.init) { self.now = now }

    /// Before checking a secret from `client`: whether to check it now. A `.check` must be followed by `finish`.
    public func begin(client: String) -> Verdict {
        var record = records[client] ?? Record()
        if now().timeIntervalSince(record.lastFailure) > Self.window, record.inFlight == 0 { record = Record() }
        if record.blockedUntil > now() {
            records[client] = record
            return .wait(seconds: max(1, Int(record.blockedUntil.timeIntervalSince(now()).rounded(.up))))
        }
        if record.failures + record.inFlight >= Self.freeFailures, record.inFlight > 0 {
            // The free attempts are all being checked right now: wait for their outcome.
            return .wait(seconds: 1)
        }
        record.inFlight += 1
        if records[client] == nil, records.count >= Self.capacity,
            let oldest = records.min(by: { $0.value.lastFailure < $1.value.lastFailure })?.key
        {
            records[oldest] = nil
        }
        records[client] = record
        return .check
    }

    /// After a `.check`: the outcome. Returns how many failures in a row the client now has (0 on success).
    @discardableResult
    public func finish(client: String, admitted: Bool) -> Int {
        guard var record = records[client] else { return 0 }
        record.inFlight = max(0, record.inFlight - 1)
        if admitted {
            records[client] = record.inFlight == 0 ? nil : Record(inFlight: record.inFlight)
            return 0
        }
        record.failures += 1
        record.lastFailure = now()
        if record.failures >= Self.freeFailures {
            let wait = min(Self.longestWait, pow(2, Double(record.failures - Self.freeFailures)))
            record.blockedUntil = now().addingTimeInterval(wait)
        }
        records[client] = record
        return record.failures
    }
}
