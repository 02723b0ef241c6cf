// Typed calls: a method of QueueRPC's API with its Params in and its Result out, the same definitions the
// server answers with. The untyped `call(_:_:)` stays for `queuectl call` and for tests of the wire.

import QueueRPC

/// A typed result together with the JSON it was read from (for `--json` output, which shows what the
/// daemon sent, fields this client does not know included).
public struct RPCAnswer<Result: RPCMethodResult> {
    public let result: Result
    public let json: JSONValue

    public init(result: Result, json: JSONValue) {
        self.result = result
        self.json = json
    }
}

extension QueueClient {
    /// Calls `method` and decodes its result; a result of the wrong shape is `.protocolViolation`.
    public func call<Method: RPCMethodDefinition>(
        _ method: Method.Type, _ params: Method.Params
    ) throws(ClientError)
        -> Method.Result
    {
        try answer(method, params).result
    }

    public func call<Method: RPCMethodDefinition>(_ method: Method.Type) throws(ClientError) -> Method.Result
    where Method.Params == NoParams {
        try answer(method, NoParams()).result
    }

    /// Like `call`, keeping the JSON the result was read from.
    public func answer<Method: RPCMethodDefinition>(
        _ method: Method.Type, _ params: Method.Params
    )
        throws(ClientError) -> RPCAnswer<Method.Result>
    {
        let json = try call(Method.name, Method.json(params, zone: zone))
        guard let result = Method.Result(json: json) else {
            let shown = String(decoding: JSON.serialize(json).prefix(200), as: UTF8.self)
            throw .protocolViolation("queued answered \(Method.name) with an unexpected result: \(shown)")
        }
        return RPCAnswer(result: result, json: json)
    }

    public func answer<Method: RPCMethodDefinition>(
        _ method: Method.Type
    ) throws(ClientError)
        -> RPCAnswer<Method.Result> where Method.Params == NoParams
    {
        try answer(method, NoParams())
    }
}
