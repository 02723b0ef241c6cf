// JSON-RPC 2.0 strictness on the real socket, byte for byte: malformed JSON, wrong types, unknown
// methods, invalid params, notifications, batches, oversized lines, binary garbage, a client that
// disconnects mid-line. After each: the right error, the connection and the daemon live on, and the
// queue is unchanged.

import Foundation
import QueueClient
import QueueRPC
import TestSupport
import Testing

@Suite(.serialized) struct ProtocolConformanceTests {
    /// Sends one raw line and returns the parsed reply line (nil if none came within `timeout`).
    func exchange(_ client: QueueClient, _ line: String, timeout: Double = 2) throws -> JSONValue? {
        try client.sendRaw(Array((line + "\n").utf8))
        guard let reply = try client.readLine(timeout: timeout) else { return nil }
        return try JSON.parse(reply)
    }

    func errorCode(_ reply: JSONValue?) -> Int64? { reply?["error"]?["code"]?.intValue }

    @Test func malformedAndInvalidRequestsGetTheRightErrors() throws {
        let daemon = try RunningDaemon([], video: false)
        defer { daemon.stop() }
        let client = try daemon.client()
        let version = try client.call("queue.list")["version"]
        let cases: [(line: String, code: Int64, id: JSONValue)] = [
            ("{\"jsonrpc\":\"2.0\",\"method\":\"player.status\",\"id\":1", -32700, .null),
            ("not json at all", -32700, .null),
            ("{\"jsonrpc\":\"1.0\",\"method\":\"player.status\",\"id\":2}", -32600, 2),
            ("{\"method\":\"player.status\",\"id\":3}", -32600, 3),
            ("{\"jsonrpc\":\"2.0\",\"method\":42,\"id\":4}", -32600, 4),
            ("{\"jsonrpc\":\"2.0\",\"method\":\"player.status\",\"id\":{\"a\":1}}", -32600, .null),
            ("{\"jsonrpc\":\"2.0\",\"method\":\"player.status\",\"params\":\"x\",\"id\":5}", -32600, 5),
            ("{\"jsonrpc\":\"2.0\",\"method\":\"no.such\",\"id\":6}", -32601, 6),
            (
                "{\"jsonrpc\":\"2.0\",\"method\":\"queue.move\",\"params\":{\"id\":\"one\",\"index\":0},\"id\":7}",
                -32602, 7
            ),
            ("{\"jsonrpc\":\"2.0\",\"method\":\"queue.list\",\"params\":{\"limit\":0},\"id\":8}", -32602, 8),
            ("{\"jsonrpc\":\"2.0\",\"method\":\"queue.list\",\"params\":[0,1,2,3],\"id\":9}", -32602, 9),
            ("{\"jsonrpc\":\"2.0\",\"method\":\"player.set\",\"params\":{\"volume\":101},\"id\":10}", -32602, 10),
            ("{\"jsonrpc\":\"2.0\",\"method\":\"queue.add\",\"params\":{\"itemz\":[]},\"id\":11}", -32602, 11),
            ("[]", -32600, .null),
            ("42", -32600, .null),
        ]
        for (line, code, id) in cases {
            let reply = try exchange(client, line)
            #expect(errorCode(reply) == code, "\(line) → \(String(describing: reply))")
            #expect(reply?["id"] == id, "\(line): id echoed")
            #expect(reply?["jsonrpc"]?.stringValue == "2.0")
        }
        let invalidParams = try exchange(
            client, "{\"jsonrpc\":\"2.0\",\"method\":\"queue.move\",\"params\":{\"id\":\"one\",\"index\":0},\"id\":1}")
        #expect(invalidParams?["error"]?["data"]?["param"]?.stringValue == "id", "invalid params say which param")
        // Ids of every allowed type are echoed as they were.
        for id in ["\"abc\"", "-7", "3.5", "null"] {
            let reply = try exchange(client, "{\"jsonrpc\":\"2.0\",\"method\":\"player.status\",\"id\":\(id)}")
            #expect(reply?["id"] == (try JSON.parse(id)))
            #expect(reply?["result"]?["state"] != nil)
        }
        #expect(try client.call("queue.list")["version"] == version, "the queue is unchanged")
    }

