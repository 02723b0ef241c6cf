// Trigger rules: an input (a key, a line on a serial port, an input device's key, a webhook, an MQTT topic)
// and the JSON-RPC call it makes, one rule per line as the config file and triggers.set take them:
//
//     key=F1 -> interrupt /srv/promo.mp4 loops=1
//     serial=/dev/ttyUSB0 match="XR\[PU(\d+)\]" -> play-id $1
//     evdev=/dev/input/event3 code=KEY_ENTER cooldown=2s -> next
//     webhook=promo secret=s3cret while-playing=ignore -> interrupt /srv/promo.mp4
//     mqtt=lights -> call overlay.update {"id": 3, "visible": false}
//     gpio=gpiochip0:17 edge=falling debounce=50ms bias=pull-up -> next
//
// Pure: parsing, the action's call once a match's groups are put in, and nothing else.

import GPIO
import JSONText

/// Where a trigger comes from.
public enum TriggerSource: Sendable, Equatable, Hashable {
    /// A key pressed in the daemon's window, by SDL's key name ("F1", "Space", "A").
    case key(String)
    /// A line read from a serial port (or any character device); `pattern` must match it (a regular
    /// expression; its groups are $1…$9 in the action).
    case serial(path: String, pattern: String)
    /// A key pressed on an input device (evdev), by its Linux name ("KEY_F1", "BTN_0").
    case evdev(path: String, code: String)
    /// `POST /api/trigger/NAME` on queued-web (its token, or this rule's own secret), or triggers.fire.
    case webhook(name: String, secret: String?)
    /// A message on `queued/<player>/trigger/NAME` or a group's, through the fleet bridge.
    case mqtt(name: String)
    /// An edge on a GPIO line (libgpiod): the edges wanted, counted only after `debounce` seconds without
    /// any edge, with the line's bias asked for when it is opened.
    case gpio(line: GPIOLineName, edges: GPIOEdges, debounce: Double, bias: GPIOBias)

    /// The name a webhook or MQTT message fires (nil for local inputs).
    public var firedName: String? {
        switch self {
        case .webhook(let name, _), .mqtt(let name): name
        default: nil
        }
    }
}

public struct TriggerRule: Sendable, Equatable {
    public var source: TriggerSource
    /// The action as written (`next`, `interrupt URI loops=1`, `call METHOD {json}`), $1… not yet put in.
    public var action: String
    /// After firing, the rule is deaf this long (seconds).
    public var cooldown: Double
    /// While the item this rule's last interrupt started still plays, the rule does nothing.
    public var ignoreWhilePlaying: Bool
    /// The line it was read from, as given (triggers.list answers with it).
    public var line: String

