// Every example of the JSON-RPC 2.0 specification ("Examples" section) as a test vector: the request
// line goes through RPCLine and a toy dispatcher, and the answer must be the spec's (messages aside: the
// spec leaves their wording to the server, and ours are sentences).

import QueueRPC
import Testing

/// The spec's example methods, answering the way the spec's examples show, using RPCLine and RPCEncode
/// the way the real server does.
private func answer(_ line: String) -> String {
    func respond(_ inbound: RPCInbound) -> JSONValue? {
        switch inbound {
        case .invalid(let error, let id):
            return RPCEncode.error(error, id: id)
        case .request(let request):
            let result: Result<JSONValue, RPCError>
            let numbers: [Int64] =
                switch request.params {
                case .byPosition(let values): values.compactMap(\.intValue)
                case .byName(let members): [members["minuend"]?.intValue ?? 0, members["subtrahend"]?.intValue ?? 0]
                case nil: []
                }
            switch request.method {
            case "subtract": result = .success(.int(numbers[0] - numbers[1]))
            case "sum": result = .success(.int(numbers.reduce(0, +)))
            case "get_data": result = .success(["hello", 5])
            case "update", "notify_hello", "notify_sum": result = .success(nil)
            default: result = .failure(.methodNotFound(request.method))
            }
            guard let id = request.id else { return nil }
            return RPCEncode.response(result, id: id)
        }
    }
    let bytes: [UInt8] =
        switch RPCLine.parse(line) {
        case .failure(let error): RPCEncode.line(RPCEncode.error(error, id: .null))
        case .single(let inbound): respond(inbound).map(RPCEncode.line) ?? []
        case .batch(let elements): RPCEncode.batchLine(elements.compactMap(respond))
        }
    return text(bytes)
}

