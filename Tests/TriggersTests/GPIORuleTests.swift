// GPIO as pure code (this machine has no GPIO chip and no gpio-sim: no /dev/gpiochip*, no configfs): what a
// `gpio=` rule says, and which edges of a recorded button trace fire it — a press whose contacts bounce fires
// once, at its first edge; the release's bounces fire nothing; a second press after the debounce fires again.
// And the outputs that set or pulse a line or publish through the fleet bridge.

import GPIO
import Testing
import Triggers

@Suite struct GPIORuleTests {
    @Test func gpioRulesReadAsWritten() throws {
        let rule = try TriggerRule(parsing: "gpio=gpiochip0:17 edge=falling debounce=50ms bias=pull-up -> next")
        #expect(rule.source == .gpio(line: GPIOLineName("gpiochip0:17")!, edges: .falling, debounce: 0.05, bias: .pullUp))
        let defaults = try TriggerRule(parsing: "gpio=/dev/gpiochip1:BUTTON -> pause")
        #expect(defaults.source == .gpio(line: GPIOLineName("/dev/gpiochip1:BUTTON")!, edges: .falling, debounce: 0.05, bias: .asIs))
        #expect(GPIOLineName("/dev/gpiochip1:BUTTON")?.chip == "/dev/gpiochip1")
        for (line, words) in [
            ("gpio=17 -> next", "CHIP:LINE"), ("gpio=gpiochip0: -> next", "CHIP:LINE"),
            ("gpio=gpiochip0:17 edge=up -> next", "edge="), ("gpio=gpiochip0:17 bias=strong -> next", "bias="),
            ("gpio=gpiochip0:17 debounce=forever -> next", "debounce="), ("gpio=gpiochip0:17 debounce=11s -> next", "debounce="),
            ("gpio=gpiochip0:17 code=KEY_A -> next", "code="),
        ] {
            #expect(throws: TriggerRuleError.self, "\(line)") { try TriggerRule(parsing: line) }
            do { _ = try TriggerRule(parsing: line) } catch { #expect(error.description.contains(words), "\(line): \(error)") }
        }
        // One line is requested once: its rules ask one bias.
        let pullUp = try TriggerRule(parsing: "gpio=gpiochip0:17 bias=pull-up -> next")
        let pullDown = try TriggerRule(parsing: "gpio=gpiochip0:17 edge=rising bias=pull-down -> pause")
        #expect(TriggerRule.conflict(in: [pullUp, rule]) == nil)
        #expect(TriggerRule.conflict(in: [pullUp, pullDown])?.contains("one line, one bias") == true)
    }

    /// A recorded press and release of a push button to ground with a pull-up (kernel timestamps, seconds):
    /// the press bounces four times within 3 ms, the release three times within 2 ms.
    static let pressAndRelease: [(GPIOEdge, Double)] = [
        (.falling, 10.000), (.rising, 10.0004), (.falling, 10.0011), (.rising, 10.0019), (.falling, 10.0030),
        (.rising, 10.200), (.falling, 10.2006), (.rising, 10.2013),
    ]

    @Test func aBouncingButtonFiresOncePerPress() throws {
        let line = GPIOLineName("gpiochip0:17")!
        let rules = [
            try TriggerRule(parsing: "gpio=gpiochip0:17 edge=falling debounce=50ms -> next"),
            try TriggerRule(parsing: "gpio=gpiochip0:17 edge=both debounce=20ms -> pause"),
            try TriggerRule(parsing: "gpio=gpiochip0:18 -> previous"),
        ]
        var debounces: [Int: EdgeDebounce] = [:]
        var fired: [(rule: Int, time: Double, edge: String)] = []
        func feed(_ trace: [(GPIOEdge, Double)], offset: Double) {
            for (edge, time) in trace {
                for match in TriggerMatch.gpioMatches(line: line, edge: edge, time: time + offset, rules: rules, debounces: &debounces) {
                    fired.append((match.index, time + offset, match.groups.first ?? ""))
                }
            }
        }
        let trace = Self.pressAndRelease
        feed(trace, offset: 0)
        // Rule 0 (falling, 50 ms): the first contact only. Rule 1 (both, 20 ms): the press and the release,
        // each at its first edge. Rule 2 watches another line.
        #expect(fired.filter { $0.rule == 0 }.map(\.time) == [10.000])
        #expect(fired.filter { $0.rule == 1 }.map(\.edge) == ["falling", "rising"], "\(fired)")
        #expect(!fired.contains { $0.rule == 2 })
        // A second press 1 s later fires rule 0 again; one 30 ms after the last bounce does not (quiet < 50 ms).
        fired = []
        feed([(.falling, 11.0)], offset: 0)
        feed([(.rising, 11.02), (.falling, 11.05)], offset: 0)
        #expect(fired.filter { $0.rule == 0 }.map(\.time) == [11.0])
        // No debounce: every falling edge counts.
        var plain = EdgeDebounce()
        #expect(trace.filter { plain.admit($0.0, at: $0.1, edges: .falling, debounce: 0) }.count == 4)
    }

    @Test func outputsSetPulseAndPublish() throws {
        let set = try OutputRule(parsing: "on=start title=Film* -> gpio gpiochip0:22 1")
        #expect(set.action == .gpio(line: GPIOLineName("gpiochip0:22")!, setting: .high))
        let pulse = try OutputRule(parsing: "on=end -> gpio gpiochip0:23 pulse=200ms")
        #expect(pulse.action == .gpio(line: GPIOLineName("gpiochip0:23")!, setting: .pulse(0.2)))
        let mqtt = try OutputRule(parsing: #"on=start uri=*/film*.mp4 -> mqtt lights/hall "dim 20""#)
        #expect(mqtt.action == .mqtt(topic: "lights/hall", payload: "dim 20"))
        for line in [
            "on=end -> gpio gpiochip0:23 2", "on=end -> gpio gpiochip0:23 pulse=0s", "on=end -> gpio gpiochip0:23 pulse=1h",
            "on=end -> gpio 23 1", "on=end -> mqtt lights/# on", "on=end -> mqtt lights/+/x on", "on=end -> mqtt ../x on",
            "on=end -> mqtt /lights on", "on=end -> mqtt a//b on", "on=end -> mqtt lights", "on=end -> mqtt a/b/c/d/e/f/g/h/i on",
        ] {
            #expect(throws: TriggerRuleError.self, "\(line)") { try OutputRule(parsing: line) }
        }
    }
}
