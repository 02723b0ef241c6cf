// The fleet console's rig: a real Mosquitto on loopback; real screens (daemons on the null outputs, each with
// its queued-mqtt bridge) in the group "lobby"; simulated players — one MQTT client speaking the AsyncAPI
// contract for hundreds of player ids (retained status and reported, proof-of-play records); the real
// `queued-fleet` (port 0, read from its "listening on" line) with users made by its own `--add-user`; and a
// webhook receiver (Python's http.server on 127.0.0.1) that writes every POST body it gets to a file.
// Requests go on the wire as an attacker would send them (WebAttackRig.connect), and what they left is read
// from the broker and the screens themselves.

import Foundation
import Glibc
import JSONText
import MQTT
import TestSupport

final class FleetConsoleRig: @unchecked Sendable {
    struct Screen {
        let name: String
        let daemon: RunningDaemon
        var bridge: ChildProcess
    }

    let scratch: TemporaryDirectory
    let broker: MosquittoBroker
    private(set) var screens: [Screen] = []
    let simulator: MosquittoClient
    let simulatorInbox = Inbox()
    private(set) var console: ChildProcess
    private(set) var port = 0
    let webhook: ChildProcess
    let webhookLog: String
    let webhookPort: Int
    let mailbox: ChildProcess
    let mailLog: String
    let consoleArguments: [String]
    static let passwords = ["admin": "admin-password", "oper": "operator-password", "viewer": "viewer-password"]

