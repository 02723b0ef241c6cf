// Attacks on queued-web from outside, as someone on the shop's network would make them (issue 36): the real
// `queued` and `queued-web` binaries, raw bytes on 127.0.0.1, and after each attack what the DAEMON holds —
// its queue and overlays through its own socket, the media folder on disk — not only the HTTP status. Path
// spellings that might dodge the sign-in guard; params naming local files by name and by position, through
// `file:` URLs, playlists and directories; a login flood; a connection flood; a sign-in loop against the
// operator's session; sign-out closing the event socket; listening beyond loopback without TLS.

import Foundation
import QueueRPC
import Glibc
import JSONText
import TestSupport
import Testing

@Suite(.serialized) struct WebAttackTests {
    static let harmless: JSONValue = ["method": "queue.add", "params": ["items": ["http://127.0.0.1:9/attack.mp4"]]]

    @Test(.timeLimit(.minutes(1))) func noSpellingOfAnAPIPathGetsInWithoutASession() throws {
        let rig = try WebAttackRig()
        let body = JSON.serialize(Self.harmless)
        let headers = ["Origin": rig.origin, "Content-Type": "application/json"]
        for target in [
            "//api/rpc", "///api/rpc", "//api//rpc", "/api/./rpc", "/api/../api/rpc", "/%61pi/rpc", "/api/rpc/", "/API/rpc",
            "/api/rpc",
        ] {
            let answer = try rig.send("POST", target, headers: headers, body: body)
            #expect([400, 401, 404].contains(answer.status), "POST \(target): \(answer.head)")
        }
        let session = try rig.send("GET", "//api/session")
        #expect([400, 401, 404].contains(session.status), "GET //api/session: \(session.head)")
        for target in ["//api/upload?name=x.m3u", "/api/upload?name=x.m3u"] {
            let upload = try rig.send("POST", target, headers: headers, body: Array("/etc/hostname\n".utf8))
            #expect([400, 401, 404].contains(upload.status), "POST \(target): \(upload.head)")
        }
        #expect(try rig.daemonQueue() == [], "nothing reached the daemon")
        #expect(rig.stored() == [], "nothing stored in the media folder")
    }

    @Test(.timeLimit(.minutes(1))) func paramsNamingALocalFileAreRefusedByNameAndByPosition() throws {
        let rig = try WebAttackRig()
        // A layer already on screen, for overlay.update to try to point at a local file.
        let layer = try rig.daemon.client().call("overlay.add", ["type": "text", "text": "Lobby"])
        let id = try #require(layer["id"]?.intValue)
        let overlaysBefore = try rig.daemonOverlays()
        let attacks: [(String, JSONValue)] = [
            ("queue.add", ["items": ["/etc/hostname"]]),
            ("queue.add", [["/etc/hostname"]]),
            ("queue.add", ["items": ["file:///etc/hostname"]]),
            ("queue.add", ["items": ["file:///%65tc/hostname"]]),
            ("queue.add", [["file:///%65tc/hostname"]]),
            ("queue.add", ["items": [.string(rig.media + "/../../../../etc/hostname")]]),
            ("queue.insert", ["items": ["/etc/hostname"], "index": 0]),
            ("queue.insert", [["/etc/hostname"], 0]),
            ("queue.interrupt", ["item": "/etc/hostname"]),
            ("queue.interrupt", ["/etc/hostname"]),
            ("queue.interrupt", [["uri": "/etc/hostname"]]),
            ("overlay.add", ["type": "image", "path": "/etc/hostname"]),
            ("overlay.add", ["image", nil, "/etc/hostname"]),
            ("overlay.update", ["id": .int(id), "path": "/etc/hostname"]),
            ("overlay.update", [.int(id), nil, "/etc/hostname"]),
            // Rules that run programs, read devices or set pins of the box are set on the box, not from a page.
            ("outputs.set", ["outputs": ["on=end -> command /bin/sh -c true"]]),
            ("triggers.set", ["triggers": ["key=F1 -> next"]]),
        ]
        for (method, params) in attacks {
            let answer = try rig.rpc(method, params)
            let refused = answer.status == 403 || answer.json?["error"] != nil
            #expect(refused, "\(method) \(params): \(answer.status) \(answer.body)")
        }
        #expect(try rig.daemonQueue() == [], "nothing was queued")
        #expect(try rig.daemonOverlays() == overlaysBefore, "no layer shows a local file")
        // The same door lets the harmless request through: the refusals above are the policy, not a broken link.
        #expect(try rig.rpc("queue.add", ["items": ["http://127.0.0.1:9/fine.mp4"]]).status == 200)
        #expect(try rig.daemonQueue() == ["http://127.0.0.1:9/fine.mp4"])
    }

