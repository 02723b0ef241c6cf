// What systemd and a monitoring system see, against the real daemon: a datagram socket bound by the test
// plays $NOTIFY_SOCKET. READY=1 comes once the control socket answers; WATCHDOG=1 keeps coming while
// playing and while idle; STOPPING=1 on shutdown; daemon.health's figures are there and plausible; the
// metrics file parses as Prometheus text.

import Foundation
import Glibc
import QueueClient
import QueueRPC
import TestSupport
import Testing

/// A bound AF_UNIX datagram socket: the service manager's end of the notify protocol.
private final class NotifyListener {
    let path: String
    private let descriptor: Int32

    init(path: String) throws {
        self.path = path
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard descriptor >= 0, bound == 0 else { throw TestSupportError.io("bind \(path): errno \(errno)") }
    }

    deinit { close(descriptor) }

    /// The next datagram's fields, or nil after `timeout` seconds.
    func next(timeout: Double) -> [String]? {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(timeout * 1000)) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(descriptor, &buffer, buffer.count, 0)
        guard count > 0 else { return nil }
        return String(decoding: buffer.prefix(count), as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// Datagrams until one holds `field` (nil if none within `timeout`); every one read is returned too.
    func waitFor(_ field: String, timeout: Double) -> (found: [String]?, seen: [[String]]) {
        let deadline = Date(timeIntervalSinceNow: timeout)
        var seen: [[String]] = []
        while deadline.timeIntervalSinceNow > 0, let fields = next(timeout: deadline.timeIntervalSinceNow) {
            seen.append(fields)
            if fields.contains(field) { return (fields, seen) }
        }
        return (nil, seen)
    }
}

@Suite(.serialized) struct SupervisionTests {
    @Test func systemdHearsReadyWatchdogAndStopping() throws {
        let directory = try TemporaryDirectory(prefix: "queued-notify")
        let listener = try NotifyListener(path: directory.path + "/notify")
        let socketPath = directory.path + "/queued.sock"
        let tone = try Fixtures.tone(frequency: 440, seconds: 30)
        let daemon = try ChildProcess(
            BuiltProduct.path("queued"),
            ["--socket", socketPath, "--no-state", "--audio", "null", "--video", "none"],
            environment: ["NOTIFY_SOCKET": listener.path, "WATCHDOG_USEC": "400000"],
            stderrPath: directory.path + "/queued.log")
        defer { _ = daemon.terminate() }

        let ready = listener.waitFor("READY=1", timeout: 30)
        #expect(ready.found != nil, "no READY=1; got \(ready.seen)")
        // READY=1 promises that the socket answers: connect right away, without retrying.
        let client = try QueueClient(socketPath: socketPath, timeout: 5)
        #expect(try client.call(API.PlayerStatus.self).state == "idle")
        #expect(ready.found?.contains { $0.hasPrefix("STATUS=") } == true)

        // Idle on purpose: the watchdog is fed (a 0.4 s watchdog gets a ping at least every 0.2 s).
        var idlePings = 0
        for _ in 0..<5 where listener.waitFor("WATCHDOG=1", timeout: 1).found != nil { idlePings += 1 }
        #expect(idlePings == 5, "idle: \(idlePings) of 5 pings")

        _ = try client.call(API.QueueAdd.self, .init(items: [RPCItemInput(uri: tone)]))
        _ = try client.call(API.PlayerPlay.self, .init())
        let playing = listener.waitFor("STATUS=playing #1 \((tone as NSString).lastPathComponent) 0 s", timeout: 10)
        #expect(playing.found != nil, "STATUS names the item: \(playing.seen)")
        var playingPings = 0
        for _ in 0..<5 where listener.waitFor("WATCHDOG=1", timeout: 1).found != nil { playingPings += 1 }
        #expect(playingPings == 5, "playing: \(playingPings) of 5 pings")

        let health = try client.call(API.DaemonHealth.self)
        #expect(health.rss > 1 << 20 && health.fds > 3 && health.threads >= 4, "\(health)")
        #expect(health.uptime > 0 && health.stalls == 0 && health.itemsFailed == 0)
        #expect(health.lastProgressAge < 2, "playing moves: \(health.lastProgressAge)")
        #expect(health.stateWrites == 0 && health.stateBytes == 0, "no state kept")

        kill(daemon.pid, SIGTERM)
        let stopping = listener.waitFor("STOPPING=1", timeout: 10)
        #expect(stopping.found != nil, "\(stopping.seen)")
        #expect(daemon.wait() == 0)
    }

