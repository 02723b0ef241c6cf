// The server's first look at a line: fed by the line framer, feeds the dispatcher. Decides,
// strictly by JSON-RPC 2.0, what each element of the line is, and which error and id to answer with when
// it is not a request. It does not know methods: an unknown method is the dispatcher's -32601.

/// One element of what a line held: a valid request, or an invalid one with the error to answer and the
/// id to answer with (`.null` when none could be read).
public enum RPCInbound: Sendable, Equatable {
    case request(RPCRequest)
    case invalid(RPCError, id: RPCID)
}

/// What one line from a client held.
public enum RPCLine: Sendable, Equatable {
    case single(RPCInbound)
    /// Non-empty. Answer with one array of the non-notification answers, or nothing if there are none.
    case batch([RPCInbound])
    /// A parse error (-32700), an empty batch, or JSON that is neither object nor array (-32600): answer
    /// once, with id null, never as an array.
    case failure(RPCError)

    /// Classifies one line (without its newline; surrounding whitespace, including a `\r`, is fine).
    ///
    /// Strict JSON-RPC 2.0: `"jsonrpc"` must be exactly `"2.0"`, `"method"` a string, `"params"` (if present)
    /// an object or array, `"id"` (if present) a string, number or null; any other member makes the
    /// request invalid. A request whose id was readable is answered with that id even when invalid;
    /// one with an unreadable or missing id with `null`. Methods beginning with "rpc." are let through
    /// (the server implements rpc.discover).
    public static func parse<Bytes: Collection>(_ line: Bytes) -> RPCLine where Bytes.Element == UInt8 {
        let value: JSONValue
        do throws(JSONParseError) {
            value = try JSON.parse(line)
        } catch {
            return .failure(.parseError(error.description))
        }
        switch value {
        case .object(let members):
            return .single(inbound(members))
        case .array(let elements):
            guard !elements.isEmpty else { return .failure(.invalidRequest("empty batch")) }
            return .batch(elements.map(inbound))
        default:
            return .failure(.invalidRequest("a request must be an object (or a batch: an array of them)"))
        }
    }

    private static func inbound(_ element: JSONValue) -> RPCInbound {
        guard case .object(let members) = element else {
            return .invalid(.invalidRequest("a request must be an object"), id: .null)
        }
        return inbound(members)
    }

    private static func inbound(_ members: JSONObject) -> RPCInbound {
        // The id first, so that every later complaint can be answered to it.
        var id: RPCID?
        if let rawID = members["id"] {
            guard let valid = RPCID(rawID) else {
                return .invalid(.invalidRequest("\"id\" must be a string, a number or null"), id: .null)
            }
            id = valid
        }
        func invalid(_ reason: String) -> RPCInbound {
            .invalid(.invalidRequest(reason), id: id ?? .null)
        }

        guard let version = members["jsonrpc"] else { return invalid("\"jsonrpc\": \"2.0\" is missing") }
        guard version == "2.0" else { return invalid("\"jsonrpc\" must be \"2.0\"") }
        guard let rawMethod = members["method"] else { return invalid("\"method\" is missing") }
        guard case .string(let method) = rawMethod else { return invalid("\"method\" must be a string") }
        var params: RPCParams?
        if let rawParams = members["params"] {
            guard let valid = RPCParams(json: rawParams) else {
                return invalid("\"params\" must be an object or an array")
            }
            params = valid
        }
        let known = 2 + (params == nil ? 0 : 1) + (id == nil ? 0 : 1)
        if members.count > known {
            let extra = members.keys.first { !["jsonrpc", "method", "params", "id"].contains($0) } ?? ""
            return invalid("unknown member \"\(extra)\"")
        }
        return .request(RPCRequest(method: method, params: params, id: id))
    }
}
