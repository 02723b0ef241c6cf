// Keeps one FFmpeg message from flooding the log: a live stream joined between keyframes makes the H.264
// decoder say "non-existing PPS 0 referenced" (and two lines more) for every picture until the next
// keyframe, and a damaged stream can say the same thing for hours. Each distinct text passes `burst` times
// per `window`; the rest are counted and told once, with the next line of that text after the window.
// FFmpeg's AV_LOG_SKIP_REPEATED works only in its default callback, and only for lines in a row.
// A value type fed with an injected clock; FFmpegLog keeps it under a lock.

public struct LogRepeatFilter: Sendable {
    public let burst: Int
    public let window: Double
    /// Distinct texts remembered at most; past it, the stalest are forgotten (a new text always passes).
    public let capacity: Int
    private var seen: [String: Entry] = [:]

    private struct Entry {
        var windowStart: Double
        var passed: Int
        var suppressed: Int
    }

    public init(burst: Int = 5, window: Double = 10, capacity: Int = 256) {
        (self.burst, self.window, self.capacity) = (burst, window, capacity)
    }

    /// What to do with `text` at `now`: nil to drop it, or the line to log (with how many like it were
    /// dropped since it was last logged).
    public mutating func admit(_ text: String, now: Double) -> String? {
        if var entry = seen[text] {
            if now - entry.windowStart >= window {
                let dropped = entry.suppressed
                entry = Entry(windowStart: now, passed: 1, suppressed: 0)
                seen[text] = entry
                return dropped > 0 ? "\(text) (and \(dropped) more like it)" : text
            }
            guard entry.passed < burst else {
                entry.suppressed += 1
                seen[text] = entry
                return nil
            }
            entry.passed += 1
            seen[text] = entry
            return text
        }
        if seen.count >= capacity {
            let stalest = seen.sorted { $0.value.windowStart < $1.value.windowStart }.prefix(capacity / 4)
            for (key, _) in stalest { seen[key] = nil }
        }
        seen[text] = Entry(windowStart: now, passed: 1, suppressed: 0)
        return text
    }
}
