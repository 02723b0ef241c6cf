// Triggers against the real daemon on Xvfb: a key typed into the window (xdotool), a line on a serial
// port (a pseudo-terminal pair from socat), a key from an input device (a recorded evdev event stream
// written into a FIFO: this machine has no /dev/uinput), and a named webhook through triggers.fire with its
// secret. Each one's interrupt or jump is found in what the daemon then plays and shows (screenshots read
// back), and the time from the input to the item's start is printed.

import Foundation
import Glibc
import JSONText
import QueueClient
import QueueRPC
import TestSupport
import Testing

@Suite(.serialized) struct TriggerDaemonTests {
    /// A pseudo-terminal pair from socat: `ttyDaemon` for the daemon, `ttyTest` for the test, in `directory`.
    static func serialPair(in directory: String) throws -> ChildProcess {
        let ports = try ChildProcess(
            try ChildProcess.resolve("socat"),
            ["pty,raw,echo=0,link=\(directory)/ttyDaemon", "pty,raw,echo=0,link=\(directory)/ttyTest"],
            stderrPath: directory + "/socat.log")
        guard waitUntil(timeout: 10, pollInterval: 0.05, { FileManager.default.fileExists(atPath: directory + "/ttyTest") }) else {
            _ = ports.terminate()
            throw TestSupportError.io("socat made no pseudo-terminal pair")
        }
        return ports
    }

