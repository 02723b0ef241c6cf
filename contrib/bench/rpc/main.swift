// The wire layer's throughput on one core: typical request lines read and answered per second (JSON
// parse, JSON serialize, and the whole per-request path: envelope, params, answer line). A micro-benchmark
// with no mpv counterpart, so it lives here rather than among the tests (a printed rate is no assertion).
// Run: swift run -c release rpc-throughput-bench [ROUNDS]   (default 500000)
import QueueRPC

/// A queue.add as queuectl sends it, and a player.set: the common shapes of traffic.
let lines: [[UInt8]] = [
    Array(
        #"{"jsonrpc":"2.0","method":"queue.add","params":{"items":[{"uri":"/srv/media/signage/clip-0042.mp4","loops":2,"title":"Lobby loop"}]},"id":1042}"#
            .utf8),
    Array(
        #"{"jsonrpc":"2.0","method":"player.set","params":{"volume":80,"rate":1.25,"fit":"fill"},"id":"c-7"}"#.utf8),
]
let rounds = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 500_000
var checksum = 0
let clock = ContinuousClock()

let parseTime = clock.measure {
    for round in 0..<rounds {
        if case .object(let members)? = try? JSON.parse(lines[round & 1]) { checksum &+= members.count }
    }
}

guard let value = try? JSON.parse(lines[0]) else { fatalError("the sample line does not parse") }
let serializeTime = clock.measure {
    for _ in 0..<rounds { checksum &+= JSON.serialize(value).count }
}

// The whole per-request path of the server's wire layer: envelope, params, answer line.
let fullTime = clock.measure {
    for round in 0..<rounds {
        guard case .single(.request(let request)) = RPCLine.parse(lines[round & 1]),
            let id = request.id,
            let reader = try? ParamReader(request.params, order: ["items", "volume", "rate", "fit"])
        else { continue }
        let result: JSONValue = ["ids": [.int(Int64(round))], "count": .int((try? reader.int("volume")) ?? 0)]
        checksum &+= RPCEncode.line(RPCEncode.result(result, id: id)).count
    }
}

func rate(_ duration: Duration) -> String {
    let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    return "\(Int(Double(rounds) / seconds)) /s"
}
let sizes = lines.map { String($0.count) }.joined(separator: " and ")
print("QueueRPC throughput (\(rounds) rounds, lines of \(sizes) bytes; checksum \(checksum)):")
print("  JSON.parse                          \(rate(parseTime))")
print("  JSON.serialize                      \(rate(serializeTime))")
print("  RPCLine + ParamReader + answer line \(rate(fullTime))")
