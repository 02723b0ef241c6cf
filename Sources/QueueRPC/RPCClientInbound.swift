// The client's reading of a line from the daemon: feeds on LineFramer's lines, feeds the client's
// table of pending requests (by id) and its event handlers (by method). The server is trusted to speak
// JSON-RPC, so anything else is an error for the connection, thrown rather than answered.

/// A message from the server: a response to one of our ids, an event notification, or a batch answer.
public enum RPCClientInbound: Sendable, Equatable {
    case response(id: RPCID, result: Result<JSONValue, RPCError>)
    case notification(method: String, params: JSONValue?)
    /// Non-empty; holds responses and notifications, never another batch.
    case batch([RPCClientInbound])

    /// Reads one line (without its newline).
    ///
    /// Throws `RPCError.parseError` when the line is not JSON and `RPCError.invalidResponse` when it is
    /// not a JSON-RPC 2.0 response or notification (wrong "jsonrpc", both or neither of result/error,
    /// an unreadable error object, a request from the server, an empty or nested batch).
    /// Unknown extra members are ignored: a client should be lenient in what it accepts.
    public static func parse<Bytes: Collection>(_ line: Bytes) throws(RPCError) -> RPCClientInbound
    where Bytes.Element == UInt8 {
        let value: JSONValue
        do throws(JSONParseError) {
            value = try JSON.parse(line)
        } catch {
            throw .parseError(error.description)
        }
        if case .array(let elements) = value {
            guard !elements.isEmpty else { throw .invalidResponse("empty batch") }
            var messages: [RPCClientInbound] = []
            messages.reserveCapacity(elements.count)
            for element in elements {
                messages.append(try message(element))
            }
            return .batch(messages)
        }
        return try message(value)
    }

    private static func message(_ value: JSONValue) throws(RPCError) -> RPCClientInbound {
        guard case .object(let members) = value else {
            throw .invalidResponse("a message must be an object")
        }
        guard members["jsonrpc"] == "2.0" else { throw .invalidResponse("\"jsonrpc\" must be \"2.0\"") }

        if let rawMethod = members["method"] {
            guard case .string(let method) = rawMethod else { throw .invalidResponse("\"method\" must be a string") }
            guard !members.contains("id") else {
                throw .invalidResponse("the server sent a request (\(method)); this client takes none")
            }
            let params = members["params"]
            if let params, params.objectValue == nil, params.arrayValue == nil {
                throw .invalidResponse("\"params\" must be an object or an array")
            }
            return .notification(method: method, params: params)
        }

        guard let rawID = members["id"] else { throw .invalidResponse("a response needs an \"id\"") }
        guard let id = RPCID(rawID) else { throw .invalidResponse("\"id\" must be a string, a number or null") }
        switch (members["result"], members["error"]) {
        case (let result?, nil):
            return .response(id: id, result: .success(result))
        case (nil, let error?):
            guard let error = RPCError(json: error) else {
                throw .invalidResponse("\"error\" must have an integer \"code\" and a string \"message\"")
            }
            return .response(id: id, result: .failure(error))
        case (.some, .some):
            throw .invalidResponse("a response has both \"result\" and \"error\"")
        case (nil, nil):
            throw .invalidResponse("a response needs \"result\" or \"error\"")
        }
    }
}
