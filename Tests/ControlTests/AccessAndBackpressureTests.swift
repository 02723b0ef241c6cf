// Who may connect (file modes, then SO_PEERCRED), and clients that stop reading: a subscriber that never
// reads 50 ms progress for 60 s and a client that pipelines 40 MB of requests without reading replies.
// Neither may hold up playback, other clients, or the daemon's memory.

import Dispatch
import Foundation
import Glibc
import QueueClient
import QueueRPC
import TestSupport
import Testing

@Suite(.serialized) struct AccessAndBackpressureTests {
    func mode(_ path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o777 : 0
    }

    @Test func otherUsersAreRefused() throws {
        let daemon = try RunningDaemon([], video: false)
        defer { daemon.stop() }
        #expect(mode(daemon.socket) == 0o600)
        #expect(mode((daemon.socket as NSString).deletingLastPathComponent) == 0o700)
        let queuectl = BuiltProduct.path("queuectl")
        let asNobody = [
            "--reuid=65534", "--regid=65534", "--clear-groups", queuectl, "--socket", daemon.socket, "status",
        ]
        // 1. The file modes stop another user before the daemon sees it.
        let blocked = try ChildProcess.run("setpriv", asNobody, timeout: 30)
        #expect(blocked.status != 0)
        print(
            "nobody, default modes: exit \(blocked.status): \(blocked.stderr.trimmingCharacters(in: .whitespacesAndNewlines))"
        )
        // 2. Even with the modes opened up, the daemon checks the peer's uid and refuses it.
        chmod(daemon.directory.path, 0o755)
        chmod((daemon.socket as NSString).deletingLastPathComponent, 0o755)
        chmod(daemon.socket, 0o666)
        chmod(BuiltProduct.path("queuectl"), 0o755)
        let refused = try ChildProcess.run("setpriv", asNobody, timeout: 30)
        print(
            "nobody, open modes: exit \(refused.status): \(refused.stderr.trimmingCharacters(in: .whitespacesAndNewlines))"
        )
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("access denied"))
        #expect(try daemon.client().call("player.status")["state"] != nil, "the owner is still served")
    }

    @Test func clientsThatStopReadingHoldUpNothing() throws {
        let clip = try Fixtures.video(seconds: 2, fps: 25, hue: .red, withAudio: .aacMP4)
        let daemon = try RunningDaemon()
        defer { daemon.stop() }
        let control = try daemon.client()
        _ = try control.call("queue.add", ["items": [["uri": .string(clip), "loops": 0]]])
        _ = try control.call("player.play")
        let watcher = try daemon.client()
        _ = try watcher.call("events.subscribe", ["events": ["itemStarted"]])
        let baseline = daemon.residentBytes

        // A subscriber that asks for 50 ms progress and never reads.
        let sleeper = try daemon.client()
        _ = try sleeper.call("events.subscribe", ["progressInterval": 0.05])
        // A client that pipelines 40 MB of queue.list requests and never reads the replies.
        let flooder = UncheckedBox(try daemon.client(timeout: 2))  // used by the flood thread only
        let request = Array("{\"jsonrpc\":\"2.0\",\"method\":\"queue.list\",\"id\":1}\n".utf8)
        let flood = DispatchQueue(label: "flood")
        let floodDone = DispatchSemaphore(value: 0)
        let sentBytes = Counter()
        flood.async {
            let chunk = Array([[UInt8]](repeating: request, count: 1000).joined())
            // Keeps pushing for the whole half minute: once the daemon stops reading, each write blocks until
            // the client's timeout, and the client tries again.
            let started = Date()
            while sentBytes.value < 40 << 20 && Date().timeIntervalSince(started) < 28 {
                do {
                    try flooder.value.sendRaw(chunk)
                    sentBytes.add(chunk.count)
                } catch {
                    continue
                }
            }
            floodDone.signal()
        }

        // For 30 s: other clients keep answering promptly, playback keeps going (a new play every 2 s),
        // and memory stays bounded.
        var slowest = 0.0
        var peak = baseline
        let start = Date()
        var starts = 0
        while Date().timeIntervalSince(start) < 30 {
            let asked = Date()
            _ = try control.call("player.status")
            slowest = max(slowest, Date().timeIntervalSince(asked))
            peak = max(peak, daemon.residentBytes)
            starts += try collectNotifications(watcher, timeout: 1) { $0.count >= 1 }.count
        }
        _ = floodDone.wait(timeout: .now() + 10)
        let plays = starts
        let dropped = try control.call("player.status")["droppedFrames"]?.intValue ?? -1
        print(
            "backpressure 30 s: \(plays) plays started, \(dropped) pictures dropped, slowest status reply \(Int(slowest * 1000)) ms, RSS \(baseline >> 20) -> peak \(peak >> 20) MiB, the flooder got \(sentBytes.value >> 10) KiB of its 40 MiB in before the daemon stopped reading it"
        )
        #expect(plays >= 13 && plays <= 16, "a 2 s clip should start about 15 times in 30 s, got \(plays)")
        // What holds up nobody means here: every status asked above was answered within the control client's
        // own timeout (a call that timed out would have thrown), half a minute long, while the flooder was stuck. How
        // fast is a figure for contrib/bench/ipc, not a bound a busy machine can break (1.27 s was seen there).
        #expect(dropped >= 0 && dropped <= 2, "the stuck clients cost playback \(dropped) late pictures")
        #expect(peak - baseline < 64 << 20, "daemon memory grew by \((peak - baseline) >> 20) MiB")
        #expect(sentBytes.value < 40 << 20, "the daemon kept reading a client that never reads its replies")
        #expect(daemon.isRunning)
    }
}

/// Hands a non-Sendable value to exactly one other thread.
final class UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add(_ n: Int) { lock.withLock { count += n } }
    var value: Int { lock.withLock { count } }
}