    @Test(.timeLimit(.minutes(3))) func keysSerialLinesInputDevicesAndWebhooksFireTheirRules() throws {
        let scratch = try TemporaryDirectory(prefix: "queued-triggers")
        let xvfb = try XvfbServer(screen: "640x480x24")
        defer { xvfb.stop() }
        // The serial line: socat's two ends, the daemon on one, the test writing into the other.
        let ports = try Self.serialPair(in: scratch.path)
        defer { _ = ports.terminate() }
        let fifo = scratch.path + "/event-stream"
        #expect(mkfifo(fifo, 0o600) == 0)

        let red = try Fixtures.video(seconds: 2, hue: .red), green = try Fixtures.video(seconds: 2, hue: .green)
        let blue = try Fixtures.video(seconds: 1, hue: .blue), magenta = try Fixtures.video(seconds: 1, hue: .magenta)
        let daemon = try RunningDaemon(
            outputs: .null(untimed: false),
            [
                "--video", "sdl", "--video-driver", "x11", "--geometry", "320x240",
                "--trigger", "key=F1 -> interrupt \(blue) loops=1",
                "--trigger", #"serial=\#(scratch.path)/ttyDaemon match="PLAY(\d+)" -> play-id $1"#,
                "--trigger", "evdev=\(fifo) code=KEY_ENTER cooldown=1s -> previous",
                "--trigger", "webhook=promo secret=s3cret-key while-playing=ignore -> interrupt \(magenta)",
            ],
            environment: xvfb.environment)
        defer { daemon.stop() }
        let client = try daemon.client()
        let watcher = try daemon.client()
        _ = try watcher.call(API.EventsSubscribe.self, .init(events: [.itemStarted]))
        let added = try client.call(API.QueueAdd.self, .init(items: [RPCItemInput(uri: red, loops: 0), RPCItemInput(uri: green, loops: 0)]))
        _ = try client.call(API.PlayerPlay.self, .init())
        #expect(waitUntil(timeout: 20, pollInterval: 0.1) { AlertDaemonTests.uri(client) == red })
        #expect(try client.call(API.TriggersList.self, NoParams()).triggers.count == 4)

        /// Milliseconds from `input` to the first picture of the next play that starts (its itemStarted's
        /// `at`), and then whether that play is of `uri`; nil when none starts within 10 s.
        func latency(of uri: String, after input: () throws -> Void) throws -> Double? {
            while (try? watcher.nextNotification(timeout: 0.01)) != nil {}
            let sent = Date().timeIntervalSince1970
            try input()
            let seen = try collectNotifications(watcher, timeout: 10) { notes in notes.contains { $0.method == "event.itemStarted" } }
            guard let started = seen.first(where: { $0.method == "event.itemStarted" }), let at = started.params?["at"]?.doubleValue,
                AlertDaemonTests.uri(client) == uri
            else { return nil }
            return (at - sent) * 1000
        }

        // A key in the window: the pointer over it (no window manager gives focus), then F1.
        _ = try ChildProcess.run(try ChildProcess.resolve("xdotool"), ["mousemove", "100", "100"], environment: xvfb.environment)
        let key = try latency(of: blue) {
            _ = try ChildProcess.run(try ChildProcess.resolve("xdotool"), ["key", "F1"], environment: xvfb.environment)
        }
        #expect(key != nil, "F1 interrupts: \(daemon.log().suffix(2000))")
        #expect(waitUntil(timeout: 10, pollInterval: 0.1) { (try? AlertDaemonTests.isBlue(AlertDaemonTests.bottomColour(client))) == true })
        #expect(waitUntil(timeout: 10, pollInterval: 0.1) { AlertDaemonTests.uri(client) == red }, "back to the queue after the interrupt")

        // A serial line: its number is the item to jump to.
        let greenID = try #require(added.ids.last)
        let port = try #require(FileHandle(forWritingAtPath: scratch.path + "/ttyTest"))
        let serial = try latency(of: green) { port.write(Data("noise\r\nPLAY\(greenID)\r\n".utf8)) }
        #expect(serial != nil, "the serial line jumps: \(daemon.log().suffix(2000))")
        #expect(waitUntil(timeout: 10, pollInterval: 0.1) { (try? ZonesDaemonTests.hue(RotationDaemonTests.pixels(client), 160, 180)) == .green })

        // An input device's Enter (a press, its autorepeat and its release: one previous), then another in its
        // cooldown: nothing.
        #expect(waitUntil(timeout: 10, pollInterval: 0.05) { daemon.log().contains("trigger input \(fifo) open") })
        let device = try #require(FileHandle(forWritingAtPath: fifo))
        func event(type: UInt16, code: UInt16, value: Int32) -> [UInt8] {
            var bytes = [UInt8](repeating: 0, count: 16)
            bytes += withUnsafeBytes(of: type.littleEndian, Array.init) + withUnsafeBytes(of: code.littleEndian, Array.init)
            return bytes + withUnsafeBytes(of: value.littleEndian, Array.init)
        }
        let enter = event(type: 1, code: 28, value: 1) + event(type: 1, code: 28, value: 2) + event(type: 1, code: 28, value: 0)
            + event(type: 0, code: 0, value: 0)
        let evdev = try latency(of: red) { device.write(Data(enter)) }
        #expect(evdev != nil, "Enter goes back to the item before: \(daemon.log().suffix(2000))")
        device.write(Data(enter))
        #expect(waitUntil(timeout: 10, pollInterval: 0.05) { daemon.log().contains("code=KEY_ENTER cooldown=1s -> previous: cooling down") })
        #expect(AlertDaemonTests.uri(client) == red, "a second Enter within its cooldown does nothing")

        // A webhook by name: a wrong secret fires nothing, the right one its interrupt, and while that plays
        // the rule is deaf.
        #expect(try client.call(API.TriggersFire.self, .init(name: "promo", secret: "wrong")).fired == 0)
        #expect(try client.call(API.TriggersFire.self, .init(name: "nothing")).fired == 0)
        let webhook = try latency(of: magenta) { _ = try client.call(API.TriggersFire.self, .init(name: "promo", secret: "s3cret-key")) }
        #expect(webhook != nil)
        _ = try client.call(API.TriggersFire.self, .init(name: "promo"))
        #expect(waitUntil(timeout: 10, pollInterval: 0.05) { daemon.log().contains("what it started still plays") }, "\(daemon.log().suffix(1500))")
        print("trigger latency, input to the item's start (ms): key \(key.map { Int($0) } ?? -1), serial \(serial.map { Int($0) } ?? -1), evdev \(evdev.map { Int($0) } ?? -1), webhook \(webhook.map { Int($0) } ?? -1)")

        // triggers.set replaces every rule (read whole first) and keeps them.
        let bad = try client.call("triggers.set", ["triggers": ["key=F2 -> next", "key=F3 -> fly"]], expectingError: true)
        #expect(bad["code"]?.intValue == -32602 && (bad["message"]?.stringValue ?? "").contains("triggers[1]"), "\(bad)")
        #expect(try client.call(API.TriggersList.self, NoParams()).triggers.count == 4)
        let set = try client.call(API.TriggersSet.self, .init(triggers: ["key=F2 -> pause"]))
        #expect(set.triggers == ["key=F2 -> pause"])
    }

