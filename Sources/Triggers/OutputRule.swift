// Output rules: when a play of a matching item starts or ends, do something outside the screen — run a
// command (no shell, a timeout, its own process group, as the display-power commands run), write a line
// to a serial port, set or pulse a GPIO line, or publish an MQTT message through the fleet bridge — e.g. a
// museum's lights dimmed while a film plays:
//
//     on=start uri=*/film*.mp4 -> command /usr/local/bin/lights dim
//     on=end uri=*/film*.mp4 -> serial /dev/ttyUSB0 "LIGHTS ON"
//     on=start title=Film* -> gpio gpiochip0:22 1
//     on=end -> gpio gpiochip0:23 pulse=200ms
//     on=start uri=*/film*.mp4 -> mqtt lights "dim 20"
//
// Pure: the rule, and which plays it matches (shell-style patterns: * and ?).

import GPIO
import SystemSupport

public struct OutputRule: Sendable, Equatable {
    public enum Moment: String, Sendable { case start, end }
    public enum Action: Sendable, Equatable {
        case command([String])
        case serial(path: String, line: String)
        /// The line set to 1 or 0, or to 1 for `pulse` seconds and back to 0.
        case gpio(line: GPIOLineName, setting: GPIOSetting)
        /// Published by the fleet bridge on `queued/<player>/output/TOPIC` (the daemon itself has no network).
        case mqtt(topic: String, payload: String)
    }

    public enum GPIOSetting: Sendable, Equatable {
        case high, low
        case pulse(Double)
    }

    public var moment: Moment
    public var uri: String?
    public var title: String?
    public var action: Action
    public var line: String

    public init(parsing line: String) throws(TriggerRuleError) {
        self.line = line.trimmingSpaces
        guard let arrow = self.line.firstRange(of: "->") else { throw TriggerRuleError("an output is on=start|end [uri=…] [title=…] -> ACTION") }
        var options: [String: String] = [:]
        for word in try TriggerRule.words(String(self.line[..<arrow.lowerBound])) {
            guard let equals = word.firstIndex(of: "=") else { throw TriggerRuleError("\(word): an option is name=value") }
            options[String(word[..<equals])] = String(word[word.index(after: equals)...])
        }
        guard let moment = options.removeValue(forKey: "on").flatMap(Moment.init(rawValue:)) else {
            throw TriggerRuleError("an output says on=start or on=end")
        }
        self.moment = moment
        uri = options.removeValue(forKey: "uri")
        title = options.removeValue(forKey: "title")
        if let unknown = options.keys.sorted().first { throw TriggerRuleError("\(unknown)= is no option of an output (on, uri, title)") }
        let words = try TriggerRule.words(String(self.line[arrow.upperBound...]))
        guard let verb = words.first else { throw TriggerRuleError("the action is empty") }
        switch verb {
        case "command":
            let command = Array(words.dropFirst())
            guard let program = command.first, program.hasPrefix("/") else { throw TriggerRuleError("command takes a program by its full path, then its words") }
            action = .command(command)
        case "serial":
            guard words.count == 3 else { throw TriggerRuleError("serial takes a device and a line (quoted if it has spaces)") }
            action = .serial(path: words[1], line: words[2])
        case "gpio":
            guard words.count == 3, let line = GPIOLineName(words[1]) else { throw TriggerRuleError("gpio takes CHIP:LINE and 1, 0 or pulse=DURATION") }
            switch words[2] {
            case "1": action = .gpio(line: line, setting: .high)
            case "0": action = .gpio(line: line, setting: .low)
            case let pulse where pulse.hasPrefix("pulse="):
                guard let seconds = TriggerRule.seconds(String(pulse.dropFirst(6))), seconds > 0, seconds <= 10 else {
                    throw TriggerRuleError("\(pulse): a pulse lasts more than 0 and at most 10 s (200ms, 1s)")
                }
                action = .gpio(line: line, setting: .pulse(seconds))
            default:
                throw TriggerRuleError("gpio sets 1, 0 or pulse=DURATION, not \(words[2])")
            }
        case "mqtt":
            guard words.count == 3 else { throw TriggerRuleError("mqtt takes a topic and a payload (quoted if it has spaces)") }
            guard Self.isTopic(words[1]) else {
                throw TriggerRuleError("an output's topic is up to 8 levels of letters, digits and - _ . split by / (no wildcards)")
            }
            guard words[2].utf8.count <= 4096 else { throw TriggerRuleError("an output's payload is at most 4 KiB") }
            action = .mqtt(topic: words[1], payload: words[2])
        default:
            throw TriggerRuleError("\(verb) is no output action (command, serial, gpio, mqtt)")
        }
    }

    /// The line as listed (outputs.list, the page, the fleet) and logged: a command's words after its program
    /// left out, since they may carry a credential (`curl -H "Authorization: …"`).
    public var shown: String {
        guard case .command(let words) = action, words.count > 1, let arrow = line.firstRange(of: "->") else { return line }
        return String(line[..<arrow.upperBound]) + " command " + words[0] + " …"
    }

    /// Whether a play of an item with `uri` and `title` matches.
    public func matches(uri: String, title: String?) -> Bool {
        if let pattern = self.uri, !Self.glob(pattern, uri) { return false }
        if let pattern = self.title, !Self.glob(pattern, title ?? "") { return false }
        return true
    }

    /// A topic under the player's own `output/` level: named levels only, so a rule cannot reach another
    /// player's topics or subscribe-style wildcards.
    static func isTopic(_ topic: String) -> Bool {
        let levels = topic.split(separator: "/", omittingEmptySubsequences: false)
        return (1...8).contains(levels.count) && levels.allSatisfy { TriggerRule.isName(String($0)) && $0 != "." && $0 != ".." }
    }

    /// Shell-style matching of the whole text: `*` any run of characters, `?` one.
    static func glob(_ pattern: String, _ text: String) -> Bool {
        let p = Array(pattern), t = Array(text)
        var (pi, ti, star, mark) = (0, 0, -1, 0)
        while ti < t.count {
            if pi < p.count && (p[pi] == "?" || p[pi] == t[ti]) {
                pi += 1
                ti += 1
            } else if pi < p.count && p[pi] == "*" {
                star = pi
                mark = ti
                pi += 1
            } else if star >= 0 {
                pi = star + 1
                mark += 1
                ti = mark
            } else {
                return false
            }
        }
        while pi < p.count && p[pi] == "*" { pi += 1 }
        return pi == p.count
    }
}
