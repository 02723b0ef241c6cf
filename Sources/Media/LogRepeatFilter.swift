// Keeps one FFmpeg message from flooding the log: a live stream joined between keyframes makes the H.264
// decoder say "non-existing PPS 0 referenced" (and two lines more) for every picture until the next
// keyframe, and a damaged stream can say the same thing for hours. Each distinct text passes `burst` times
// per `window`; the rest are counted and told once, with the next line of that text after the window.
// Texts that differ only in their numbers (a decoder's address, a macroblock's place) count as one.
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
        let key = Self.shape(of: text)
        if var entry = seen[key] {
            if now - entry.windowStart >= window {
                let dropped = entry.suppressed
                entry = Entry(windowStart: now, passed: 1, suppressed: 0)
                seen[key] = entry
                return dropped > 0 ? "\(text) (and \(dropped) more like it)" : text
            }
            guard entry.passed < burst else {
                entry.suppressed += 1
                seen[key] = entry
                return nil
            }
            entry.passed += 1
            seen[key] = entry
            return text
        }
        if seen.count >= capacity {
            let stalest = seen.sorted { $0.value.windowStart < $1.value.windowStart }.prefix(max(1, capacity / 4))
            for (key, _) in stalest { seen[key] = nil }
        }
        seen[key] = Entry(windowStart: now, passed: 1, suppressed: 0)
        return text
    }

    /// The text with every run of digits (and hexadecimal after `0x`) as `#`.
    public static func shape(of text: String) -> String {
        var shape = ""
        var inNumber = false
        var previous: Character = " "
        for character in text {
            let hexDigit = inNumber && character.isHexDigit
            if character.isNumber || hexDigit || (inNumber && character == "x" && previous == "0") {
                if !inNumber { shape.append("#") }
                inNumber = true
            } else {
                inNumber = false
                shape.append(character)
            }
            previous = character
        }
        return shape
    }
}
