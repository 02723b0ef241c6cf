// 100,000 random and mutated messages against the real daemon, on one connection and on ten at once:
// no crash, every reply is valid JSON-RPC 2.0, and the daemon's memory stays bounded.

import Dispatch
import Foundation
import QueueClient
import QueueRPC
import TestSupport
import Testing

/// A small deterministic generator (SplitMix64), so a failure can be replayed from its seed.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

enum FuzzMessages {
    static let methods = [
        "queue.list", "player.status", "daemon.info", "queue.remove", "queue.move", "queue.update", "player.set",
        "player.seek", "events.subscribe", "events.unsubscribe", "queue.add", "queue.insert", "player.pause", "nope",
    ]
    static let seeds = [
        #"{"jsonrpc":"2.0","method":"queue.list","params":{"offset":0,"limit":5},"id":1}"#,
        #"{"jsonrpc":"2.0","method":"player.set","params":{"volume":50},"id":"x"}"#,
        #"[{"jsonrpc":"2.0","method":"player.status","id":1},{"jsonrpc":"2.0","method":"daemon.info"}]"#,
        #"{"jsonrpc":"2.0","method":"queue.add","params":{"items":["concat:/a|/b",{"uri":"rel"}]},"id":2}"#,
        #"{"jsonrpc":"2.0","method":"queue.remove","params":[[1,2,3]],"id":null}"#,
    ]

    static func message(_ random: inout SeededRandom) -> [UInt8] {
        switch random.next() % 4 {
        case 0: return Array(generated(&random).utf8)
        case 1, 2: return mutated(Array(seeds[Int(random.next() % UInt64(seeds.count))].utf8), &random)
        default:
            return (0..<Int(random.next() % 64)).map { _ in UInt8(truncatingIfNeeded: random.next()) }.filter {
                $0 != 10
            }
        }
    }

    static func generated(_ random: inout SeededRandom) -> String {
        let method = methods[Int(random.next() % UInt64(methods.count))]
        let values = [
            "1", "-1", "0", "1e308", "\"s\"", "null", "true", "[]", "{}", "[1,2]", "{\"a\":[{}]}",
            "99999999999999999999",
        ]
        let keys = ["id", "index", "items", "ids", "volume", "position", "events", "offset", "limit", "loops", "x"]
        var params: [String] = []
        for _ in 0..<Int(random.next() % 4) {
            params.append(
                "\"\(keys[Int(random.next() % UInt64(keys.count))])\":\(values[Int(random.next() % UInt64(values.count))])"
            )
        }
        let id = random.next() % 5 == 0 ? "" : ",\"id\":\(random.next() % 1000)"
        return "{\"jsonrpc\":\"2.0\",\"method\":\"\(method)\",\"params\":{\(params.joined(separator: ","))}\(id)}"
    }

    static func mutated(_ bytes: [UInt8], _ random: inout SeededRandom) -> [UInt8] {
        var bytes = bytes
        for _ in 0..<(1 + Int(random.next() % 4)) where !bytes.isEmpty {
            let at = Int(random.next() % UInt64(bytes.count))
            switch random.next() % 4 {
            case 0: bytes[at] = UInt8(truncatingIfNeeded: random.next())
            case 1: bytes.remove(at: at)
            case 2: bytes.insert(bytes[Int(random.next() % UInt64(bytes.count))], at: at)
            default: bytes = Array(bytes[..<at])
            }
        }
        return bytes.filter { $0 != 10 }
    }
}

@Suite(.serialized) struct FuzzTests {
    /// Sends `count` fuzz messages in pipelined chunks, each chunk closed by a sentinel request, and checks
    /// every reply line. Returns the number of replies.
    static func fuzz(_ socket: String, seed: UInt64, count: Int) throws -> Int {
        let client = try QueueClient(socketPath: socket, timeout: 30)
        defer { client.close() }
        var random = SeededRandom(state: seed)
        var replies = 0
        var sent = 0
        var chunk = 0
        while sent < count {
            var batch: [UInt8] = []
            for _ in 0..<min(500, count - sent) {
                batch += FuzzMessages.message(&random) + [10]
                sent += 1
            }
            let sentinel = "sentinel-\(seed)-\(chunk)"
            chunk += 1
            batch += Array("{\"jsonrpc\":\"2.0\",\"method\":\"player.status\",\"id\":\"\(sentinel)\"}\n".utf8)
            try client.sendRaw(batch)
            while true {
                guard let line = try client.readLine(timeout: 30) else {
                    throw ClientError.io("connection closed at \(sent)")
                }
                let inbound = try RPCClientInbound.parse(line)  // throws if not valid JSON-RPC
                replies += 1
                if case .response(let id, _) = inbound, id.value.stringValue == sentinel { break }
            }
        }
        return replies
    }

    @Test func hundredThousandMessagesCrashNothing() throws {
        let daemon = try RunningDaemon([], video: false)
        defer { daemon.stop() }
        let before = daemon.residentBytes
        let single = try Self.fuzz(daemon.socket, seed: 1, count: 50_000)
        let failures = FailureBox()
        DispatchQueue.concurrentPerform(iterations: 10) { index in
            do {
                _ = try Self.fuzz(daemon.socket, seed: UInt64(100 + index), count: 5_000)
            } catch {
                failures.add("connection \(index): \(error)")
            }
        }
        let after = daemon.residentBytes
        print(
            "fuzz: 100000 messages, \(single) replies on the single connection; daemon RSS \(before / 1024) KiB -> \(after / 1024) KiB"
        )
        #expect(failures.all.isEmpty, "\(failures.all)")
        #expect(daemon.isRunning)
        #expect(try daemon.client().call("player.status")["state"] != nil)
        #expect(after - before < 64 << 20, "RSS grew by \((after - before) >> 20) MiB")
    }
}

final class FailureBox: @unchecked Sendable {
    private let lock = NSLock()
    private var failures: [String] = []
    func add(_ failure: String) { lock.withLock { failures.append(failure) } }
    var all: [String] { lock.withLock { failures } }
}