    /// Zones through the page's door: the page may read the layout but not cut the screen anew; a zone's
    /// queue is held to the same files as main's; a zone name spelled as a path, too long, of the wrong type
    /// or unknown is refused; and nothing lands in any zone's queue or any layer.
    @Test(.timeLimit(.minutes(1))) func zonesThroughThePageTakeNothingTheDoorRefuses() throws {
        let rig = try WebAttackRig()
        // The owner cuts the screen on the socket (not through the page).
        let owner = try rig.daemon.client()
        _ = try owner.call(
            "layout.set",
            ["zones": [["name": "main", "rect": ["x": 0, "y": 0, "w": "75%", "h": "100%"]],
                       ["name": "side", "rect": ["x": "75%", "y": 0, "w": "25%", "h": "100%"]]]])
        let overlaysBefore = try rig.daemonOverlays()
        let attacks: [(String, JSONValue)] = [
            ("layout.set", ["zones": [["name": "main", "rect": ["x": 0, "y": 0, "w": 10, "h": 10]]]]),
            ("layout.set", [[["name": "main", "rect": nil]]]),
            ("state.apply", ["items": [], "layout": [["name": "main", "rect": ["x": 0, "y": 0, "w": 1, "h": 1]]]]),
            ("queue.add", ["zone": "side", "items": ["/etc/hostname"]]),
            ("queue.add", [["file:///%65tc/hostname"], "side"]),
            ("queue.interrupt", ["zone": "side", "item": "/etc/hostname", "fullscreen": true]),
            ("queue.add", ["zone": "../side", "items": ["http://127.0.0.1:9/a.mp4"]]),
            ("queue.add", ["zone": "nowhere", "items": ["http://127.0.0.1:9/a.mp4"]]),
            ("queue.add", ["zone": .string(String(repeating: "s", count: 5000)), "items": ["http://127.0.0.1:9/a.mp4"]]),
            ("queue.add", ["zone": ["side"], "items": ["http://127.0.0.1:9/a.mp4"]]),
            ("player.play", ["zone": 7]),
            ("overlay.add", ["type": "image", "path": "/etc/hostname", "zone": "side"]),
            ("overlay.add", ["type": "text", "text": "x", "zone": "../../etc"]),
        ]
        for (method, params) in attacks {
            let answer = try rig.rpc(method, params)
            let refused = answer.status == 403 || answer.json?["error"] != nil
            #expect(refused, "\(method) \(params): \(answer.status) \(answer.body.prefix(300))")
        }
        let layout = try owner.call("layout.get")["zones"]?.arrayValue?.map { $0["name"]?.stringValue ?? "" }
        #expect(layout == ["main", "side"], "the layout is the owner's: \(String(describing: layout))")
        owner.zone = "side"
        #expect(try owner.call(API.QueueList.self, .init()).items.isEmpty, "nothing in the side zone's queue")
        #expect(try rig.daemonQueue() == [], "nothing in main's")
        #expect(try rig.daemonOverlays() == overlaysBefore)
        // What the door is for: the layout read, and a zone's queue given a network item.
        #expect(try rig.rpc("layout.get", nil).json?["result"]?["zones"]?.arrayValue?.count == 2)
        #expect(try rig.rpc("queue.add", ["zone": "side", "items": ["http://127.0.0.1:9/fine.mp4"]]).status == 200)
        #expect(try owner.call(API.QueueList.self, .init()).items.map(\.uri) == ["http://127.0.0.1:9/fine.mp4"])
    }