    /// `screens`: real screens (p1 may name local files through the fleet, the others may not); `simulated`:
    /// ids sim-000… published as online players.
    init(
        screens names: [String] = ["p1", "p2"], simulated: Int = 0, offlineAlertMinutes: Double = 0.05, persistentBroker: Bool = false
    ) throws {
        scratch = try TemporaryDirectory(prefix: "queued-fleet-console")
        let users = names + ["console", "sim"]
        var acl = ["user console", "topic readwrite queued/#", "user sim", "topic readwrite queued/#"]
        for name in names { acl += ["user \(name)", "topic readwrite queued/\(name)/#", "topic read queued/group/lobby/desired", "topic read queued/group/lobby/alert/+", "topic read queued/group/lobby/trigger/+"] }
        broker = try MosquittoBroker(
            users: Dictionary(uniqueKeysWithValues: users.map { ($0, $0 + "-secret") }), acl: acl, persistent: persistentBroker)
        for name in users {
            let path = scratch.path + "/credentials-" + name
            try "username=\(name)\npassword=\(name)-secret\n".write(toFile: path, atomically: true, encoding: .utf8)
            chmod(path, 0o600)
        }
        // The webhook receiver.
        webhookLog = scratch.path + "/webhook.jsonl"
        let portFile = scratch.path + "/webhook.port"
        let server = """
            import http.server, sys
            class H(http.server.BaseHTTPRequestHandler):
                def do_POST(self):
                    body = self.rfile.read(int(self.headers.get('Content-Length', 0)))
                    with open(sys.argv[1], 'ab') as f: f.write(body + b'\\n')
                    self.send_response(204); self.end_headers()
                def log_message(self, *a): pass
            s = http.server.HTTPServer(('127.0.0.1', 0), H)
            open(sys.argv[2], 'w').write(str(s.server_address[1]))
            s.serve_forever()
            """
        webhook = try ChildProcess(try ChildProcess.resolve("python3"), ["-c", server, webhookLog, portFile])
        var found: Int?
        waitUntil(timeout: 10, pollInterval: 0.02) {
            found = (try? String(contentsOfFile: portFile, encoding: .utf8)).flatMap { Int($0) }
            return found != nil
        }
        guard let found else { throw TestSupportError.io("the webhook receiver did not start") }
        webhookPort = found
        // The SMTP server alerts are mailed through (plain, loopback; a few lines of RFC 5321 over Python's
        // socketserver, which every Python 3 has): each message's sender, recipients and text as a JSON line.
        mailLog = scratch.path + "/mail.jsonl"
        let mailPortFile = scratch.path + "/mail.port"
        let smtp = """
            import json, socketserver, sys
            class Session(socketserver.StreamRequestHandler):
                def say(self, line): self.wfile.write(line.encode() + b'\\r\\n')
                def handle(self):
                    sender, recipients = None, []
                    self.say('220 localhost ESMTP test')
                    for raw in self.rfile:
                        verb = raw.decode('utf-8', 'replace').strip()
                        upper = verb.upper()
                        if upper.startswith(('EHLO', 'HELO')): self.say('250 localhost')
                        elif upper.startswith('MAIL FROM:'): sender, recipients = verb[10:].strip().strip('<>'), []; self.say('250 OK')
                        elif upper.startswith('RCPT TO:'): recipients.append(verb[8:].strip().strip('<>')); self.say('250 OK')
                        elif upper == 'DATA':
                            self.say('354 end with a dot')
                            lines = []
                            for line in self.rfile:
                                if line in (b'.\\r\\n', b'.\\n'): break
                                lines.append(line[1:] if line.startswith(b'..') else line)
                            text = b''.join(lines).decode('utf-8', 'replace').replace('\\r\\n', '\\n')
                            with open(sys.argv[1], 'a') as f: f.write(json.dumps({'from': sender, 'to': recipients, 'text': text}) + '\\n')
                            self.say('250 OK')
                        elif upper == 'QUIT': self.say('221 bye'); return
                        else: self.say('250 OK')
            class Server(socketserver.ThreadingTCPServer): daemon_threads = True
            server = Server(('127.0.0.1', 0), Session)
            open(sys.argv[2], 'w').write(str(server.server_address[1]))
            server.serve_forever()
            """
        mailbox = try ChildProcess(try ChildProcess.resolve("python3"), ["-W", "ignore", "-c", smtp, mailLog, mailPortFile])
        var mailPort: Int?
        waitUntil(timeout: 10, pollInterval: 0.02) {
            mailPort = (try? String(contentsOfFile: mailPortFile, encoding: .utf8)).flatMap { Int($0) }
            return mailPort != nil
        }
        guard let mailPort else { throw TestSupportError.io("the SMTP receiver did not start") }
        // The console's users, made as an operator would.
        for (user, role) in [("admin", "admin"), ("oper", "operator"), ("viewer", "viewer")] {
            try Self.addUser(user, role: role, password: Self.passwords[user]!, scratch: scratch.path)
        }
        consoleArguments = [
            "--no-config", "--state-dir", scratch.path + "/fleet", "--broker", broker.url, "--credentials",
            scratch.path + "/credentials-console", "--listen", "127.0.0.1:0", "--webhook",
            "http://127.0.0.1:\(found)/hook", "--offline-alert", String(offlineAlertMinutes), "--thumbnails", "0",
            "--client-id", "console-test", "--smtp", "smtp://127.0.0.1:\(mailPort)", "--mail-to", "ops@localhost",
            "--mail-from", "fleet@localhost",
        ]
        console = try ChildProcess(
            BuiltProduct.path("queued-fleet"), consoleArguments, stdoutPath: scratch.path + "/console.out",
            stderrPath: scratch.path + "/console.log")
        simulator = try MosquittoClient(
            configuration: try MQTTConfiguration(url: broker.url, clientID: "simulator", username: "sim", password: "sim-secret"),
            onEvent: simulatorInbox.take)
        simulator.start()
        guard simulatorInbox.waitConnected(10) else { throw TestSupportError.io("the simulator did not connect") }
        port = try waitListening()
        for (index, name) in names.enumerated() {
            let daemon = try RunningDaemon(
                outputs: .null(untimed: false), ["--state-dir", scratch.path + "/state-" + name], logLevel: "warning")
            screens.append(Screen(name: name, daemon: daemon, bridge: try startBridge(name, daemon: daemon, localFiles: index == 0)))
        }
        for index in 0..<simulated { try simulate(String(format: "sim-%03d", index), groups: index % 2 == 0 ? ["mall"] : ["station"]) }
    }

