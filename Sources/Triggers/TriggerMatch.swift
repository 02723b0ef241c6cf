// Which rules an input fires, and whether a rule may fire now (its cooldown). Pure values: the runner owns
// them and carries out what they return.

import GPIO

public enum TriggerInput: Sendable, Equatable {
    case key(String)
    case line(path: String, text: String)
    case evdev(path: String, code: UInt16)
    /// An edge of a GPIO line at `time` (the kernel's monotonic stamp, seconds).
    case gpio(line: GPIOLineName, edge: GPIOEdge, time: Double)
    /// triggers.fire: a webhook (queued-web) or an MQTT message (the bridge), with the secret it carried.
    case fired(name: String, via: Via, secret: String?)

    public enum Via: String, Sendable { case webhook, mqtt }
}

/// The serial rules' patterns, compiled once when the rules are set (not for every line a device sends).
public struct CompiledPatterns: @unchecked Sendable {
    // Regex is a value never mutated once made here: safe to read from any thread.
    private let byPattern: [String: Regex<AnyRegexOutput>]

    public init(_ rules: [TriggerRule]) {
        var byPattern: [String: Regex<AnyRegexOutput>] = [:]
        for rule in rules {
            if case .serial(_, let pattern) = rule.source, byPattern[pattern] == nil { byPattern[pattern] = try? Regex(pattern) }
        }
        self.byPattern = byPattern
    }

    subscript(_ pattern: String) -> Regex<AnyRegexOutput>? { byPattern[pattern] }
}

public enum TriggerMatch {
    /// The rules `input` fires, by index, each with its match's groups ($1…).
    public static func matches(
        _ input: TriggerInput, rules: [TriggerRule], patterns: CompiledPatterns? = nil
    ) -> [(index: Int, groups: [String])] {
        let patterns = patterns ?? CompiledPatterns(rules)
        return rules.enumerated().compactMap { index, rule in
            switch (rule.source, input) {
            case (.key(let name), .key(let pressed)):
                return name.lowercased() == pressed.lowercased() ? (index, []) : nil
            case (.serial(let path, let pattern), .line(let from, let text)):
                guard path == from, let regex = patterns[pattern], let match = try? regex.firstMatch(in: text) else { return nil }
                let groups = (1..<max(1, match.output.count)).map { match.output[$0].substring.map(String.init) ?? "" }
                return (index, groups)
            case (.evdev(let path, let name), .evdev(let from, let code)):
                return path == from && EvdevKeys.code(named: name) == code ? (index, []) : nil
            case (.webhook(let name, let secret), .fired(let fired, .webhook, let given)):
                guard name == fired else { return nil }
                // A secret given must be the rule's; none given: the caller is trusted (the socket, a signed-in page).
                if let given { guard let secret, sameText(given, secret) else { return nil } }
                return (index, [])
            case (.mqtt(let name), .fired(let fired, .mqtt, _)):
                return name == fired ? (index, []) : nil
            default:
                return nil
            }
        }
    }

    /// The rules an edge of a GPIO line fires, each with the edge as $1 ("falling", "rising"). Every GPIO rule
    /// on the line hears the edge (`debounces`, by rule index, remembers it), whether it fires or not.
    public static func gpioMatches(
        line: GPIOLineName, edge: GPIOEdge, time: Double, rules: [TriggerRule], debounces: inout [Int: EdgeDebounce]
    ) -> [(index: Int, groups: [String])] {
        var fired: [(index: Int, groups: [String])] = []
        for (index, rule) in rules.enumerated() {
            guard case .gpio(let ruleLine, let edges, let debounce, _) = rule.source, ruleLine == line else { continue }
            var state = debounces[index] ?? EdgeDebounce()
            if state.admit(edge, at: time, edges: edges, debounce: debounce) { fired.append((index, [edge.rawValue])) }
            debounces[index] = state
        }
        return fired
    }

    /// Compares without stopping at the first difference (a secret's timing says nothing of it).
    static func sameText(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        var difference = x.count ^ y.count
        for index in 0..<max(x.count, y.count) {
            difference |= Int((index < x.count ? x[index] : 0) ^ (index < y.count ? y[index] : 0))
        }
        return difference == 0
    }
}

/// When each rule last fired: a rule in its cooldown lets an input pass unheard.
public struct TriggerGate: Sendable {
    private var lastFired: [Int: Double] = [:]
    public init() {}

    /// Whether rule `index` fires at `now` (monotonic seconds); if so, its cooldown starts.
    public mutating func admit(_ index: Int, cooldown: Double, now: Double) -> Bool {
        if let last = lastFired[index], now - last < cooldown { return false }
        lastFired[index] = now
        return true
    }

    /// The rules changed: every cooldown starts over.
    public mutating func reset() { lastFired = [:] }
}
