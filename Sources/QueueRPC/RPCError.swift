// The error object of a JSON-RPC response, with one constructor per code in the API contract
// (Protocol/, "Errors"), so the server's single domain→wire mapping file and the client agree on codes,
// messages and `data` shapes.

/// A JSON-RPC 2.0 error object. Messages are human sentences; `data` carries what a program needs.
public struct RPCError: Error, Sendable, Equatable, CustomStringConvertible {
    public let code: Int
    public let message: String
    public let data: JSONValue?

    public init(code: Int, message: String, data: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    /// The codes of the API contract.
    public enum Code: Sendable {
        public static let parseError = -32700
        public static let invalidRequest = -32600
        public static let methodNotFound = -32601
        public static let invalidParams = -32602
        public static let internalError = -32603
        public static let itemNotFound = -32000
        public static let queueEmpty = -32001
        public static let mediaError = -32002
        public static let uriNotAllowed = -32003
        public static let badState = -32004
        public static let queueChanged = -32005
    }

    /// -32700: the line is not JSON. `detail` is the parser's "reason at byte N".
    public static func parseError(_ detail: String) -> RPCError {
        RPCError(code: Code.parseError, message: "parse error: \(detail)")
    }

    /// -32600: JSON, but not a request (or an empty batch, or a line over the limit).
    public static func invalidRequest(_ reason: String) -> RPCError {
        RPCError(code: Code.invalidRequest, message: "invalid request: \(reason)")
    }

    /// -32600 for a line longer than the server accepts.
    public static func lineTooLong(byteCount: Int, limit: Int) -> RPCError {
        invalidRequest("line of \(byteCount) bytes is over the limit of \(limit) bytes")
    }

    /// -32600 on the client side: what the server sent is not a response or notification. The code is
    /// the one JSON-RPC has for a malformed message; only the client ever builds this.
    public static func invalidResponse(_ reason: String) -> RPCError {
        RPCError(code: Code.invalidRequest, message: "invalid response: \(reason)")
    }

    /// -32601.
    public static func methodNotFound(_ method: String) -> RPCError {
        RPCError(code: Code.methodNotFound, message: "method not found: \(method)")
    }

    /// -32602 with `data: {"param": name or null, "reason": reason}`; `reason` completes a sentence
    /// about the parameter ("is required", "must be an integer").
    public static func invalidParams(param: String?, reason: String) -> RPCError {
        let message = param.map { "invalid params: '\($0)' \(reason)" } ?? "invalid params: \(reason)"
        return RPCError(
            code: Code.invalidParams, message: message,
            data: ["param": param.map(JSONValue.string) ?? .null, "reason": .string(reason)])
    }

    /// -32603: a bug or an unexpected failure inside the daemon.
    public static func internalError(_ detail: String) -> RPCError {
        RPCError(code: Code.internalError, message: "internal error: \(detail)")
    }

    /// -32000 with `data: {"id": id}`.
    public static func itemNotFound(_ id: Int64) -> RPCError {
        RPCError(code: Code.itemNotFound, message: "no item with id \(id) in the queue", data: ["id": .int(id)])
    }

    /// -32001.
    public static func queueEmpty() -> RPCError {
        RPCError(code: Code.queueEmpty, message: "the queue is empty")
    }

    /// -32002: `message` names the file and what went wrong (FFmpeg's text).
    public static func mediaError(_ message: String) -> RPCError {
        RPCError(code: Code.mediaError, message: message)
    }

    /// -32003 with `data: {"uri": uri}`; `reason` says which rule the URI broke.
    public static func uriNotAllowed(_ uri: String, reason: String) -> RPCError {
        RPCError(code: Code.uriNotAllowed, message: "URI not allowed: \(uri): \(reason)", data: ["uri": .string(uri)])
    }

    /// -32004: the request is fine but the player is not in a state to do it.
    public static func badState(_ message: String) -> RPCError {
        RPCError(code: Code.badState, message: message)
    }

    /// -32005 with `data: {"version": actual}`: an edit guarded by `ifVersion` found the queue changed.
    public static func queueChanged(expected: Int64, actual: Int64) -> RPCError {
        RPCError(
            code: Code.queueChanged, message: "the queue changed meanwhile (version \(actual), not \(expected))",
            data: ["version": .int(actual)])
    }

    /// The wire form: `{"code":…,"message":…}` plus `"data"` when there is some.
    public var json: JSONValue {
        var object: JSONObject = ["code": .int(Int64(code)), "message": .string(message)]
        if let data { object["data"] = data }
        return .object(object)
    }

    /// Reads an error object from a response (client side); nil unless `code` is an integer and
    /// `message` a string. Unknown members are ignored, as a client should be lenient in what it reads.
    public init?(json: JSONValue) {
        guard let code = json["code"]?.intValue, let int = Int(exactly: code),
            let message = json["message"]?.stringValue
        else { return nil }
        self.init(code: int, message: message, data: json["data"])
    }

    public var description: String { "\(message) (\(code))" }
}
