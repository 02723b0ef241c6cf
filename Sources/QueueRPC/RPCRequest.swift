// A request as the server's dispatcher sees it once RPCLine has checked the envelope, and as the client
// builds it before RPCEncode writes it.

/// The `params` member of a request: by name (an object) or by position (an array). `ParamReader` reads
/// both the same way.
public enum RPCParams: Sendable, Equatable {
    case byName(JSONObject)
    case byPosition([JSONValue])

    /// nil unless `json` is an object or an array, the only two forms JSON-RPC allows.
    public init?(json: JSONValue) {
        switch json {
        case .object(let members): self = .byName(members)
        case .array(let elements): self = .byPosition(elements)
        default: return nil
        }
    }

    public var json: JSONValue {
        switch self {
        case .byName(let members): .object(members)
        case .byPosition(let elements): .array(elements)
        }
    }
}

/// A well-formed JSON-RPC 2.0 request or notification.
public struct RPCRequest: Sendable, Equatable {
    public var method: String
    public var params: RPCParams?
    /// nil for a notification, which gets no response, not even an error. `.null` is a (discouraged but
    /// valid) id, not a notification.
    public var id: RPCID?

    public init(method: String, params: RPCParams? = nil, id: RPCID? = nil) {
        self.method = method
        self.params = params
        self.id = id
    }

    public var isNotification: Bool { id == nil }

    /// The wire form, `{"jsonrpc":"2.0","method":…,"params"?:…,"id"?:…}`.
    public var json: JSONValue {
        RPCEncode.request(method: method, params: params?.json, id: id)
    }
}