    /// Web items through the page's door: a page file outside the media folder, in any spelling, in the item's
    /// `uri` or its nested `web` options, and options out of range are refused; afterwards the queue holds only
    /// what the door is for (an http page, a page uploaded to the media folder).
    @Test(.timeLimit(.minutes(1))) func webItemsThroughThePageTakeNoLocalFileOutsideTheMediaFolder() throws {
        let rig = try WebAttackRig()
        try FileManager.default.createDirectory(atPath: rig.media, withIntermediateDirectories: true)
        let inside = rig.media + "/board.html"
        try "<html><body>board</body></html>".write(toFile: inside, atomically: true, encoding: .utf8)
        let outside = rig.scratch.path + "/outside.html"
        try "<html><body>secret</body></html>".write(toFile: outside, atomically: true, encoding: .utf8)
        let attacks: [(String, JSONValue)] = [
            ("queue.add", ["items": [["uri": .string(outside), "type": "web", "duration": 5]]]),
            ("queue.add", ["items": [.string(outside)]]),
            ("queue.add", ["items": [["uri": .string("file://" + outside), "type": "web"]]]),
            ("queue.add", ["items": [["uri": .string(rig.media + "/../outside.html"), "type": "web"]]]),
            ("queue.add", ["items": [["uri": "file:///%65tc/passwd", "type": "web"]]]),
            ("queue.add", ["items": [["uri": .string(outside), "web": ["reload": "keep"]]]]),
            ("queue.insert", ["items": [["uri": .string(outside), "type": "web"]], "index": 0]),
            ("queue.replace", ["items": [["uri": .string(outside), "type": "web"]]]),
            ("queue.interrupt", ["item": ["uri": .string(outside), "type": "web"], "fullscreen": true]),
            ("queue.add", ["items": [["uri": "http://127.0.0.1:9/p.html", "type": "web", "zoom": 1e9]]]),
            ("queue.add", ["items": [["uri": "http://127.0.0.1:9/p.html", "type": "web", "viewport": ["width": 99999, "height": 1]]]]),
            ("queue.add", ["items": [["uri": "http://127.0.0.1:9/p.html", "type": "browser"]]]),
            ("queue.add", ["items": [["uri": "http://127.0.0.1:9/p.html", "reload": "keep"]]]),
            ("queue.add", ["items": [["uri": "http://127.0.0.1:9/p.html", "type": "web", "web": ["files": "/"]]]]),
        ]
        for (method, params) in attacks {
            let answer = try rig.rpc(method, params)
            let refused = answer.status == 403 || answer.json?["error"] != nil
            #expect(refused, "\(method) \(params): \(answer.status) \(answer.body.prefix(300))")
        }
        #expect(try rig.daemonQueue() == [], "nothing queued by the refused requests")
        // What the door is for: a page on the network, and one uploaded to the media folder.
        #expect(try rig.rpc("queue.add", ["items": [["uri": "http://127.0.0.1:9/p.html", "type": "web", "duration": 5]]]).status == 200)
        #expect(try rig.rpc("queue.add", ["items": [.string(inside)]]).status == 200)
        #expect(try rig.daemonQueue() == ["http://127.0.0.1:9/p.html", inside])
    }

    @Test(.timeLimit(.minutes(1))) func playlistsAndDirectoriesInTheMediaFolderSmuggleNothingIn() throws {
        let rig = try WebAttackRig()
        let playlist = "#EXTM3U\n/etc/hostname\n../../../../etc/passwd\nfile:///etc/hostname\n"
        let upload = try rig.send(
            "POST", "/api/upload?name=evil.m3u", headers: ["Authorization": "Bearer \(rig.token)"], body: Array(playlist.utf8))
        #expect(upload.status == 201, "\(upload.head)")
        let stored = try #require(upload.json?["path"]?.stringValue)
        // A directory inside the folder holding a link to a file outside it.
        let folder = rig.media + "/inside"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        #expect(symlink("/etc/hostname", folder + "/clip.mp4") == 0)
        #expect(symlink("/etc", rig.media + "/etc-link") == 0)
        for items: JSONValue in [
            [.string(stored)], [.string(folder)], [.string(folder + "/clip.mp4")], [.string(rig.media + "/etc-link/hostname")],
            [.string("file://" + stored)],
        ] {
            for (method, params): (String, JSONValue) in [
                ("queue.add", ["items": items]), ("queue.insert", [items, 0]), ("queue.interrupt", [items[0] ?? nil]),
            ] {
                let answer = try rig.rpc(method, params)
                #expect(answer.status == 403 || answer.json?["error"] != nil, "\(method) \(params): \(answer.status) \(answer.body)")
            }
        }
        #expect(try rig.daemonQueue() == [], "the daemon queued nothing from the playlist or the directory")
        #expect(try rig.daemonOverlays()?.arrayValue?.isEmpty ?? true)
        // What the door is for still works: a clip uploaded into the folder is queued.
        let clip = try [UInt8](Data(contentsOf: URL(fileURLWithPath: try Fixtures.tone(frequency: 440, seconds: 0.5, format: .wav))))
        let uploaded = try rig.send("POST", "/api/upload?name=tone.wav", headers: ["Authorization": "Bearer \(rig.token)"], body: clip)
        let tone = try #require(uploaded.json?["path"]?.stringValue)
        let queued = try rig.rpc("queue.add", ["items": [.string(tone)]])
        #expect(queued.status == 200 && queued.json?["error"] == nil, "\(queued.body)")
        #expect(try rig.daemonQueue() == [tone])
    }