    /// daemon.restart (the fleet page's "Restart daemon"): answered, then the same process starts again from
    /// its state; systemd hears a reload (never STOPPING) and READY=1 again, and keeps the main pid.
    @Test func daemonRestartKeepsThePidTheQueueAndTellsSystemdAReload() throws {
        let directory = try TemporaryDirectory(prefix: "queued-restart")
        let listener = try NotifyListener(path: directory.path + "/notify")
        let socketPath = directory.path + "/queued.sock"
        let tone = try Fixtures.tone(frequency: 440, seconds: 30)
        let daemon = try ChildProcess(
            BuiltProduct.path("queued"),
            ["--socket", socketPath, "--state-dir", directory.path + "/state", "--audio", "null", "--video", "none"],
            environment: ["NOTIFY_SOCKET": listener.path],
            stderrPath: directory.path + "/queued.log")
        defer { _ = daemon.terminate() }
        #expect(listener.waitFor("READY=1", timeout: 30).found != nil)
        let client = try QueueClient(socketPath: socketPath, timeout: 5)
        _ = try client.call(API.QueueAdd.self, .init(items: [RPCItemInput(uri: tone, loops: 3)]))
        _ = try client.call(API.PlayerPlay.self, .init())
        let before = try client.call(API.DaemonInfo.self)

        let answer = try client.call(API.DaemonRestart.self)
        #expect(answer == .init(restarting: true, pid: Int64(daemon.pid)))
        let reload = listener.waitFor("READY=1", timeout: 30)
        let fields = reload.seen.flatMap { $0 }
        #expect(fields.contains("RELOADING=1"), "a reload first: \(reload.seen)")
        #expect(!fields.contains("STOPPING=1"), "a restart is no stop: \(reload.seen)")
        #expect(reload.found?.contains("MAINPID=\(daemon.pid)") == true, "the same process: \(reload.seen)")
        #expect(daemon.isRunning)

        // READY=1 again: the socket answers at once, and the queue came back from the state directory.
        let again = try QueueClient(socketPath: socketPath, timeout: 5)
        let info = try again.call(API.DaemonInfo.self)
        #expect(info.pid == before.pid && info.uptime < before.uptime + 30, "\(info)")
        let list = try again.call(API.QueueList.self, .init())
        #expect(list.items.map { $0.uri } == [tone] && list.items.first?.loops == 3, "\(list)")
        let log = (try? String(contentsOfFile: directory.path + "/queued.log", encoding: .utf8)) ?? ""
        #expect(log.contains("restarting (daemon.restart)"), "\(log)")
        // Nothing of the first run is left open in the second: as many descriptors as a fresh start has.
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(daemon.pid)/fd"))?.count ?? 0
        #expect(descriptors > 3 && descriptors < 40, "\(descriptors) descriptors")
        kill(daemon.pid, SIGTERM)
        #expect(daemon.wait() == 0)
    }