    /// The webhook door on queued-web, attacked from outside: nothing without the token or the rule's secret
    /// (a cookie alone, another site, a wrong secret, a bad name), a wrong secret slowed like a failed
    /// sign-in; with the secret or the token the rule fires and the daemon's state shows it.
    @Test(.timeLimit(.minutes(2))) func theWebhookDoorFiresOnlyWithTheTokenOrTheRulesSecret() throws {
        let rig = try WebAttackRig()
        let daemon = try rig.daemon.client()
        _ = try daemon.call(API.TriggersSet.self, .init(triggers: ["webhook=hold secret=s3cret-key -> pause", "webhook=go -> play"]))
        let clip = try Fixtures.video(seconds: 30, hue: .red)
        _ = try daemon.call(API.QueueAdd.self, .init(items: [RPCItemInput(uri: clip)]))
        _ = try daemon.call(API.PlayerPlay.self, .init())
        func state() -> String? { try? daemon.call(API.PlayerStatus.self, NoParams()).state }
        #expect(waitUntil(timeout: 10, pollInterval: 0.05) { state() == "playing" })

        #expect(try rig.send("POST", "/api/trigger/hold").status == 401, "nothing without a token or secret")
        #expect(try rig.send("POST", "/api/trigger/hold", headers: ["Origin": "http://rebound.localhost"]).status == 401)
        #expect(try rig.send("POST", "/api/trigger/hold", headers: ["X-Trigger-Secret": "wrong"]).status == 401)
        #expect(try rig.send("POST", "/api/trigger/go", headers: ["X-Trigger-Secret": "s3cret-key"]).status == 401, "a secret is its own rule's")
        #expect(try rig.send("POST", "/api/trigger/a%2Fb", headers: ["X-Trigger-Secret": "s3cret-key"]).status == 400)
        #expect(try rig.send("POST", "/api/trigger/hold", headers: ["Authorization": "Bearer not-the-token"]).status == 401)
        #expect(state() == "playing", "nothing fired")
        // From another client, its own secret fires the rule (the failures above were 127.0.0.1's).
        let fired = try rig.send("POST", "/api/trigger/hold", headers: ["X-Trigger-Secret": "s3cret-key"], from: "127.0.0.3")
        #expect(fired.status == 200 && fired.json?["fired"]?.intValue == 1, "\(fired.status) \(fired.body)")
        #expect(waitUntil(timeout: 10, pollInterval: 0.05) { state() == "paused" })
        let token = try rig.send("POST", "/api/trigger/go", headers: ["Authorization": "Bearer \(rig.token)"], from: "127.0.0.3")
        #expect(token.status == 200, "\(token.body)")
        #expect(waitUntil(timeout: 10, pollInterval: 0.05) { state() == "playing" })
        #expect(try rig.send("POST", "/api/trigger/none", headers: ["Authorization": "Bearer \(rig.token)"], from: "127.0.0.3").status == 404)
        // Guessing secrets is slowed like guessing passwords.
        var statuses: [Int] = []
        for index in 0..<12 { statuses.append(try rig.send("POST", "/api/trigger/hold", headers: ["X-Trigger-Secret": "guess-\(index)"], from: "127.0.0.4").status) }
        #expect(statuses.contains(429), "\(statuses)")
        #expect(state() == "playing")
    }