    @Test(.timeLimit(.minutes(1))) func aLoginFloodIsSlowedAndTheRightTokenFromElsewhereStillWorks() throws {
        let rig = try WebAttackRig()
        var statuses: [Int] = []
        var retryAfter: [String] = []
        for attempt in 0..<9 {
            let answer = try rig.signIn("guess-\(attempt)", from: "127.0.0.2").answer
            statuses.append(answer.status)
            if answer.status == 429 { retryAfter.append(answer.header("Retry-After") ?? "none") }
        }
        #expect(statuses.prefix(5).allSatisfy { $0 == 401 }, "\(statuses)")
        #expect(statuses.dropFirst(5).allSatisfy { $0 == 429 }, "the 6th attempt on waits: \(statuses)")
        #expect(retryAfter.allSatisfy { Int($0).map { (1...60).contains($0) } ?? false }, "\(retryAfter)")
        // While it waits, even the right token from the flooding client waits; from another client it works.
        #expect(try rig.signIn(rig.token, from: "127.0.0.2").answer.status == 429)
        let elsewhere = try rig.signIn(rig.token, from: "127.0.0.1")
        #expect(elsewhere.answer.status == 200 && elsewhere.cookie != nil)
        // A wrong bearer token counts as a failed sign-in too.
        let bearer = try rig.send("GET", "/api/session", headers: ["Authorization": "Bearer nope"], from: "127.0.0.2")
        #expect(bearer.status == 429, "\(bearer.head)")
        // A forged X-Forwarded-For is not another client (no proxy in front): a new address per guess is still slowed.
        var forged: [Int] = []
        for attempt in 0..<7 {
            forged.append(
                try rig.send(
                    "POST", "/api/login", headers: ["Origin": rig.origin, "X-Forwarded-For": "10.0.\(attempt).1"],
                    body: JSON.serialize(["secret": "guess"]), from: "127.0.0.3"
                ).status)
        }
        #expect(forged.suffix(2) == [429, 429], "\(forged)")
        // Each failure is in the log with the client, never with the secret tried.
        let log = rig.log
        #expect(log.contains("failed sign-in") && log.contains("127.0.0.2"), "\(log)")
        #expect(!log.contains("guess-0"))
    }

    @Test(.timeLimit(.minutes(1))) func behindTheProxyTheClientIsItsLastForwardedEntryAndHSTSIsSent() throws {
        let rig = try WebAttackRig(["--behind-https"])
        let origin = "https://127.0.0.1:\(rig.port)"
        func signIn(_ secret: String, forwardedFor: String) throws -> WebAttackRig.Answer {
            try rig.send(
                "POST", "/api/login", headers: ["Origin": origin, "X-Forwarded-For": forwardedFor],
                body: JSON.serialize(["secret": .string(secret)]))
        }
        // Through the proxy, the flooding client is its entry (what the client sent before it is its own to forge).
        let statuses = try (0..<7).map { try signIn("guess-\($0)", forwardedFor: "6.6.6.\($0), 192.168.1.66").status }
        #expect(statuses.prefix(5).allSatisfy { $0 == 401 } && statuses.suffix(2) == [429, 429], "\(statuses)")
        let operatorSignIn = try signIn(rig.token, forwardedFor: "192.168.1.10")
        #expect(operatorSignIn.status == 200, "another client behind the same proxy signs in")
        #expect(operatorSignIn.header("Strict-Transport-Security") != nil)
        #expect(operatorSignIn.header("Set-Cookie")?.contains("Secure") == true)
        #expect(rig.log.contains("192.168.1.66"))
    }