    /// The line with a webhook's secret left out: what triggers.list answers and the log says.
    public var shown: String {
        line.replacing(#/secret=("[^"]*"|\S+)/#, with: "secret=…")
    }

    /// Reads one rule (`trigger` lines of the config without the word `trigger`). Throws with the reason.
    public init(parsing line: String) throws(TriggerRuleError) {
        self.line = line.trimmingSpaces
        guard let arrow = self.line.firstRange(of: "->") else { throw TriggerRuleError("a rule is INPUT -> ACTION (no -> in \(self.line))") }
        let input = try Self.words(String(self.line[..<arrow.lowerBound]))
        action = String(self.line[arrow.upperBound...]).trimmingSpaces
        guard let first = input.first, let equals = first.firstIndex(of: "=") else {
            throw TriggerRuleError("the input is key=, serial=, evdev=, gpio=, webhook= or mqtt=")
        }
        let kind = String(first[..<equals]), value = String(first[first.index(after: equals)...])
        var options: [String: String] = [:]
        for word in input.dropFirst() {
            guard let equals = word.firstIndex(of: "=") else { throw TriggerRuleError("\(word): an option is name=value") }
            options[String(word[..<equals])] = String(word[word.index(after: equals)...])
        }
        func take(_ name: String) -> String? { options.removeValue(forKey: name) }
        guard !value.isEmpty else { throw TriggerRuleError("\(kind)= needs a value") }
        switch kind {
        case "key":
            source = .key(value)
        case "serial":
            let pattern = take("match") ?? ".+"
            do { _ = try Regex(pattern) } catch { throw TriggerRuleError("match=\(pattern) is not a regular expression: \(error)") }
            source = .serial(path: value, pattern: pattern)
        case "evdev":
            guard let code = take("code") else { throw TriggerRuleError("evdev= needs code=KEY_…") }
            guard EvdevKeys.code(named: code) != nil else { throw TriggerRuleError("code=\(code) is no key this daemon knows (KEY_A, KEY_F1, BTN_0…)") }
            source = .evdev(path: value, code: code)
        case "webhook":
            guard Self.isName(value) else { throw TriggerRuleError("a webhook's name is 1 to 64 of letters, digits and - _ .") }
            let secret = take("secret")
            guard secret.map({ $0.utf8.count >= 8 }) ?? true else { throw TriggerRuleError("a webhook's secret= is at least 8 characters") }
            source = .webhook(name: value, secret: secret)
        case "mqtt":
            guard Self.isName(value) else { throw TriggerRuleError("an MQTT trigger's name is 1 to 64 of letters, digits and - _ .") }
            source = .mqtt(name: value)
        case "gpio":
            guard let line = GPIOLineName(value) else { throw TriggerRuleError("gpio= is CHIP:LINE (gpiochip0:17)") }
            let edgeText = take("edge") ?? "falling"
            guard let edges = GPIOEdges(rawValue: edgeText) else { throw TriggerRuleError("edge= is falling, rising or both") }
            let biasText = take("bias") ?? "as-is"
            guard let bias = GPIOBias(rawValue: biasText) else { throw TriggerRuleError("bias= is pull-up, pull-down, disable or as-is") }
            let debounceText = take("debounce") ?? "50ms"
            guard let debounce = Self.seconds(debounceText), debounce >= 0, debounce <= 10 else {
                throw TriggerRuleError("debounce=\(debounceText) is not a duration up to 10 s (0, 20ms, 0.1s)")
            }
            source = .gpio(line: line, edges: edges, debounce: debounce, bias: bias)
        default:
            throw TriggerRuleError("\(kind)= is no input (key, serial, evdev, gpio, webhook, mqtt)")
        }
        cooldown = 0
        if let text = take("cooldown") {
            guard let seconds = Self.seconds(text), seconds >= 0, seconds <= 86_400 else {
                throw TriggerRuleError("cooldown=\(text) is not a duration (500ms, 2s, 1m)")
            }
            cooldown = seconds
        }
        ignoreWhilePlaying = false
        if let text = take("while-playing") {
            guard text == "ignore" || text == "fire" else { throw TriggerRuleError("while-playing= is ignore or fire") }
            ignoreWhilePlaying = text == "ignore"
        }
        if let unknown = options.keys.sorted().first { throw TriggerRuleError("\(unknown)= is no option of \(kind)=") }
        // The action with every group as 0: what it says must be a call, whatever the groups hold.
        _ = try TriggerAction.call(action, groups: Array(repeating: "0", count: 9))
    }

    /// Rules that cannot stand together: a GPIO line is requested once, so every rule on it asks the same
    /// bias (its lines named alike: `gpiochip0:17` and `0:17` would be two requests of one line, and the
    /// second is refused by the kernel). Nil when they can; else why not.
    public static func conflict(in rules: [TriggerRule]) -> String? {
        var bias: [GPIOLineName: GPIOBias] = [:]
        for rule in rules {
            guard case .gpio(let line, _, _, let asked) = rule.source else { continue }
            if let first = bias[line], first != asked {
                return "gpio=\(line) is asked with bias=\(first.rawValue) and bias=\(asked.rawValue): one line, one bias"
            }
            bias[line] = asked
        }
        return nil
    }

    static func isName(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count)
            && name.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || $0 == 0x2D || $0 == 0x5F || $0 == 0x2E }
    }

    /// "500ms", "2s", "1.5s", "1m", or a bare number of seconds.
    static func seconds(_ text: String) -> Double? {
        if text.hasSuffix("ms") { return Double(text.dropLast(2)).map { $0 / 1000 } }
        if text.hasSuffix("s") { return Double(text.dropLast()) }
        if text.hasSuffix("m") { return Double(text.dropLast()).map { $0 * 60 } }
        return Double(text)
    }

    /// Words split at spaces; "…" keeps spaces, and `\"` inside is a quote (other backslashes stay, for
    /// regular expressions).
    static func words(_ text: String) throws(TriggerRuleError) -> [String] {
        var words: [String] = []
        var word = ""
        var quoted = false
        var started = false
        var characters = text.makeIterator()
        while let character = characters.next() {
            if quoted {
                if character == "\\" {
                    guard let next = characters.next() else { break }
                    if next != "\"" { word.append("\\") }
                    word.append(next)
                } else if character == "\"" {
                    quoted = false
                } else {
                    word.append(character)
                }
            } else if character == "\"" {
                quoted = true
                started = true
            } else if character == " " || character == "\t" {
                if started || !word.isEmpty { words.append(word) }
                word = ""
                started = false
            } else {
                word.append(character)
            }
        }
        guard !quoted else { throw TriggerRuleError("a quote is not closed") }
        if started || !word.isEmpty { words.append(word) }
        return words
    }
}

public struct TriggerRuleError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

extension String {
    var trimmingSpaces: String {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" || last == "\r" { text.removeLast() }
        return String(text)
    }
}
