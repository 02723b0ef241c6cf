// Builds the messages that go on the wire, in both directions: the server's responses and event
// notifications, the client's requests. Member order is fixed ("jsonrpc" first, "id" last) so that
// output is byte-for-byte predictable in tests and logs.

/// Constructors for JSON-RPC 2.0 messages and their newline-terminated wire form.
public enum RPCEncode: Sendable {
    /// `{"jsonrpc":"2.0","result":…,"id":…}`.
    public static func result(_ result: JSONValue, id: RPCID) -> JSONValue {
        .object(JSONObject([("jsonrpc", "2.0"), ("result", result), ("id", id.value)]))
    }

    /// `{"jsonrpc":"2.0","error":{…},"id":…}`.
    public static func error(_ error: RPCError, id: RPCID) -> JSONValue {
        .object(JSONObject([("jsonrpc", "2.0"), ("error", error.json), ("id", id.value)]))
    }

    /// The answer to one inbound element: the result or error for its id.
    public static func response(_ result: Result<JSONValue, RPCError>, id: RPCID) -> JSONValue {
        switch result {
        case .success(let value): self.result(value, id: id)
        case .failure(let failure): error(failure, id: id)
        }
    }

    /// `{"jsonrpc":"2.0","method":…,"params":…}`, without `"params"` when nil. `params` should be an
    /// object or an array; this does not check, the caller builds it.
    public static func notification(method: String, params: JSONValue?) -> JSONValue {
        request(method: method, params: params, id: nil)
    }

    /// `{"jsonrpc":"2.0","method":…,"params"?:…,"id"?:…}`; with no id it is a notification.
    public static func request(method: String, params: JSONValue?, id: RPCID?) -> JSONValue {
        var members: [(String, JSONValue)] = [("jsonrpc", "2.0"), ("method", .string(method))]
        if let params { members.append(("params", params)) }
        if let id { members.append(("id", id.value)) }
        return .object(JSONObject(members))
    }

    /// One message as a line: compact JSON and "\n".
    public static func line(_ message: JSONValue) -> [UInt8] {
        var bytes = JSON.serialize(message)
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    /// A batch answer as a line, `[…]\n`. An empty list gives no bytes at all: a batch of notifications
    /// is answered with nothing (JSON-RPC 2.0 §6), never with `[]`.
    public static func batchLine(_ messages: [JSONValue]) -> [UInt8] {
        guard !messages.isEmpty else { return [] }
        return line(.array(messages))
    }
}