    @Test func notificationsAndBatches() throws {
        let daemon = try RunningDaemon([], video: false)
        defer { daemon.stop() }
        let client = try daemon.client()
        // A notification gets no answer: the next line read answers the request after it.
        try client.sendRaw(Array("{\"jsonrpc\":\"2.0\",\"method\":\"player.status\"}\n".utf8))
        try client.sendRaw(Array("{\"jsonrpc\":\"2.0\",\"method\":\"no.such\"}\n".utf8))
        let next = try exchange(client, "{\"jsonrpc\":\"2.0\",\"method\":\"daemon.info\",\"id\":\"after\"}")
        #expect(next?["id"]?.stringValue == "after")
        // A mixed batch: one answer per request with an id, in an array; invalid members answered too.
        let mixed = try exchange(
            client,
            """
            [{"jsonrpc":"2.0","method":"player.status","id":1},{"jsonrpc":"2.0","method":"player.status"},\
            {"jsonrpc":"2.0","method":"no.such","id":2},1,{"jsonrpc":"2.0","method":"queue.list","params":[0,5],"id":3}]
            """)
        let answers = mixed?.arrayValue ?? []
        #expect(answers.count == 4)
        #expect(answers.compactMap { $0["id"]?.intValue }.sorted() == [1, 2, 3])
        #expect(answers.contains { $0["id"]?.isNull == true && $0["error"]?["code"]?.intValue == -32600 })
        #expect(answers.first { $0["id"]?.intValue == 2 }?["error"]?["code"]?.intValue == -32601)
        // A batch of notifications only: nothing comes back.
        try client.sendRaw(
            Array(
                "[{\"jsonrpc\":\"2.0\",\"method\":\"player.status\"},{\"jsonrpc\":\"2.0\",\"method\":\"daemon.info\"}]\n"
                    .utf8))
        #expect(
            try exchange(client, "{\"jsonrpc\":\"2.0\",\"method\":\"player.status\",\"id\":4}")?["id"]?.intValue == 4)
        // Positional params follow the declared order.
        #expect(
            try exchange(client, "{\"jsonrpc\":\"2.0\",\"method\":\"queue.list\",\"params\":[0,1],\"id\":5}")?[
                "result"]?["total"] != nil)
    }

    @Test func oversizedLinesGarbageAndHalfLinesLeaveEverythingAlive() throws {
        let daemon = try RunningDaemon([], video: false)
        defer { daemon.stop() }
        let client = try daemon.client()
        let version = try client.call("queue.list")["version"]
        // Over the 1 MiB limit: an error, and the connection keeps working.
        let huge =
            "{\"jsonrpc\":\"2.0\",\"method\":\"player.status\",\"params\":{\"pad\":\""
            + String(repeating: "x", count: 1_100_000) + "\"},\"id\":1}"
        let reply = try exchange(client, huge, timeout: 10)
        #expect(errorCode(reply) == -32600)
        #expect(try client.call("player.status")["state"] != nil)
        // Binary garbage, including NUL and invalid UTF-8.
        var garbage: [UInt8] = (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) }.filter {
            $0 != 10
        }
        garbage.append(10)
        try client.sendRaw(garbage)
        let garbageReply = try client.readLine(timeout: 2).map { try JSON.parse($0) }
        #expect(errorCode(garbageReply) == -32700)
        #expect(try client.call("player.status")["state"] != nil)
        // A client that disconnects mid-line.
        let leaving = try daemon.client()
        try leaving.sendRaw(Array("{\"jsonrpc\":\"2.0\",\"method\":\"queue.clear\",\"id\":1".utf8))
        leaving.close()
        #expect(try daemon.client().call("queue.list")["version"] == version, "the half line did nothing")
        #expect(daemon.isRunning)
    }
}
