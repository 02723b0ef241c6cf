// QueueClient against QueuectlFakeServer: requests on the wire, results and errors, notifications that
// arrive during a call or after it, end of stream, timeouts and a missing daemon. The real daemon's
// conversations are the end-to-end tests' business; these pin down the client's own behaviour.

import Glibc
import QueueClient
import QueueRPC
import QueuectlPresentation
import Testing

@Suite("QueueClient against a fake daemon")
struct QueuectlClientTests {
    /// Answers every request with `{"ok": <method>}`.
    static func echoServer() throws -> QueuectlFakeServer {
        try QueuectlFakeServer { line in
            let id = QueuectlFakeServer.id(of: line)
            let method = QueuectlFakeServer.method(of: line)
            return .init(lines: [#"{"jsonrpc":"2.0","result":{"ok":"\#(method)"},"id":\#(id)}"#])
        }
    }

    @Test func callSendsARequestLineAndReturnsItsResult() throws {
        let server = try Self.echoServer()
        defer { server.stop() }
        let client = try QueueClient(socketPath: server.path)
        defer { client.close() }
        #expect(try client.call("player.status") == ["ok": "player.status"])
        #expect(try client.call("queue.list", ["limit": 5]) == ["ok": "queue.list"])
        let sent = try server.received.map { try JSON.parse($0) }
        #expect(
            sent == [
                ["jsonrpc": "2.0", "method": "player.status", "id": 1],
                ["jsonrpc": "2.0", "method": "queue.list", "params": ["limit": 5], "id": 2],
            ])
    }

    @Test func daemonErrorsBecomeRPCErrorsWithTheirData() throws {
        let server = try QueuectlFakeServer { line in
            let id = QueuectlFakeServer.id(of: line)
            return .init(lines: [
                #"{"jsonrpc":"2.0","error":{"code":-32000,"message":"No item with id 9.","data":{"id":9}},"id":\#(id)}"#
            ])
        }
        defer { server.stop() }
        let client = try QueueClient(socketPath: server.path)
        #expect {
            _ = try client.call("queue.remove", ["ids": [9]])
        } throws: { error in
            guard case .rpc(let rpc) = error as? ClientError else { return false }
            return rpc.code == -32000 && rpc.message == "No item with id 9." && rpc.data == ["id": 9]
        }
    }

    @Test func notificationsReadDuringACallAreQueuedInOrder() throws {
        // Two events arrive before the response, one in a batch with it, one after it.
        let server = try QueuectlFakeServer { line in
            let id = QueuectlFakeServer.id(of: line)
            return .init(lines: [
                #"{"jsonrpc":"2.0","method":"event.queueChanged","params":{"version":1}}"#,
                #"{"jsonrpc":"2.0","method":"event.queueChanged","params":{"version":2}}"#,
                #"[{"jsonrpc":"2.0","method":"event.queueChanged","params":{"version":3}},"#
                    + #"{"jsonrpc":"2.0","result":{"events":["queueChanged"],"progressInterval":1},"id":\#(id)}]"#,
                #"{"jsonrpc":"2.0","method":"event.itemStarted","params":{"id":4,"play":1,"at":1.5}}"#,
            ])
        }
        defer { server.stop() }
        let client = try QueueClient(socketPath: server.path)
        let result = try client.call("events.subscribe")
        #expect(result["events"] == ["queueChanged"])
        var versions: [Int64] = []
        for _ in 0..<3 {
            let note = try #require(try client.nextNotification(timeout: 2))
            #expect(note.method == "event.queueChanged")
            versions.append(note.params?["version"]?.intValue ?? -1)
        }
        #expect(versions == [1, 2, 3])
        let started = try #require(try client.nextNotification(timeout: 2))
        #expect(started.method == "event.itemStarted")
        #expect(started.params == ["id": 4, "play": 1, "at": 1.5])
    }

