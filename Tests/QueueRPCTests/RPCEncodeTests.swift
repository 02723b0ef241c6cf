// The messages we write, byte for byte, and the error constructors' codes, messages and data.

import QueueRPC
import Testing

@Suite struct RPCEncodeTests {
    @Test func messages() {
        #expect(
            text(RPCEncode.line(RPCEncode.result(["ids": [1, 2]], id: 5)))
                == "{\"jsonrpc\":\"2.0\",\"result\":{\"ids\":[1,2]},\"id\":5}\n")
        #expect(text(RPCEncode.result(nil, id: "x")) == #"{"jsonrpc":"2.0","result":null,"id":"x"}"#)
        #expect(
            text(RPCEncode.error(.queueEmpty(), id: .null))
                == #"{"jsonrpc":"2.0","error":{"code":-32001,"message":"the queue is empty"},"id":null}"#)
        #expect(
            text(RPCEncode.response(.failure(.badState("nothing is playing")), id: 3))
                == #"{"jsonrpc":"2.0","error":{"code":-32004,"message":"nothing is playing"},"id":3}"#)
        #expect(
            text(RPCEncode.notification(method: "event.queueChanged", params: ["version": 12]))
                == #"{"jsonrpc":"2.0","method":"event.queueChanged","params":{"version":12}}"#)
        #expect(text(RPCEncode.notification(method: "ping", params: nil)) == #"{"jsonrpc":"2.0","method":"ping"}"#)
        #expect(
            text(RPCEncode.request(method: "queue.remove", params: ["ids": [3]], id: 9))
                == #"{"jsonrpc":"2.0","method":"queue.remove","params":{"ids":[3]},"id":9}"#)
        #expect(
            text(RPCEncode.request(method: "player.stop", params: nil, id: nil))
                == #"{"jsonrpc":"2.0","method":"player.stop"}"#)
        #expect(
            text(RPCRequest(method: "queue.move", params: .byPosition([4, 0]), id: "r1").json)
                == #"{"jsonrpc":"2.0","method":"queue.move","params":[4,0],"id":"r1"}"#)
    }

    @Test func batchLines() {
        #expect(RPCEncode.batchLine([]) == [])
        #expect(
            text(RPCEncode.batchLine([RPCEncode.result(1, id: 1), RPCEncode.result(2, id: 2)]))
                == "[{\"jsonrpc\":\"2.0\",\"result\":1,\"id\":1},{\"jsonrpc\":\"2.0\",\"result\":2,\"id\":2}]\n")
    }

    @Test func errorConstructors() {
        let cases: [(RPCError, String)] = [
            (
                .parseError("unexpected end of input at byte 3"),
                #"{"code":-32700,"message":"parse error: unexpected end of input at byte 3"}"#
            ),
            (.invalidRequest("empty batch"), #"{"code":-32600,"message":"invalid request: empty batch"}"#),
            (
                .lineTooLong(byteCount: 2_000_000, limit: 1_048_576),
                #"{"code":-32600,"message":"invalid request: line of 2000000 bytes is over the limit of 1048576 bytes"}"#
            ),
            (.methodNotFound("queue.shuffle"), #"{"code":-32601,"message":"method not found: queue.shuffle"}"#),
            (
                .invalidParams(param: "loops", reason: "must be >= 0"),
                #"{"code":-32602,"message":"invalid params: 'loops' must be >= 0","data":{"param":"loops","reason":"must be >= 0"}}"#
            ),
            (
                .invalidParams(param: nil, reason: "expected at most 2 parameters"),
                #"{"code":-32602,"message":"invalid params: expected at most 2 parameters","data":{"param":null,"reason":"expected at most 2 parameters"}}"#
            ),
            (.internalError("core stopped"), #"{"code":-32603,"message":"internal error: core stopped"}"#),
            (.itemNotFound(42), #"{"code":-32000,"message":"no item with id 42 in the queue","data":{"id":42}}"#),
            (.queueEmpty(), #"{"code":-32001,"message":"the queue is empty"}"#),
            (
                .mediaError("/a.mp4: Invalid data found when processing input"),
                #"{"code":-32002,"message":"/a.mp4: Invalid data found when processing input"}"#
            ),
            (
                .uriNotAllowed("http://127.0.0.1/a.mp4", reason: "only local files can be queued"),
                #"{"code":-32003,"message":"URI not allowed: http://127.0.0.1/a.mp4: only local files can be queued","data":{"uri":"http://127.0.0.1/a.mp4"}}"#
            ),
            (.badState("no video output"), #"{"code":-32004,"message":"no video output"}"#),
        ]
        for (error, expected) in cases {
            #expect(text(error.json) == expected)
            #expect(RPCError(json: error.json) == error)
        }
        #expect(RPCError.queueEmpty().description == "the queue is empty (-32001)")
    }

    @Test func errorsReadLeniently() throws {
        #expect(RPCError(json: try json(#"{"code":-1,"message":"m","extra":1}"#)) == RPCError(code: -1, message: "m"))
        #expect(RPCError(json: try json(#"{"code":-1.0,"message":"m"}"#)) == RPCError(code: -1, message: "m"))
        #expect(RPCError(json: try json(#"{"code":"-1","message":"m"}"#)) == nil)
        #expect(RPCError(json: try json(#"{"code":-1}"#)) == nil)
        #expect(RPCError(json: try json("[]")) == nil)
    }

    @Test func ids() {
        #expect(RPCID(.string("a"))?.value == "a")
        #expect(RPCID(.int(1))?.value == 1)
        #expect(RPCID(.double(1.5))?.value == 1.5)
        #expect(RPCID(.null) == .null)
        #expect(RPCID(.bool(true)) == nil && RPCID([]) == nil && RPCID([:]) == nil)
        #expect(RPCID(7) == 7 && RPCID("7") == "7" && RPCID(7) != RPCID("7"))
        #expect(RPCID.null.isNull && !RPCID(0).isNull)
    }
}
