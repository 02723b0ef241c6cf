// The strict envelope rules beyond the spec's examples: what makes a request invalid, and which id the
// error goes back to.

import QueueRPC
import Testing

@Suite struct RPCLineRuleTests {
    private func invalid(_ line: String) -> (reason: String, id: RPCID)? {
        guard case .single(.invalid(let error, let id)) = RPCLine.parse(line) else { return nil }
        #expect(error.code == -32600)
        return (error.message, id)
    }

    @Test func validRequests() {
        #expect(
            RPCLine.parse(#"{"jsonrpc":"2.0","method":"player.status","id":"abc"}"#)
                == .single(.request(RPCRequest(method: "player.status", id: "abc"))))
        // A null id is an id (answered with null), not a notification.
        #expect(
            RPCLine.parse(#"{"jsonrpc":"2.0","method":"m","id":null}"#)
                == .single(.request(RPCRequest(method: "m", id: .null))))
        #expect(
            RPCLine.parse(#"{"id":1.5,"method":"m","jsonrpc":"2.0"}"#)
                == .single(.request(RPCRequest(method: "m", id: RPCID(.double(1.5))))))
        #expect(
            RPCLine.parse(#"{"jsonrpc":"2.0","method":"rpc.discover","id":1}"#)
                == .single(.request(RPCRequest(method: "rpc.discover", id: 1))))
        #expect(
            RPCLine.parse(#"{"jsonrpc":"2.0","method":"m","params":{},"id":1}"#)
                == .single(.request(RPCRequest(method: "m", params: .byName([:]), id: 1))))
        #expect(
            RPCLine.parse(#"{"jsonrpc":"2.0","method":"m","params":[],"id":1}"#)
                == .single(.request(RPCRequest(method: "m", params: .byPosition([]), id: 1))))
        // A CRLF peer's "\r" is whitespace.
        #expect(
            RPCLine.parse(Array("{\"jsonrpc\":\"2.0\",\"method\":\"m\"}\r".utf8))
                == .single(.request(RPCRequest(method: "m"))))
        #expect(RPCRequest(method: "m").isNotification && !RPCRequest(method: "m", id: .null).isNotification)
    }

    @Test func invalidEnvelopesAnswerToTheReadableID() {
        #expect(invalid(#"{"method":"m","id":1}"#)! == ("invalid request: \"jsonrpc\": \"2.0\" is missing", 1))
        #expect(
            invalid(#"{"jsonrpc":"1.0","method":"m","id":1}"#)!
                == ("invalid request: \"jsonrpc\" must be \"2.0\"", 1))
        #expect(invalid(#"{"jsonrpc":2.0,"method":"m","id":"a"}"#)!.id == "a")
        #expect(invalid(#"{"jsonrpc":"2.0 ","method":"m","id":1}"#) != nil)
        #expect(invalid(#"{"jsonrpc":"2.0","id":7}"#)! == ("invalid request: \"method\" is missing", 7))
        #expect(
            invalid(#"{"jsonrpc":"2.0","method":null,"id":7}"#)!
                == ("invalid request: \"method\" must be a string", 7))
        #expect(
            invalid(#"{"jsonrpc":"2.0","method":"m","params":"x","id":7}"#)!
                == ("invalid request: \"params\" must be an object or an array", 7))
        #expect(invalid(#"{"jsonrpc":"2.0","method":"m","params":null,"id":7}"#)!.reason.contains("params"))
        #expect(invalid(#"{"jsonrpc":"2.0","method":"m","params":3}"#)!.id == .null)
        #expect(
            invalid(#"{"jsonrpc":"2.0","method":"m","id":7,"extra":true}"#)!
                == ("invalid request: unknown member \"extra\"", 7))
        #expect(
            invalid(#"{"jsonrpc":"2.0","method":"m","result":1}"#)!.reason
                == "invalid request: unknown member \"result\"")
    }

    @Test(arguments: [#"{"a":1}"#, "[1]", "true", "false"])
    func idsOfAnotherTypeAnswerWithNull(id: String) {
        let result = invalid(#"{"jsonrpc":"2.0","method":"m","id":\#(id)}"#)
        #expect(result?.id == .null)
        #expect(result?.reason == "invalid request: \"id\" must be a string, a number or null")
    }

    @Test(arguments: ["1", #""text""#, "null", "true", "  2.5 "])
    func scalarsAreNotRequests(line: String) {
        #expect(
            RPCLine.parse(line)
                == .failure(.invalidRequest("a request must be an object (or a batch: an array of them)")))
    }

    @Test func batchesHoldEachKind() {
        let line =
            #"[{"jsonrpc":"2.0","method":"a","id":1},{"jsonrpc":"2.0","method":"b"},[],{"jsonrpc":"2.0","id":2}]"#
        #expect(
            RPCLine.parse(line)
                == .batch([
                    .request(RPCRequest(method: "a", id: 1)),
                    .request(RPCRequest(method: "b")),
                    .invalid(.invalidRequest("a request must be an object"), id: .null),
                    .invalid(.invalidRequest("\"method\" is missing"), id: 2),
                ]))
    }
}