    /// Outputs: a matching play's start runs a command (no shell), its end writes a line to a serial port;
    /// plays that do not match do neither.
    @Test(.timeLimit(.minutes(2))) func outputsRunWhenMatchingPlaysStartAndEnd() throws {
        let scratch = try TemporaryDirectory(prefix: "queued-outputs")
        let ports = try Self.serialPair(in: scratch.path)
        defer { _ = ports.terminate() }
        let reader = open(scratch.path + "/ttyTest", O_RDONLY | O_NOCTTY | O_NONBLOCK)
        defer { close(reader) }
        let red = try Fixtures.tone(frequency: 440, seconds: 0.5), blue = try Fixtures.tone(frequency: 660, seconds: 0.5)
        let marker = scratch.path + "/started"
        let daemon = try RunningDaemon(
            outputs: .null(untimed: false),
            [
                "--output", "on=start uri=*660Hz* -> command /usr/bin/touch \(marker)",
                "--output", "on=end uri=*660Hz* -> serial \(scratch.path)/ttyDaemon \"LIGHTS ON\"",
                "--output", "on=start title=Nothing* -> command /usr/bin/touch \(scratch.path)/never",
                "--output", "on=start uri=*660Hz* -> mqtt lights/hall \"dim 20\"",
                // No GPIO chip on this machine: the output and the trigger say so, and everything else goes on.
                "--output", "on=start uri=*660Hz* -> gpio gpiochip-absent:22 1",
                "--trigger", "gpio=gpiochip-absent:17 edge=falling -> next",
            ])
        defer { daemon.stop() }
        let client = try daemon.client()
        let watcher = try daemon.client()
        _ = try watcher.call(API.EventsSubscribe.self, .init(events: [.outputMessage]))
        _ = try client.call(API.QueueAdd.self, .init(items: [RPCItemInput(uri: red), RPCItemInput(uri: blue)]))
        _ = try client.call(API.PlayerPlay.self, .init())
        #expect(waitUntil(timeout: 20, pollInterval: 0.05) { FileManager.default.fileExists(atPath: marker) }, "\(daemon.log().suffix(1500))")
        var received = ""
        #expect(waitUntil(timeout: 20, pollInterval: 0.05) {
            var buffer = [UInt8](repeating: 0, count: 256)
            let count = read(reader, &buffer, buffer.count)
            if count > 0 { received += String(decoding: buffer[..<count], as: UTF8.self) }
            return received.contains("LIGHTS ON\r\n")
        }, "\(received) \(daemon.log().suffix(1500))")
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/never"))
        // The MQTT output is an event for the fleet bridge (which publishes it: FleetBridgeTests).
        let messages = try collectNotifications(watcher, timeout: 10) { $0.contains { $0.method == "event.outputMessage" } }
        let message = messages.first { $0.method == "event.outputMessage" }?.params
        #expect(message?["topic"]?.stringValue == "lights/hall" && message?["payload"]?.stringValue == "dim 20", "\(messages)")
        #expect(waitUntil(timeout: 10, pollInterval: 0.05) {
            let log = daemon.log()
            return log.contains("trigger input gpio GPIO chip gpiochip-absent") && log.contains("gpio gpiochip-absent:22 1: GPIO chip gpiochip-absent")
        }, "\(daemon.log().suffix(1500))")
    }

    /// Output rules through the socket: read whole (a bad one refuses them all), carried out at the next
    /// matching play, and kept across a restart.
    @Test(.timeLimit(.minutes(2))) func outputsSetThroughTheSocketAreCarriedOutAndKept() throws {
        let scratch = try TemporaryDirectory(prefix: "queued-outputs-set")
        let state = scratch.path + "/state"
        let marker = scratch.path + "/started"
        let tone = try Fixtures.tone(frequency: 660, seconds: 0.5)
        let rules = ["on=start uri=*660Hz* -> command /usr/bin/touch \(marker)", "on=end -> mqtt lights up"]
        do {
            let daemon = try RunningDaemon(outputs: .null(untimed: false), ["--state-dir", state])
            defer { daemon.stop() }
            let client = try daemon.client()
            let bad = try client.call("outputs.set", ["outputs": [.string(rules[0]), "on=start -> shout loudly"]], expectingError: true)
            #expect(bad["code"]?.intValue == -32602 && (bad["message"]?.stringValue ?? "").contains("outputs[1]"), "\(bad)")
            #expect(try client.call(API.OutputsList.self, NoParams()).outputs.isEmpty, "nothing changed")
            // Listed with a command's words after its program left out (they may carry a credential).
            let shown = ["on=start uri=*660Hz* -> command /usr/bin/touch …", rules[1]]
            #expect(try client.call(API.OutputsSet.self, .init(outputs: rules)).outputs == shown)
            _ = try client.call(API.QueueAdd.self, .init(items: [RPCItemInput(uri: tone)]))
            _ = try client.call(API.PlayerPlay.self, .init())
            #expect(waitUntil(timeout: 20, pollInterval: 0.05) { FileManager.default.fileExists(atPath: marker) }, "\(daemon.log().suffix(1500))")
        }
        let again = try RunningDaemon(outputs: .null(untimed: false), ["--state-dir", state])
        defer { again.stop() }
        #expect(
            try again.client().call(API.OutputsList.self, NoParams()).outputs == ["on=start uri=*660Hz* -> command /usr/bin/touch …", rules[1]],
            "kept across a restart")
        #expect(FileManager.default.contents(atPath: state + "/outputs.json").map { String(decoding: $0, as: UTF8.self).contains(marker) } == true, "kept whole")
    }
}
