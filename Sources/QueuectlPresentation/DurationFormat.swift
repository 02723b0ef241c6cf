// Times and numbers as queuectl prints and reads them: clock form (m:ss, h:mm:ss) like mpc, plain decimals
// without Foundation (queuectl links no Foundation: it starts in a few milliseconds from scripts).

public enum DurationFormat {
    /// 42 → "0:42", 130.9 → "2:10", 3723 → "1:02:03", -5 → "-0:05". Seconds are truncated, as players
    /// show them (a clip of 2:09.9 is still "2:09" until it reaches 2:10). Non-finite → "-:--".
    public static func clock(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "-:--" }
        let sign = seconds < 0 ? "-" : ""
        let whole = Int64(min(abs(seconds), 9e15).rounded(.down))
        let hours = whole / 3600
        let minutes = (whole % 3600) / 60
        let secs = whole % 60
        if hours > 0 { return "\(sign)\(hours):\(twoDigits(minutes)):\(twoDigits(secs))" }
        return "\(sign)\(minutes):\(twoDigits(secs))"
    }

    /// Parses "42", "42.5", "1:30", "1:02:03", "0:05.5" (no sign) into seconds; minutes and seconds after
    /// a colon must be below 60 so that a typo like "1:75" is refused rather than guessed at.
    public static func parse(_ text: String) -> Double? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard (1...3).contains(parts.count), let last = parts.last, isDecimal(last), let seconds = Double(last)
        else { return nil }
        if parts.count == 1 { return seconds }
        guard seconds < 60 else { return nil }
        var total = seconds
        var scale = 60.0
        for (offset, part) in parts.dropLast().reversed().enumerated() {
            guard !part.isEmpty, part.allSatisfy(\.isASCII), part.allSatisfy(\.isNumber), let value = Double(part)
            else { return nil }
            // Minutes below 60 only when an hours field follows.
            if offset == 0, parts.count == 3, value >= 60 { return nil }
            total += value * scale
            scale *= 60
        }
        return total
    }

    /// A length as people write one: the clock forms `parse` reads, or numbers with units, "10m", "2h",
    /// "45s", "1h30m", "1.5h". Nil for anything else (no sign, no unit twice).
    public static func parseSpan(_ text: String) -> Double? {
        if let clock = parse(text) { return clock }
        var total = 0.0
        var number = ""
        var usedUnits: Set<Character> = []
        for character in text {
            if character.isASCII && (character.isNumber || character == ".") {
                number.append(character)
                continue
            }
            let scale: Double
            switch character {
            case "h": scale = 3600
            case "m": scale = 60
            case "s": scale = 1
            default: return nil
            }
            guard isDecimal(number), let value = Double(number), !usedUnits.contains(character) else { return nil }
            usedUnits.insert(character)
            total += value * scale
            number = ""
        }
        guard number.isEmpty, !usedUnits.isEmpty else { return nil }
        return total
    }

    /// A decimal with at most `maxFractionDigits` digits and at least `minFractionDigits`:
    /// decimal(1, min 1) → "1.0", decimal(1.25) → "1.25", decimal(10) → "10".
    public static func decimal(_ value: Double, maxFractionDigits: Int = 2, minFractionDigits: Int = 0) -> String {
        guard value.isFinite else { return String(describing: value) }
        var scale: Int64 = 1
        for _ in 0..<maxFractionDigits { scale *= 10 }
        let scaled = Int64((abs(value) * Double(scale)).rounded())
        let sign = value < 0 && scaled != 0 ? "-" : ""
        var fraction = String(scaled % scale)
        fraction = String(repeating: "0", count: max(0, maxFractionDigits - fraction.count)) + fraction
        while fraction.count > minFractionDigits, fraction.hasSuffix("0") { fraction.removeLast() }
        let integer = String(scaled / scale)
        return fraction.isEmpty ? sign + integer : sign + integer + "." + fraction
    }

    /// Seconds for messages: 10 → "10", 0.5 → "0.5".
    public static func seconds(_ value: Double) -> String { decimal(value, maxFractionDigits: 3) }

    /// Loop counts as the API counts them: 0 → "∞".
    public static func loops(_ count: Int64) -> String { count == 0 ? "∞" : String(count) }

    private static func twoDigits(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }

    private static func isDecimal(_ text: String) -> Bool {
        !text.isEmpty && text.first != "." && text.last != "."
            && text.allSatisfy { $0 == "." || ($0.isASCII && $0.isNumber) }
            && text.filter { $0 == "." }.count <= 1
    }
}