    @Test func healthCountsStateWritesAndTheMetricsFileIsPrometheusText() throws {
        let directory = try TemporaryDirectory(prefix: "queued-metrics")
        let metrics = directory.path + "/queued.prom"
        let daemon = try RunningDaemon(
            outputs: .null(untimed: true),
            ["--state-dir", directory.path + "/state", "--metrics-file", metrics])
        let client = try daemon.client()
        _ = try client.call(API.QueueAdd.self, .init(items: [RPCItemInput(uri: "/media/a.mp4")]))
        let health = try client.call(API.DaemonHealth.self)
        #expect(health.stateWrites >= 1, "the add (the journal goes on from what was read: no first snapshot): \(health)")
        #expect(health.stateBytes > 0)
        #expect(health.lastPictureAge == nil, "no picture yet")
        let written = try waitUntil(timeout: 15, pollInterval: 0.05) { FileManager.default.fileExists(atPath: metrics) }
        #expect(written)
        let text = try String(contentsOfFile: metrics, encoding: .utf8)
        // The exposition format: "# TYPE name gauge" then "name value", names [a-zA-Z_:][a-zA-Z0-9_:]*.
        var samples: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: " ")
            #expect(parts.count == 2, "\(line)")
            let name = String(parts[0])
            #expect(name.range(of: "^[a-zA-Z_:][a-zA-Z0-9_:]*$", options: .regularExpression) != nil, "\(name)")
            samples[name] = Double(parts[1])
        }
        #expect((samples["queued_rss"] ?? 0) > 0)
        #expect(samples["queued_state_writes"] != nil && samples["queued_frames_shown"] != nil, "\(samples.keys)")
        #expect(text.contains("# TYPE queued_rss gauge"))
        daemon.stop()
    }

    /// A FIFO whose writer stops (and keeps its end open) holds playback; the item ends `error: stalled`
    /// within stall-timeout + 1 s of its sound stopping and the next item plays.
    @Test func aStalledSourceEndsItsItemAndTheQueuePlaysOn() throws {
        let directory = try TemporaryDirectory(prefix: "queued-stall")
        let fifo = directory.path + "/feed.wav"
        try #require(mkfifo(fifo, 0o600) == 0)
        let daemon = try RunningDaemon(outputs: .null(untimed: false), ["--stall-timeout", "2"])
        defer { daemon.stop() }
        let client = try daemon.client()
        let watcher = try daemon.client()
        _ = try watcher.call(API.EventsSubscribe.self, .init(events: [.itemStarted, .itemEnded]))
        let tone = try Fixtures.tone(frequency: 440, seconds: 4, format: .wav)
        let after = try Fixtures.tone(frequency: 660, seconds: 1, format: .wav)
        let ids = try client.call(API.QueueAdd.self, .init(items: [RPCItemInput(uri: fifo), RPCItemInput(uri: after)]))
            .ids
        try #require(ids.count == 2)
        _ = try client.call(API.PlayerPlay.self, .init())

        // The writer: the header and one second of the tone (48 kHz stereo S16), then silence on an open end.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: tone))
        let written = DispatchSemaphore(value: 0)
        let writer = WriterEnd()
        Thread.detachNewThread {
            writer.fd = open(fifo, O_WRONLY | O_CLOEXEC)
            // The smallest pipe buffer (one page, F_SETPIPE_SZ = 1031): "the last byte written" is then
            // within a few milliseconds of the last byte the daemon could read.
            _ = fcntl(writer.fd, 1031, 4096)
            let part = bytes.prefix(44 + 192_000)
            _ = part.withUnsafeBytes { raw -> Int in
                var offset = 0
                while offset < raw.count {
                    let n = write(writer.fd, raw.baseAddress! + offset, raw.count - offset)
                    if n <= 0 { break }
                    offset += n
                }
                return offset
            }
            written.signal()
        }
        defer { if writer.fd >= 0 { close(writer.fd) } }
        try #require(written.wait(timeout: .now() + 30) == .success, "the daemon never read the FIFO")
        let lastByte = MonotonicClock.seconds()
        let first = ids[0]
        let second = ids[1]
        func isEvent(_ note: (method: String, params: JSONValue?), _ method: String, _ id: Int64) -> Bool {
            note.method == method && note.params?["id"]?.intValue.map { Int64($0) } == id
        }
        // The daemon plays the second it was given, then hears nothing more: its sound stops one second
        // after the item started, and the end must come within stall-timeout + 1 s of that.
        var seen = try collectNotifications(watcher, timeout: 20) { notes in
            notes.contains { isEvent($0, "event.itemStarted", first) || isEvent($0, "event.itemEnded", first) }
        }
        let startedAt = MonotonicClock.seconds()
        seen += try collectNotifications(watcher, timeout: 20) { notes in
            notes.contains { isEvent($0, "event.itemEnded", first) }
        }
        let silentFrom = startedAt + 1
        let endedAt = MonotonicClock.seconds()
        seen += try collectNotifications(watcher, timeout: 10) { notes in
            notes.contains { isEvent($0, "event.itemStarted", second) }
        }
        let ended = seen.first { isEvent($0, "event.itemEnded", first) }
        let reason = ended?.params?["reason"]?.stringValue
        let message = ended?.params?["error"]?.stringValue ?? ""
        #expect(reason == "error", "\(seen)")
        #expect(message.contains("stalled"), "\(message)")
        #expect(seen.contains { isEvent($0, "event.itemStarted", second) }, "the next item did not start: \(seen)")
        print(
            "stalled FIFO: the item ended \(String(format: "%.2f", endedAt - silentFrom)) s after its sound stopped (\(String(format: "%.2f", endedAt - lastByte)) s after the last byte was written)"
        )
        #expect(
            endedAt - silentFrom <= 3, "ended \(endedAt - silentFrom) s after the sound stopped (stall timeout 2 s)")
        let failed = try client.call(API.QueueGet.self, .init(ids: [ids[0]])).items.first
        #expect(
            failed?.state == "failed" && failed?.error?.contains("stalled") == true, "\(String(describing: failed))")
    }
}

private final class WriterEnd: @unchecked Sendable {
    var fd: Int32 = -1
}
