// Output rules: when a play of a matching item starts or ends, do something outside the screen — run a
// command (no shell, a timeout, its own process group, as the display-power commands run) or write a line
// to a serial port — e.g. a museum's lights dimmed while a film plays:
//
//     on=start uri=*/film*.mp4 -> command /usr/local/bin/lights dim
//     on=end uri=*/film*.mp4 -> serial /dev/ttyUSB0 "LIGHTS ON"
//
// Pure: the rule, and which plays it matches (shell-style patterns: * and ?).

import SystemSupport

public struct OutputRule: Sendable, Equatable {
    public enum Moment: String, Sendable { case start, end }
    public enum Action: Sendable, Equatable {
        case command([String])
        case serial(path: String, line: String)
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
        default:
            throw TriggerRuleError("\(verb) is no output action (command, serial)")
        }
    }

    /// Whether a play of an item with `uri` and `title` matches.
    public func matches(uri: String, title: String?) -> Bool {
        if let pattern = self.uri, !Self.glob(pattern, uri) { return false }
        if let pattern = self.title, !Self.glob(pattern, title ?? "") { return false }
        return true
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