    @Test(.timeLimit(.minutes(1))) func aThousandIdleSocketsDoNotKeepTheOperatorOut() throws {
        let rig = try WebAttackRig()
        var sockets: [Int32] = []
        defer { sockets.forEach { close($0) } }
        for number in 0..<1000 {
            let descriptor = try WebAttackRig.connect(port: rig.port)
            sockets.append(descriptor)
            // Every other one starts a request head and never finishes it (a slow-header client).
            if number % 2 == 0 {
                let partial = Array("GET /api/session HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".utf8)
                _ = partial.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            }
        }
        let started = MonotonicClock.nanoseconds()
        let status = try rig.rpc("player.status", nil)
        #expect(status.status == 200 && status.json?["result"]?["state"] != nil, "\(status.head) \(status.body)")
        let signedIn = try rig.signIn(rig.token)
        #expect(signedIn.answer.status == 200)
        // Answered at all (the raw client's own timeout would have thrown): how fast is a figure, not a bound.
        print("with 1,000 idle sockets open: status and sign-in answered in \(Double(MonotonicClock.nanoseconds() - started) / 1e9) s")
        #expect(rig.web.isRunning)
    }

    @Test(.timeLimit(.minutes(1))) func aSlowHeaderIsCutOffHoweverSlowlyItKeepsSending() async throws {
        let rig = try WebAttackRig()
        // 15 s of blocking reads, off Swift's cooperative pool (2 threads here), which other suites' servers need.
        let closedAfter = try await WebServerTests.offPool { try Self.dribbleAHeader(port: rig.port) }
        let seconds = try #require(closedAfter, "the server never hung up on a header sent a byte a second")
        // Not at once (the deadline, not a refusal), and within the 20 s the reader waits (nil otherwise).
        #expect(seconds >= 10, "cut off after \(seconds) s")
    }

    /// Any thread, blocking: sends a request head a byte a second, never its end; seconds until the server
    /// hung up (nil: not within 20 s).
    static func dribbleAHeader(port: Int) throws -> Double? {
        let descriptor = try WebAttackRig.connect(port: port, timeout: 1)
        defer { close(descriptor) }
        let opened = MonotonicClock.nanoseconds()
        _ = Array("GET /api/session HTTP/1.1\r\nHost: 127.0.0.1\r\n".utf8).withUnsafeBytes {
            Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
        }
        // One header byte a second, never the blank line: each recv waits up to 1 s for the server to hang up.
        var closedAfter: Double?
        var byte: [UInt8] = [UInt8(ascii: "x")]
        while closedAfter == nil, MonotonicClock.nanoseconds() - opened < 20_000_000_000 {
            let sent = byte.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, 1, Int32(MSG_NOSIGNAL)) }
            var answer = [UInt8](repeating: 0, count: 512)
            let count = answer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if sent < 0 || count == 0 || (count < 0 && errno != EAGAIN) {
                closedAfter = Double(MonotonicClock.nanoseconds() - opened) / 1e9
            }
            byte = [UInt8(ascii: "y")]
        }
        return closedAfter
    }

    @Test(.timeLimit(.minutes(1))) func aSignInLoopDoesNotSignTheOperatorOut() throws {
        let rig = try WebAttackRig()
        let (answer, cookieOrNil, csrfOrNil) = try rig.signIn(rig.token)
        #expect(answer.status == 200)
        let cookie = try #require(cookieOrNil)
        let csrf = try #require(csrfOrNil)
        #expect(try rig.send("GET", "/api/session", headers: ["Cookie": cookie]).status == 200, "the operator uses the page")
        // A script with the token (from the same address: a shop behind one NAT) signs in again and again.
        for _ in 0..<100 {
            #expect(try rig.signIn(rig.token).answer.status == 200)
        }
        let session = try rig.send("GET", "/api/session", headers: ["Cookie": cookie])
        #expect(session.status == 200 && session.json?["csrf"]?.stringValue == csrf, "still signed in: \(session.head)")
        let change = try rig.send(
            "POST", "/api/rpc", headers: ["Cookie": cookie, "Origin": rig.origin, "X-CSRF-Token": csrf],
            body: JSON.serialize(Self.harmless))
        #expect(change.status == 200, "\(change.head) \(change.body)")
        #expect(try rig.daemonQueue() == ["http://127.0.0.1:9/attack.mp4"], "the operator's change reached the daemon")
    }

    @Test(.timeLimit(.minutes(1))) func signingOutClosesTheEventSocket() throws {
        let rig = try WebAttackRig()
        let (_, cookieOrNil, csrfOrNil) = try rig.signIn(rig.token)
        let cookie = try #require(cookieOrNil)
        let csrf = try #require(csrfOrNil)
        let events = try RawHTTP.Connection(port: rig.port)
        try events.send(
            "GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:\(rig.port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                + "Origin: \(rig.origin)\r\nCookie: \(cookie)\r\n\r\n")
        #expect(try events.readHead().hasPrefix("HTTP/1.1 101"))
        #expect(try events.readTextFrame().contains("daemon."))
        let out = try rig.send(
            "POST", "/api/logout", headers: ["Cookie": cookie, "Origin": rig.origin, "X-CSRF-Token": csrf], body: Array("{}".utf8))
        #expect(out.status == 200)
        // Events may still be on their way; then the server's close frame (or the end of the connection).
        var ending = ""
        for _ in 0..<50 {
            do {
                _ = try events.readTextFrame()
            } catch {
                ending = "\(error)"
                break
            }
        }
        #expect(ending.contains("closed"), "the socket ended with the session: \(ending)")
        #expect(try rig.send("GET", "/api/session", headers: ["Cookie": cookie]).status == 401)
    }

    @Test(.timeLimit(.minutes(1))) func listeningBeyondLoopbackWithoutTLSIsRefusedAndTheTokenIsNeverPrinted() throws {
        let scratch = try TemporaryDirectory(prefix: "queued-web-listen")
        let refused = try ChildProcess.run(
            BuiltProduct.path("queued-web"),
            ["--no-config", "--listen", "0.0.0.0:0", "--socket", scratch.path + "/none.sock", "--token-file", scratch.path + "/t"],
            timeout: 20)
        #expect(refused.status == 64, "\(refused)")
        #expect(refused.stderr.contains("--behind-https") && refused.stderr.contains("--insecure-listen"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/t"), "refused before anything was made")
        // A first start makes the token and keeps it out of the output; --show-token shows it.
        let rig = try WebAttackRig()
        #expect(!rig.log.contains(rig.token), "the token is not in the journal")
        let shown = try ChildProcess.run(BuiltProduct.path("queued-web"), ["--no-config", "--token-file", rig.tokenPath, "--show-token"])
        #expect(shown.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == rig.token)
        #expect(rig.web.isRunning)
    }
}

