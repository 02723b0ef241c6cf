// A micro-benchmark, not an assertion: prints how many typical request lines per second the wire layer
// reads and answers on one core. Meaningful only in a release build (`swift test -c release`).
import QueueRPC
import Testing

@Suite struct ThroughputTests {
    /// A queue.add as queuectl sends it, and a player.set: the common shapes of traffic.
    private static let lines: [[UInt8]] = [
        Array(
            #"{"jsonrpc":"2.0","method":"queue.add","params":{"items":[{"uri":"/srv/media/signage/clip-0042.mp4","loops":2,"title":"Lobby loop"}]},"id":1042}"#
                .utf8),
        Array(
            #"{"jsonrpc":"2.0","method":"player.set","params":{"volume":80,"rate":1.25,"fit":"fill"},"id":"c-7"}"#.utf8),
    ]

    #if DEBUG
    private static let rounds = 20_000
    #else
    private static let rounds = 500_000
    #endif

    @Test func requestLinesPerSecond() throws {
        var checksum = 0
        let clock = ContinuousClock()

        let parseTime = clock.measure {
            for round in 0..<Self.rounds {
                if case .object(let members)? = try? JSON.parse(Self.lines[round & 1]) { checksum &+= members.count }
            }
        }

        let value = try JSON.parse(Self.lines[0])
        let serializeTime = clock.measure {
            for _ in 0..<Self.rounds { checksum &+= JSON.serialize(value).count }
        }

        // The whole per-request path of the server's wire layer: envelope, params, answer line.
        let fullTime = clock.measure {
            for round in 0..<Self.rounds {
                guard case .single(.request(let request)) = RPCLine.parse(Self.lines[round & 1]),
                    let id = request.id,
                    let reader = try? ParamReader(request.params, order: ["items", "volume", "rate", "fit"])
                else { continue }
                let result: JSONValue = ["ids": [.int(Int64(round))], "count": .int((try? reader.int("volume")) ?? 0)]
                checksum &+= RPCEncode.line(RPCEncode.result(result, id: id)).count
            }
        }

        func rate(_ duration: Duration) -> String {
            let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
            return "\(Int(Double(Self.rounds) / seconds)) /s"
        }
        let sizes = Self.lines.map { String($0.count) }.joined(separator: " and ")
        print("QueueRPC throughput (\(Self.rounds) rounds, lines of \(sizes) bytes):")
        print("  JSON.parse                          \(rate(parseTime))")
        print("  JSON.serialize                      \(rate(serializeTime))")
        print("  RPCLine + ParamReader + answer line \(rate(fullTime))")
        #expect(checksum != 0)
    }
}