    deinit { stop() }

    func stop() {
        for screen in screens {
            if screen.bridge.isRunning { _ = screen.bridge.terminate() }
            screen.daemon.stop()
        }
        if console.isRunning { _ = console.terminate() }
        if webhook.isRunning { _ = webhook.terminate(signal: SIGKILL) }
        if mailbox.isRunning { _ = mailbox.terminate(signal: SIGKILL) }
        simulator.stop()
        broker.stop()
    }

    func startBridge(_ name: String, daemon: RunningDaemon, localFiles: Bool) throws -> ChildProcess {
        var arguments = [
            "--no-config", "--broker", broker.url, "--player", name, "--group", "lobby", "--credentials",
            scratch.path + "/credentials-" + name, "--socket", daemon.socket, "--keepalive", "5", "--log-level", "info",
        ]
        if localFiles { arguments.append("--rpc-local-files") }
        return try ChildProcess(BuiltProduct.path("queued-mqtt"), arguments, stderrPath: scratch.path + "/bridge-\(name).log")
    }

    /// Kills screen `index`'s bridge with -9 (the broker sends its Last Will) or starts it again.
    func killBridge(_ index: Int) { _ = screens[index].bridge.terminate(signal: SIGKILL, timeout: 5) }

    func restartBridge(_ index: Int) throws {
        screens[index].bridge = try startBridge(screens[index].name, daemon: screens[index].daemon, localFiles: index == 0)
    }

    /// Stops the console and starts it again on the same store (a new port).
    func restartConsole(meanwhile: () throws -> Void = {}) throws {
        _ = console.terminate()
        try meanwhile()
        try? FileManager.default.removeItem(atPath: scratch.path + "/console.log")
        console = try ChildProcess(
            BuiltProduct.path("queued-fleet"), consoleArguments, stdoutPath: scratch.path + "/console.out",
            stderrPath: scratch.path + "/console.log")
        port = try waitListening()
    }

    private func waitListening() throws -> Int {
        let logPath = scratch.path + "/console.log"
        var found: Int?
        waitUntil(timeout: 20, pollInterval: 0.02) {
            let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            guard let line = log.split(separator: "\n").first(where: { $0.hasPrefix("queued-fleet: listening on 127.0.0.1:") })
            else { return false }
            found = Int(line.split(separator: ":").last ?? "")
            return true
        }
        guard let found else { throw TestSupportError.io("queued-fleet did not start; log:\n\(consoleLog)") }
        return found
    }

    var consoleLog: String { (try? String(contentsOfFile: scratch.path + "/console.log", encoding: .utf8)) ?? "" }

    // MARK: simulated players

    func simulate(_ id: String, groups: [String], appliedRev: Int64? = nil, error: String? = nil) throws {
        try publish("queued/\(id)/status", ["state": "online", "version": "sim", "since": .double(Date().timeIntervalSince1970), "groups": .array(groups.map(JSONValue.string))], retain: true)
        try publish(
            "queued/\(id)/reported",
            [
                "appliedRev": appliedRev.map(JSONValue.int) ?? .null, "pendingRev": .null, "error": error.map(JSONValue.string) ?? .null,
                "state": "playing", "queueVersion": 1,
                "current": ["id": 1, "uri": .string("http://127.0.0.1:9/media/\(id).mp4"), "title": .string("loop of \(id)"), "position": 0],
                "host": ["diskFreePercent": 42.5, "temperature": 51.0],
            ], retain: true)
    }

