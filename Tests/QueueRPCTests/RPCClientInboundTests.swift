// What the client reads back: responses, errors, notifications, batches, and what it refuses.

import QueueRPC
import Testing

@Suite struct RPCClientInboundTests {
    private func read(_ line: String) throws(RPCError) -> RPCClientInbound {
        try RPCClientInbound.parse(Array(line.utf8))
    }

    private func failure(_ line: String) -> RPCError? {
        do {
            _ = try read(line)
            return nil
        } catch {
            return error
        }
    }

    @Test func responses() throws {
        #expect(
            try read(#"{"jsonrpc":"2.0","result":{"ids":[1]},"id":1}"#)
                == .response(id: 1, result: .success(["ids": [1]])))
        #expect(try read(#"{"jsonrpc":"2.0","result":null,"id":"a"}"#) == .response(id: "a", result: .success(nil)))
        #expect(
            try read(#"{"id":2,"error":{"code":-32000,"message":"no item","data":{"id":9}},"jsonrpc":"2.0"}"#)
                == .response(id: 2, result: .failure(RPCError(code: -32000, message: "no item", data: ["id": 9]))))
        #expect(
            try read(#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"parse error"},"id":null}"#)
                == .response(id: .null, result: .failure(RPCError(code: -32700, message: "parse error"))))
        // Unknown members are tolerated.
        #expect(
            try read(#"{"jsonrpc":"2.0","result":1,"id":1,"x-extra":true}"#)
                == .response(id: 1, result: .success(1)))
    }

    @Test func notifications() throws {
        #expect(
            try read(#"{"jsonrpc":"2.0","method":"event.queueChanged","params":{"version":3}}"#)
                == .notification(method: "event.queueChanged", params: ["version": 3]))
        #expect(try read(#"{"jsonrpc":"2.0","method":"ping"}"#) == .notification(method: "ping", params: nil))
    }

    @Test func batches() throws {
        let line =
            #"[{"jsonrpc":"2.0","result":1,"id":1},{"jsonrpc":"2.0","error":{"code":-32601,"message":"m"},"id":2}]"#
        #expect(
            try read(line)
                == .batch([
                    .response(id: 1, result: .success(1)),
                    .response(id: 2, result: .failure(RPCError(code: -32601, message: "m"))),
                ]))
    }

    @Test func roundTripsWhatTheServerWrites() throws {
        let messages: [JSONValue] = [
            RPCEncode.result(["state": "playing"], id: 4),
            RPCEncode.error(.invalidParams(param: "ids", reason: "is required"), id: "q"),
            RPCEncode.notification(method: "event.progress", params: ["id": 1, "position": 2.5]),
        ]
        let expected: [RPCClientInbound] = [
            .response(id: 4, result: .success(["state": "playing"])),
            .response(id: "q", result: .failure(.invalidParams(param: "ids", reason: "is required"))),
            .notification(method: "event.progress", params: ["id": 1, "position": 2.5]),
        ]
        for (message, inbound) in zip(messages, expected) {
            #expect(try RPCClientInbound.parse(RPCEncode.line(message)) == inbound)
        }
        #expect(try RPCClientInbound.parse(RPCEncode.batchLine(messages)) == .batch(expected))
    }

    @Test(arguments: [
        (
            #"{"jsonrpc":"2.0","result":1"#, -32700,
            "parse error: unexpected end of input, expected ',' or '}' at byte 27"
        ),
        ("[]", -32600, "invalid response: empty batch"),
        ("7", -32600, "invalid response: a message must be an object"),
        ("[[]]", -32600, "invalid response: a message must be an object"),
        (#"{"result":1,"id":1}"#, -32600, "invalid response: \"jsonrpc\" must be \"2.0\""),
        (#"{"jsonrpc":"1.0","result":1,"id":1}"#, -32600, "invalid response: \"jsonrpc\" must be \"2.0\""),
        (#"{"jsonrpc":"2.0","result":1}"#, -32600, "invalid response: a response needs an \"id\""),
        (
            #"{"jsonrpc":"2.0","result":1,"id":[]}"#, -32600,
            "invalid response: \"id\" must be a string, a number or null"
        ),
        (#"{"jsonrpc":"2.0","id":1}"#, -32600, "invalid response: a response needs \"result\" or \"error\""),
        (
            #"{"jsonrpc":"2.0","result":1,"error":{"code":1,"message":"m"},"id":1}"#, -32600,
            "invalid response: a response has both \"result\" and \"error\""
        ),
        (
            #"{"jsonrpc":"2.0","error":{"message":"m"},"id":1}"#, -32600,
            "invalid response: \"error\" must have an integer \"code\" and a string \"message\""
        ),
        (
            #"{"jsonrpc":"2.0","method":"x","id":1}"#, -32600,
            "invalid response: the server sent a request (x); this client takes none"
        ),
        (#"{"jsonrpc":"2.0","method":3}"#, -32600, "invalid response: \"method\" must be a string"),
        (
            #"{"jsonrpc":"2.0","method":"x","params":1}"#, -32600,
            "invalid response: \"params\" must be an object or an array"
        ),
    ])
    func refusals(line: String, code: Int, message: String) {
        let error = failure(line)
        #expect(error?.code == code)
        #expect(error?.message == message)
    }
}