/// `text` with every error "message" dropped; `isAnswer`: also check it is one line ending in "\n".
private func withoutMessages(_ text: String, isAnswer: Bool = true) throws -> JSONValue {
    func strip(_ value: JSONValue) -> JSONValue {
        switch value {
        case .array(let elements): return .array(elements.map(strip))
        case .object(var members):
            if var error = members["error"]?.objectValue {
                error["message"] = nil
                error["data"] = nil
                members["error"] = .object(error)
            }
            return .object(members)
        default: return value
        }
    }
    if text.isEmpty { return nil }
    if isAnswer { #expect(text.hasSuffix("\n") && !text.dropLast().contains("\n")) }
    return strip(try JSON.parse(text))
}

@Suite struct RPCSpecExampleTests {
    @Test(arguments: [
        // rpc call with positional parameters
        (
            #"{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}"#,
            #"{"jsonrpc": "2.0", "result": 19, "id": 1}"#
        ),
        (
            #"{"jsonrpc": "2.0", "method": "subtract", "params": [23, 42], "id": 2}"#,
            #"{"jsonrpc": "2.0", "result": -19, "id": 2}"#
        ),
        // rpc call with named parameters
        (
            #"{"jsonrpc": "2.0", "method": "subtract", "params": {"subtrahend": 23, "minuend": 42}, "id": 3}"#,
            #"{"jsonrpc": "2.0", "result": 19, "id": 3}"#
        ),
        (
            #"{"jsonrpc": "2.0", "method": "subtract", "params": {"minuend": 42, "subtrahend": 23}, "id": 4}"#,
            #"{"jsonrpc": "2.0", "result": 19, "id": 4}"#
        ),
        // a Notification
        (#"{"jsonrpc": "2.0", "method": "update", "params": [1,2,3,4,5]}"#, ""),
        (#"{"jsonrpc": "2.0", "method": "foobar"}"#, ""),
        // rpc call of non-existent method
        (
            #"{"jsonrpc": "2.0", "method": "foobar", "id": "1"}"#,
            #"{"jsonrpc": "2.0", "error": {"code": -32601, "message": "Method not found"}, "id": "1"}"#
        ),
        // rpc call with invalid JSON
        (
            #"{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]"#,
            #"{"jsonrpc": "2.0", "error": {"code": -32700, "message": "Parse error"}, "id": null}"#
        ),
        // rpc call with invalid Request object
        (
            #"{"jsonrpc": "2.0", "method": 1, "params": "bar"}"#,
            #"{"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null}"#
        ),
        // rpc call Batch, invalid JSON
        (
            "[\n  {\"jsonrpc\": \"2.0\", \"method\": \"sum\", \"params\": [1,2,4], \"id\": \"1\"},\n  {\"jsonrpc\": \"2.0\", \"method\"\n]",
            #"{"jsonrpc": "2.0", "error": {"code": -32700, "message": "Parse error"}, "id": null}"#
        ),
        // rpc call with an empty Array
        ("[]", #"{"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null}"#),
        // rpc call with an invalid Batch (but not empty)
        ("[1]", #"[{"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null}]"#),
        // rpc call with invalid Batch
        (
            "[1,2,3]",
            """
            [{"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null},
             {"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null},
             {"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null}]
            """
        ),
        // rpc call Batch
        (
            """
            [
                {"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"},
                {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]},
                {"jsonrpc": "2.0", "method": "subtract", "params": [42,23], "id": "2"},
                {"foo": "boo"},
                {"jsonrpc": "2.0", "method": "foo.get", "params": {"name": "myself"}, "id": "5"},
                {"jsonrpc": "2.0", "method": "get_data", "id": "9"}
            ]
            """,
            """
            [
                {"jsonrpc": "2.0", "result": 7, "id": "1"},
                {"jsonrpc": "2.0", "result": 19, "id": "2"},
                {"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null},
                {"jsonrpc": "2.0", "error": {"code": -32601, "message": "Method not found"}, "id": "5"},
                {"jsonrpc": "2.0", "result": ["hello", 5], "id": "9"}
            ]
            """
        ),
        // rpc call Batch (all notifications)
        (
            """
            [
                {"jsonrpc": "2.0", "method": "notify_sum", "params": [1,2,4]},
                {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]}
            ]
            """, ""
        ),
    ])
    func specExample(request: String, expected: String) throws {
        let answered = answer(request)
        let expectedValue: JSONValue = expected.isEmpty ? nil : try withoutMessages(expected, isAnswer: false)
        #expect(try withoutMessages(answered) == expectedValue, "\(request) answered \(answered)")
    }

    @Test func answersAreByteExact() {
        #expect(
            answer(#"{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}"#)
                == "{\"jsonrpc\":\"2.0\",\"result\":19,\"id\":1}\n")
        #expect(
            answer(#"{"jsonrpc": "2.0", "method": "foobar", "id": "1"}"#)
                == "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32601,\"message\":\"method not found: foobar\"},\"id\":\"1\"}\n"
        )
        #expect(
            answer("[]")
                == "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32600,\"message\":\"invalid request: empty batch\"},\"id\":null}\n"
        )
        #expect(
            answer("[1]")
                == "[{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32600,\"message\":\"invalid request: a request must be an object\"},\"id\":null}]\n"
        )
        #expect(
            answer(#"{"jsonrpc":"2.0","method":"x"#)
                == "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32700,\"message\":\"parse error: unterminated string at byte 28\"},\"id\":null}\n"
        )
    }

    @Test func parsedShapes() {
        #expect(
            RPCLine.parse(#"{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}"#)
                == .single(.request(RPCRequest(method: "subtract", params: .byPosition([42, 23]), id: 1))))
        let named = #"{"jsonrpc": "2.0", "method": "subtract", "params": {"subtrahend": 23, "minuend": 42}, "id": 3}"#
        let params = RPCParams.byName(["minuend": 42, "subtrahend": 23])
        #expect(RPCLine.parse(named) == .single(.request(RPCRequest(method: "subtract", params: params, id: 3))))
        #expect(
            RPCLine.parse(#"{"jsonrpc": "2.0", "method": "foobar"}"#)
                == .single(.request(RPCRequest(method: "foobar"))))
        let notAnObject = RPCInbound.invalid(.invalidRequest("a request must be an object"), id: .null)
        #expect(RPCLine.parse("[1,2,3]") == .batch([notAnObject, notAnObject, notAnObject]))
        let broken = #"{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]"#
        guard case .failure(let error) = RPCLine.parse(broken) else {
            Issue.record("expected a parse failure")
            return
        }
        #expect(error.code == -32700)
        #expect(error.message == "parse error: unexpected 'p', expected ',' or '}' at byte 39")
    }
}