    /// A proof-of-play record from a simulated player (as a bridge sends it).
    func play(_ id: String, seq: Int64, uri: String, day: String = "2026-11-28") throws {
        try publish(
            "queued/\(id)/events",
            [
                "seq": .int(seq), "player": .string(id), "uri": .string(uri), "start": .string("\(day)T10:00:00.000Z"),
                "end": .string("\(day)T10:00:10.000Z"), "seconds": 10, "reason": "eof",
            ], retain: false)
    }

    func publish(_ topic: String, _ value: JSONValue, retain: Bool) throws {
        try simulator.publish(topic: topic, payload: JSON.serialize(value), qos: .atLeastOnce, retain: retain)
    }

    // MARK: the page's API

    var origin: String { "http://127.0.0.1:\(port)" }

    struct Session {
        let cookie: String
        let csrf: String
    }

    func send(_ method: String, _ target: String, session: Session? = nil, body: JSONValue? = nil, headers: [String: String] = [:])
        throws -> WebAttackRig.Answer
    {
        var fields = headers
        var head = "\(method) \(target) HTTP/1.1\r\nHost: \(fields.removeValue(forKey: "Host") ?? "127.0.0.1:\(port)")\r\nConnection: close\r\n"
        if let session {
            fields["Cookie"] = fields["Cookie"] ?? session.cookie
            if method != "GET" {
                fields["X-CSRF-Token"] = fields["X-CSRF-Token"] ?? session.csrf
                fields["Origin"] = fields["Origin"] ?? origin
            }
        }
        for (name, value) in fields where !value.isEmpty { head += "\(name): \(value)\r\n" }
        let payload = body.map(JSON.serialize) ?? []
        if body != nil { head += "Content-Type: application/json\r\n" }
        let bytes = Array((head + "Content-Length: \(payload.count)\r\n\r\n").utf8) + payload
        return try WebAttackRig.exchange(port: port, timeout: 60, bytes, what: "\(method) \(target)")
    }

    /// `queued-fleet --add-user` from outside the running console (the password on its stdin).
    func addUser(_ user: String, role: String, password: String) throws {
        try Self.addUser(user, role: role, password: password, scratch: scratch.path)
    }

    private static func addUser(_ user: String, role: String, password: String, scratch: String) throws {
        let input = scratch + "/password-" + user
        try (password + "\n").write(toFile: input, atomically: true, encoding: .utf8)
        let adding = try ChildProcess(
            BuiltProduct.path("queued-fleet"),
            ["--no-config", "--state-dir", scratch + "/fleet", "--add-user", user, "--role", role],
            stdoutPath: scratch + "/add-user.out", stdinPath: input)
        guard adding.wait() == 0 else { throw TestSupportError.io("--add-user \(user) failed") }
    }

    func signIn(_ user: String, password: String? = nil) throws -> Session {
        let answer = try send(
            "POST", "/api/login", body: ["user": .string(user), "password": .string(password ?? Self.passwords[user] ?? "")],
            headers: ["Origin": origin])
        guard answer.status == 200, let cookie = answer.header("Set-Cookie")?.split(separator: ";").first,
            let csrf = answer.json?["csrf"]?.stringValue
        else { throw TestSupportError.io("sign-in as \(user): \(answer.status) \(answer.body)") }
        return Session(cookie: String(cookie), csrf: csrf)
    }

    func get(_ target: String, _ session: Session) throws -> JSONValue {
        let answer = try send("GET", target, session: session)
        guard answer.status == 200, let json = answer.json else { throw TestSupportError.io("GET \(target): \(answer.status) \(answer.body)") }
        return json
    }

    /// Every mail received so far: `from`, `to`, `text`.
    var mails: [JSONValue] {
        ((try? String(contentsOfFile: mailLog, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { try? JSON.parse(Array($0.utf8)) }
    }

    /// Every webhook body received so far.
    var webhookNotices: [JSONValue] {
        ((try? String(contentsOfFile: webhookLog, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { try? JSON.parse(Array($0.utf8)) }
    }
}
