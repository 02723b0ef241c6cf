// queued.conf and queuectl.conf: the parser on its own (lines, flags, comments, quotes, errors with
// file:line); credentials files (a `#` in a password kept, a bad line named by number and never echoed, a
// secret file only its owner's and owned by us), then real processes: a daemon takes its socket, volume and
// loops from the file found under $XDG_CONFIG_HOME, the command line overrides it, a bad line stops it with file:line and exit status 64,
// and queuectl finds the daemon through its own file's socket=.

import ConfigFile
import Foundation
import QueueClient
import QueueRPC
import TestSupport
import Testing

@Suite struct ConfigFileTests {
    @Test func linesBecomeTheArgumentsTheyStandFor() throws {
        let text = """
            # a screen in the lobby
            socket = /run/queued/lobby.sock
            volume=40   # not too loud
            fullscreen
            title-prefix="Lobby # 1"

            loops=0
            """
        let file = try ConfigFile(parsing: text, path: "/etc/queued/queued.conf")
        #expect(file.settings.map(\.line) == [2, 3, 4, 5, 7])
        #expect(
            file.arguments == [
                "--socket", "/run/queued/lobby.sock", "--volume", "40", "--fullscreen", "--title-prefix", "Lobby # 1",
                "--loops", "0",
            ])
        #expect(file.value(of: "socket") == "/run/queued/lobby.sock")
        #expect(file.value(of: "fullscreen") == nil)
    }

    @Test func ruleLinesTakeTheRestOfTheLine() throws {
        let text = #"""
            trigger key=F1 -> interrupt /srv/promo.mp4 loops=1
            trigger serial=/dev/ttyUSB0 match="XR\[PU(\d+)\]" -> play-id $1
            output on=start uri=*film* -> command /usr/local/bin/lights dim
            trigger=key=F2 -> next
            """#
        let file = try ConfigFile(parsing: text, path: "q.conf")
        #expect(
            file.arguments == [
                "--trigger", "key=F1 -> interrupt /srv/promo.mp4 loops=1", "--trigger", #"serial=/dev/ttyUSB0 match="XR\[PU(\d+)\]" -> play-id $1"#,
                "--output", "on=start uri=*film* -> command /usr/local/bin/lights dim", "--trigger", "key=F2 -> next",
            ])
    }

    @Test func malformedLinesAreNamedByFileAndLine() {
        #expect(throws: ConfigFile.ParseError(path: "q.conf", line: 2, reason: "config is for the command line only")) {
            try ConfigFile(parsing: "volume=3\nconfig=/other.conf\n", path: "q.conf")
        }
        #expect(throws: ConfigFile.ParseError.self) { try ConfigFile(parsing: "--volume=3", path: "q.conf") }
        #expect(throws: ConfigFile.ParseError.self) { try ConfigFile(parsing: "=3", path: "q.conf") }
        #expect(throws: ConfigFile.ParseError.self) { try ConfigFile(parsing: "two words=3", path: "q.conf") }
    }

    @Test func credentialsKeepAHashInThePasswordAndNeverEchoABadLine() throws {
        let good = try Credentials(
            parsing: "# the lobby screen\nusername = lobby\npassword=s3cret#not-a-comment \n\n", path: "c")
        #expect(good == Credentials(username: "lobby", password: "s3cret#not-a-comment"))
        #expect(try Credentials(parsing: "password=\"  spaced # kept \"", path: "c").password == "  spaced # kept ")
        for bad in ["username=a\nhunter2-secret-line", "username=a\nsecret=hunter2-secret-line"] {
            do {
                _ = try Credentials(parsing: bad, path: "c")
                Issue.record("accepted \(bad)")
            } catch {
                #expect(error.line == 2, "\(error)")
                #expect(!error.description.contains("hunter2"), "the line is never echoed: \(error)")
            }
        }
    }

    @Test func aSecretFileMustBeOnlyItsOwnersAndOwnedByUs() throws {
        let folder = try TemporaryDirectory(prefix: "credentials")
        let path = folder.path + "/credentials"
        try "username=u\npassword=p#q\n".write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o644)
        #expect(throws: ConfigFile.ParseError.self) { try Credentials.read(path: path) }
        chmod(path, 0o600)
        #expect(try Credentials.read(path: path) == Credentials(username: "u", password: "p#q"))
        // Another user's file (as a user other than its owner would see it) is refused, and says why.
        do {
            try ConfigFile.checkPrivate(path: path, user: geteuid() + 1)
            Issue.record("another user's file was accepted")
        } catch {
            #expect(error.reason.contains("belongs to user"), "\(error)")
        }
        if geteuid() == 0 {
            chown(path, 4321, 4321)
            #expect(throws: ConfigFile.ParseError.self) { try Credentials.read(path: path) }
        }
    }

    @Test func theCommandLineChoosesTheFile() {
        #expect(ConfigFile.choice(in: ["--volume", "3"]) == .search)
        #expect(ConfigFile.choice(in: ["--config", "/a.conf", "x.mp4"]) == .explicit("/a.conf"))
        #expect(ConfigFile.choice(in: ["--config=/b.conf"]) == .explicit("/b.conf"))
        #expect(ConfigFile.choice(in: ["--no-config"]) == .none)
        #expect(ConfigFile.choice(in: ["--", "--config", "/c.conf"]) == .search)
        #expect(
            ConfigFile.searchPaths(name: "queued.conf", environment: ["XDG_CONFIG_HOME": "/x", "HOME": "/h"]) == [
                "/x/queued/queued.conf", "/etc/queued/queued.conf",
            ])
        #expect(
            ConfigFile.searchPaths(name: "queued.conf", environment: ["HOME": "/h"]) == [
                "/h/.config/queued/queued.conf", "/etc/queued/queued.conf",
            ])
    }

    /// queued with `arguments` and `XDG_CONFIG_HOME=config`; its stderr goes to `log`.
    private func daemon(_ arguments: [String], config: String, log: String) throws -> ChildProcess {
        try ChildProcess(
            BuiltProduct.path("queued"), ["--audio", "null", "--video", "none", "--no-state"] + arguments,
            environment: ["XDG_CONFIG_HOME": config, "QUEUED_SOCKET": ""], stdoutPath: log, stderrPath: log)
    }

    @Test func theDaemonTakesItsOptionsFromTheFileAndTheCommandLineWins() throws {
        let root = try TemporaryDirectory(prefix: "queued-config")
        let config = root.path + "/config"
        try FileManager.default.createDirectory(atPath: config + "/queued", withIntermediateDirectories: true)
        let socket = root.path + "/from-file.sock"
        try "# lobby\nsocket=\(socket)\nvolume = 40\nloops=3\n".write(
            toFile: config + "/queued/queued.conf", atomically: true, encoding: .utf8)

        do {
            let process = try daemon([], config: config, log: root.path + "/first.log")
            defer {
                process.terminate(signal: SIGTERM)
                _ = process.wait()
            }
            let up = try waitUntil(timeout: 20) { (try? QueueClient(socketPath: socket, timeout: 2)) != nil }
            try #require(up, "no socket from the config file; log:\n\(Self.read(root.path + "/first.log"))")
            let status = try QueueClient(socketPath: socket, timeout: 5).call(API.PlayerStatus.self)
            #expect(status.volume == 40 && status.queueLoops == 3, "\(status)")
            // queuectl finds it through queuectl.conf's socket=.
            try "socket=\(socket)\n".write(toFile: config + "/queued/queuectl.conf", atomically: true, encoding: .utf8)
            let queuectl = try ChildProcess(
                BuiltProduct.path("queuectl"), ["status", "--json"],
                environment: ["XDG_CONFIG_HOME": config, "QUEUED_SOCKET": "", "XDG_RUNTIME_DIR": root.path],
                stdoutPath: root.path + "/queuectl.out", stderrPath: root.path + "/queuectl.err")
            #expect(queuectl.wait() == 0, "\(Self.read(root.path + "/queuectl.err"))")
            #expect(Self.read(root.path + "/queuectl.out").contains("\"volume\":40"))
        }
        do {
            let process = try daemon(["--volume", "70"], config: config, log: root.path + "/second.log")
            defer {
                process.terminate(signal: SIGTERM)
                _ = process.wait()
            }
            let up = try waitUntil(timeout: 20) { (try? QueueClient(socketPath: socket, timeout: 2)) != nil }
            try #require(up, "\(Self.read(root.path + "/second.log"))")
            let status = try QueueClient(socketPath: socket, timeout: 5).call(API.PlayerStatus.self)
            #expect(status.volume == 70 && status.queueLoops == 3, "the command line wins: \(status)")
            // The log is written by its own thread: the line may come a moment after the socket answers.
            #expect(
                waitUntil(timeout: 10) { Self.read(root.path + "/second.log").contains("options from \(config)/queued/queued.conf") },
                "\(Self.read(root.path + "/second.log"))")
        }
    }

    @Test func aBadLineStopsTheDaemonWithFileLineAndUsageStatus() throws {
        let root = try TemporaryDirectory(prefix: "queued-config")
        let bad = root.path + "/bad.conf"
        for (text, expected) in [
            ("volume=40\n\nvolume=150\n", "bad.conf:3: "), ("# ok\nno-such-option=1\n", "bad.conf:2: "),
            ("rate=fast\n", "bad.conf:1: "),
        ] {
            try text.write(toFile: bad, atomically: true, encoding: .utf8)
            let process = try daemon(["--config", bad], config: root.path, log: root.path + "/bad.log")
            let status = process.wait()
            let log = Self.read(root.path + "/bad.log")
            #expect(status == 64, "\(text): exit \(status)\n\(log)")
            #expect(log.contains(expected), "\(text): \(log)")
        }
        // A missing file named with --config is an error too; --no-config reads none.
        let missing = try daemon(["--config", root.path + "/none.conf"], config: root.path, log: root.path + "/m.log")
        #expect(missing.wait() == 64)
    }

    static func read(_ path: String) -> String {
        (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }
}
