// When the screen is on (issue 28): windows of the dayparting calendar (ItemSchedule), the screen on while
// any is open. Pure: the engine asks it with local times from its clock, and tests with any time at all.
// No windows at all means always on.

public struct DisplaySchedule: Sendable, Hashable {
    /// The windows when the screen is on.
    public var windows: [ItemSchedule]

    public init(windows: [ItemSchedule] = []) { self.windows = windows }

    /// Whether the screen is on at `time`.
    public func isOn(at time: LocalDateTime) -> Bool {
        windows.isEmpty || windows.contains { $0.isOpen(at: time) }
    }

    /// The first time after `time` at which `isOn` changes; nil when it never does within
    /// `ItemSchedule.searchDays` (no windows, an `end` date passed, or on all the time).
    public func nextChange(after time: LocalDateTime) -> LocalDateTime? {
        guard !windows.isEmpty else { return nil }
        if !isOn(at: time) {
            return windows.compactMap { $0.nextOpening(after: time) }.min()
        }
        // On: the latest closing of the windows open now; where another window is open at that instant the
        // screen stays on, so go on from there (each round moves past one window's close at least).
        var at = time
        for _ in 0...(windows.count * 2 + 2) {
            guard let close = windows.filter({ $0.isOpen(at: at) }).compactMap({ $0.closing(after: at) }).max() else {
                return nil
            }
            if !isOn(at: close) { return close }
            at = close
        }
        return nil
    }
}