/// Uploads against the folder's quota: a chunked body (no length to refuse up front) and two uploads at once.
@Suite(.serialized) struct WebAttackUploadTests {
    @Test(.timeLimit(.minutes(1))) func aChunkedUploadAndUploadsAtOnceCannotPassTheQuota() throws {
        let rig = try WebAttackRig(["--media-quota", "1"])
        let bearer = ["Authorization": "Bearer \(rig.token)"]
        // Chunked, no Content-Length: cut off as the bytes pass the quota, nothing left behind.
        let big = try rig.send("POST", "/api/upload?name=big.mp4", headers: bearer, body: [UInt8](repeating: 1, count: 3 << 20), chunked: true)
        #expect(big.status == 507, "\(big.head) \(big.body)")
        #expect(rig.stored() == [])
        // A small chunked upload still fits (the reservation steps down to what arrived).
        let small = try rig.send("POST", "/api/upload?name=small.mp4", headers: bearer, body: [UInt8](repeating: 2, count: 100_000), chunked: true)
        #expect(small.status == 201, "\(small.head) \(small.body)")
        // Two at once, each fitting alone: the first holds its bytes while in flight, the second is refused.
        let first = try WebAttackRig.connect(port: rig.port)
        defer { close(first) }
        let length = 600_000
        let head = "POST /api/upload?name=first.mp4 HTTP/1.1\r\nHost: 127.0.0.1:\(rig.port)\r\nAuthorization: Bearer \(rig.token)\r\n"
            + "Content-Length: \(length)\r\nConnection: close\r\n\r\n"
        let opening = Array(head.utf8) + [UInt8](repeating: 3, count: 1000)
        _ = opening.withUnsafeBytes { Glibc.send(first, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        let started = waitUntil(timeout: 10) { rig.writingInMediaFolder() }
        #expect(started, "the first upload is being written")
        let second = try rig.send("POST", "/api/upload?name=second.mp4", headers: bearer, body: [UInt8](repeating: 4, count: length))
        #expect(second.status == 507, "\(second.head) \(second.body)")
        let rest = [UInt8](repeating: 3, count: length - 1000)
        _ = rest.withUnsafeBytes { Glibc.send(first, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var answer = [UInt8](repeating: 0, count: 4096)
        let count = answer.withUnsafeMutableBytes { recv(first, $0.baseAddress, $0.count, 0) }
        #expect(String(decoding: answer[..<max(0, count)], as: UTF8.self).hasPrefix("HTTP/1.1 201"))
        #expect(rig.stored() == ["first.mp4", "small.mp4"], "\(rig.stored())")
    }
}
