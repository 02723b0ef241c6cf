// Trigger rules as pure code: what a line says, what a match's groups make of the action, which rules an
// input fires (a webhook's secret compared whole), and cooldowns.

import JSONText
import Testing
import Triggers

@Suite struct TriggerRuleTests {
    @Test func rulesReadAsWrittenAndActionsBecomeCalls() throws {
        let key = try TriggerRule(parsing: "key=F1 -> interrupt /srv/promo.mp4 loops=1")
        #expect(key.source == .key("F1") && key.cooldown == 0 && !key.ignoreWhilePlaying)
        let call = try TriggerAction.call(key.action, groups: [])
        #expect(call.method == "queue.interrupt" && JSON.string(.object(call.params)) == #"{"item":{"uri":"/srv/promo.mp4"},"loops":1}"#)

        let serial = try TriggerRule(parsing: #"serial=/dev/ttyUSB0 match="XR\[PU(\d+)\]" cooldown=500ms -> play-id $1"#)
        #expect(serial.source == .serial(path: "/dev/ttyUSB0", pattern: #"XR\[PU(\d+)\]"#) && serial.cooldown == 0.5)
        let fired = TriggerMatch.matches(.line(path: "/dev/ttyUSB0", text: "noise XR[PU42] more"), rules: [serial])
        #expect(fired.count == 1 && fired.first?.groups == ["42"])
        let play = try TriggerAction.call(serial.action, groups: fired[0].groups)
        #expect(play.method == "player.play" && play.params["id"]?.intValue == 42)
        #expect(TriggerMatch.matches(.line(path: "/dev/ttyUSB0", text: "XR[PUx]"), rules: [serial]).isEmpty)
        #expect(TriggerMatch.matches(.line(path: "/dev/ttyUSB1", text: "XR[PU1]"), rules: [serial]).isEmpty)

        let raw = try TriggerRule(parsing: #"mqtt=lights while-playing=ignore -> call overlay.update {"id": 3, "visible": false}"#)
        let overlay = try TriggerAction.call(raw.action, groups: [])
        #expect(overlay.method == "overlay.update" && overlay.params["visible"]?.boolValue == false && raw.ignoreWhilePlaying)
        let evdev = try TriggerRule(parsing: "evdev=/dev/input/event3 code=KEY_ENTER -> next")
        #expect(TriggerMatch.matches(.evdev(path: "/dev/input/event3", code: 28), rules: [evdev]).count == 1)
        #expect(TriggerMatch.matches(.evdev(path: "/dev/input/event3", code: 59), rules: [evdev]).isEmpty)
    }

    @Test func badRulesSayWhy() {
        for (line, words) in [
            ("key=F1 next", "->"), ("volume=3 -> next", "no input"), ("key=F1 -> jump", "no action"),
            ("key=F1 colour=red -> next", "colour"), (#"serial=/dev/x match="(" -> next"#, "regular expression"),
            ("evdev=/dev/input/event0 code=KEY_NOPE -> next", "KEY_NOPE"), ("key=F1 cooldown=soon -> next", "cooldown"),
            ("webhook=a/b -> next", "name"), ("key=F1 -> play-id x", "whole number"), ("key=F1 -> call x {}", "method"),
            ("key=F1 -> call a.b [1]", "JSON object"), ("key=F1 -> call outputs.set {}", "not from a trigger"),
            ("mqtt=x -> call triggers.set {\"triggers\": []}", "not from a trigger"), (#"key=F1 match="open -> next"#, "quote"),
        ] {
            do {
                _ = try TriggerRule(parsing: line)
                Issue.record("\(line) was taken")
            } catch {
                #expect(error.description.contains(words), "\(line): \(error)")
            }
        }
    }

    @Test func aWebhookNeedsItsOwnSecretWhenOneIsGivenAndCooldownsHold() throws {
        let rules = [try TriggerRule(parsing: "webhook=promo secret=s3cret-key -> next"), try TriggerRule(parsing: "mqtt=promo -> pause")]
        #expect(TriggerMatch.matches(.fired(name: "promo", via: .webhook, secret: "s3cret-key"), rules: rules).map(\.index) == [0])
        #expect(TriggerMatch.matches(.fired(name: "promo", via: .webhook, secret: "s3cre"), rules: rules).isEmpty)
        #expect(TriggerMatch.matches(.fired(name: "promo", via: .webhook, secret: nil), rules: rules).map(\.index) == [0])
        #expect(TriggerMatch.matches(.fired(name: "promo", via: .mqtt, secret: nil), rules: rules).map(\.index) == [1])
        #expect(rules[0].shown == "webhook=promo secret=… -> next", "the secret stays out of listings and logs")
        #expect(throws: TriggerRuleError.self) { try TriggerRule(parsing: "webhook=promo secret= -> next") }
        #expect(throws: TriggerRuleError.self) { try TriggerRule(parsing: "webhook=promo secret=short -> next") }
        // What a device sent never becomes more of a call than a value.
        let scanner = try TriggerRule(parsing: #"serial=/dev/ttyACM0 match="CODE:(.+)" -> call overlay.update {"id": 3, "text": "$1"}"#)
        #expect((try? TriggerAction.call(scanner.action, groups: ["A-17"]))?.params["text"]?.stringValue == "A-17")
        for hostile in [#"x", "visible": false, "y"#, "../../etc/passwd", "a b", "a/b", "\u{0}"] {
            #expect(throws: TriggerRuleError.self, "\(hostile)") { try TriggerAction.call(scanner.action, groups: [hostile]) }
        }
        var gate = TriggerGate()
        let admitted = [
            gate.admit(0, cooldown: 2, now: 10), gate.admit(0, cooldown: 2, now: 11.9), gate.admit(1, cooldown: 2, now: 11.9),
            gate.admit(0, cooldown: 2, now: 12),
        ]
        #expect(admitted == [true, false, true, true], "each rule cools down on its own")
    }
}