    @Test func aNullIDErrorAnswersTheCallInFlight() throws {
        let server = try QueuectlFakeServer { _ in
            .init(lines: [#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"},"id":null}"#])
        }
        defer { server.stop() }
        let client = try QueueClient(socketPath: server.path)
        #expect {
            _ = try client.call("player.status")
        } throws: { error in
            guard case .rpc(let rpc) = error as? ClientError else { return false }
            return rpc.code == -32700
        }
    }

    @Test func sendRawAndReadLineAreByteExact() throws {
        let server = try QueuectlFakeServer { line in .init(lines: ["echo:" + line]) }
        defer { server.stop() }
        let client = try QueueClient(socketPath: server.path)
        // Two lines in one write, the second split over two writes: no newline is added by sendRaw.
        try client.sendRaw(Array("not json\n{\"a\":".utf8))
        try client.sendRaw(Array("1}\n".utf8))
        #expect(try client.readLine(timeout: 2) == Array("echo:not json".utf8))
        #expect(try client.readLine(timeout: 2) == Array("echo:{\"a\":1}".utf8))
        #expect(server.received == ["not json", "{\"a\":1}"])
    }

    @Test func notifySendsNoIDAndExpectsNoAnswer() throws {
        let server = try QueuectlFakeServer { _ in .init(lines: []) }
        defer { server.stop() }
        let client = try QueueClient(socketPath: server.path)
        try client.notify("player.pause")
        client.close()
        let arrived = waitUntilReceived(server, count: 1)
        #expect(arrived)
        #expect(try server.received.map { try JSON.parse($0) } == [["jsonrpc": "2.0", "method": "player.pause"]])
    }

    @Test func endOfStreamEndsNotificationsAndFailsACall() throws {
        // The last line has no "\n" before the hang-up: it still counts.
        let server = try QueuectlFakeServer { line in
            if QueuectlFakeServer.method(of: line) == "bye" {
                return .init(lines: [], close: true)
            }
            let id = QueuectlFakeServer.id(of: line)
            return .init(lines: [#"{"jsonrpc":"2.0","result":true,"id":\#(id)}"#], close: true)
        }
        defer { server.stop() }
        let client = try QueueClient(socketPath: server.path)
        #expect(try client.call("events.subscribe") == true)
        #expect(try client.nextNotification(timeout: 2) == nil)
        #expect(try client.readLine(timeout: 2) == nil)

        let second = try QueueClient(socketPath: server.path)
        #expect {
            _ = try second.call("bye")
        } throws: { error in
            guard case .io(let message) = error as? ClientError else { return false }
            return message.contains("closed the connection")
        }
    }

    @Test func aSilentDaemonTimesOut() throws {
        let server = try QueuectlFakeServer { _ in .init(lines: []) }
        defer { server.stop() }
        let client = try QueueClient(socketPath: server.path, timeout: 0.3)
        let start = WallClock.now()
        #expect {
            _ = try client.call("player.status")
        } throws: { error in
            guard case .timeout(let seconds) = error as? ClientError else { return false }
            return seconds == 0.3
        }
        let elapsed = WallClock.now() - start
        #expect(elapsed >= 0.29 && elapsed < 5, "waited \(elapsed) s")
        // No notification within the timeout is nil, not an error.
        #expect(try client.nextNotification(timeout: 0.05) == nil)
        #expect(throws: ClientError.self) { _ = try client.readLine(timeout: 0.05) }
    }

    @Test func aMissingSocketMeansNotRunning() throws {
        let path = "/tmp/queuectl-no-such-dir-\(getpid())/queued.sock"
        #expect {
            _ = try QueueClient(socketPath: path)
        } throws: { error in
            guard case .notRunning(let reported) = error as? ClientError else { return false }
            return reported == path
        }
        #expect(ClientError.notRunning(path: path).description == "queued is not running at \(path)")
    }

    @Test func aStoppedDaemonsLeftoverSocketMeansNotRunning() throws {
        let server = try Self.echoServer()
        let path = server.path
        server.stop()
        // The socket file is still there but nobody listens: ECONNREFUSED.
        #expect {
            _ = try QueueClient(socketPath: path)
        } throws: { error in
            guard case .notRunning = error as? ClientError else { return false }
            return true
        }
    }

    private func waitUntilReceived(_ server: QueuectlFakeServer, count: Int) -> Bool {
        for _ in 0..<400 {
            if server.received.count >= count { return true }
            usleep(5000)
        }
        return false
    }
}
