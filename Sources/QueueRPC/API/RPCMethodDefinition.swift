// One definition per method of Protocol/queued.openrpc.json, shared by the server and the client (the
// language servers' one-type-per-method model): a method is a type that names itself and its Params and
// Result shapes. The server decodes Params strictly (every -32602 worded by ParamReader) and encodes the
// Result; the client encodes Params and decodes the Result leniently (a field a newer daemon adds, or
// leaves out, never breaks it). `API.all` lists every method, so tests can hold them to the document.

/// A JSON-RPC method of queued's API.
public protocol RPCMethodDefinition {
    associatedtype Params: RPCMethodParams
    associatedtype Result: RPCMethodResult
    /// The method name on the wire, e.g. "player.seek".
    static var name: String { get }
    /// Whether it acts on one zone's queue or player: it then takes a last param `zone` (default `main`),
    /// which the server routes by and a client adds to the params (`RPCMethodDefinition.params(_:zone:)`).
    static var zoned: Bool { get }
}

extension RPCMethodDefinition {
    public static var zoned: Bool { false }

    /// `params` as sent to `zone` (nil: main, as sent without a zone).
    public static func json(_ params: Params, zone: String?) -> JSONValue? {
        guard zoned, let zone else { return params.json }
        var object = params.json?.objectValue ?? JSONObject()
        object["zone"] = .string(zone)
        return .object(object)
    }
}

/// A method's params.
public protocol RPCMethodParams: Sendable {
    /// The parameter names in the document's order: positional params bind to them in this order.
    static var order: [String] { get }
    /// Strict decoding on the server: a wrong type, a value out of range or a missing required param throws
    /// `invalidParams`. (ParamReader has already rejected unknown names and surplus positions.)
    init(reading params: ParamReader) throws(RPCError)
    /// The params by name as a client sends them; nil sends none.
    var json: JSONValue? { get }
    /// Every URI or path in these params that the daemon will open (items, an image layer, URLs to fetch), as
    /// sent: what a caller policy judges before a request from outside goes through. Required of every
    /// method, with no default, so that a new one has to say what it makes the daemon read.
    var references: [String] { get }
}

/// A method's result.
public protocol RPCMethodResult: Sendable {
    /// The result as the server sends it: every key the document lists.
    var json: JSONValue { get }
    /// Lenient decoding on the client; nil only when the fields no result of this shape lacks are missing.
    init?(json: JSONValue)
}

/// The params of a method that takes none.
public struct NoParams: RPCMethodParams, Equatable {
    public static let order: [String] = []
    public init() {}
    public init(reading params: ParamReader) throws(RPCError) {}
    public var json: JSONValue? { nil }
    public var references: [String] { [] }
}

/// rpc.discover answers with the OpenRPC document itself: any JSON.
extension JSONValue: RPCMethodResult {
    public var json: JSONValue { self }
    public init?(json: JSONValue) { self = json }
}

/// A field of an update: left as it is (absent), cleared (null) or set. queue.update's optional fields use
/// it, because there "absent" and "null" mean different things.
public enum FieldUpdate<Value: Sendable & Equatable>: Sendable, Equatable {
    case keep
    case clear
    case set(Value)

    /// The value to store when the field changes; nil for `.keep` (see `changes`).
    public var newValue: Value? {
        if case .set(let value) = self { value } else { nil }
    }

    public var changes: Bool { self != .keep }

    /// What a client sends for it: nothing for `.keep`, null for `.clear`.
    func json(_ encode: (Value) -> JSONValue) -> JSONValue? {
        switch self {
        case .keep: nil
        case .clear: .null
        case .set(let value): encode(value)
        }
    }
}

extension ParamReader {
    /// A field of an update: `.keep` when absent, `.clear` when null, else `read`'s value.
    public func update<Value>(
        _ name: String, _ read: (String) throws(RPCError) -> Value?
    ) throws(RPCError)
        -> FieldUpdate<Value>
    {
        guard let raw = raw(name) else { return .keep }
        if raw.isNull { return .clear }
        guard let value = try read(name) else { return .clear }
        return .set(value)
    }
}

extension JSONObject {
    /// Sets `key` only when there is a value (a client leaves unset optional params out).
    mutating func setIfPresent(_ key: String, _ value: JSONValue?) {
        if let value { self[key] = value }
    }
}

/// Decoding helpers for results.
extension JSONValue {
    var int64Array: [Int64]? {
        guard let elements = arrayValue else { return nil }
        var values: [Int64] = []
        for element in elements {
            guard let value = element.intValue else { return nil }
            values.append(value)
        }
        return values
    }

    static func ints(_ values: [Int64]) -> JSONValue { .array(values.map(JSONValue.int)) }
}

/// The namespace of every method definition.
public enum API {
    /// Every method the daemon implements, in the document's order.
    public static let all: [any RPCMethodDefinition.Type] = [
        QueueAdd.self, QueueInsert.self, QueueRemove.self, QueueMove.self, QueueClear.self, QueueReplace.self, QueueUpdate.self,
        QueueSetLoops.self, QueueList.self, QueueGet.self, QueueInterrupt.self, PlayerPlay.self, PlayerPause.self,
        PlayerToggle.self, PlayerStop.self, PlayerNext.self, PlayerPrevious.self, PlayerSeek.self, PlayerStatus.self,
        PlayerSet.self, PlayerScreenshot.self, OverlayAdd.self, OverlayUpdate.self, OverlayRemove.self,
        OverlayList.self, EventsSubscribe.self, EventsUnsubscribe.self, DaemonInfo.self, DaemonHealth.self,
        DaemonRestart.self,        Discover.self, CacheStatus.self, CachePrefetch.self, CacheFetch.self, CacheRevalidate.self, CacheEvict.self,
        CacheUsage.self, PlaysList.self, PlaysAck.self, DisplayPower.self, StateApply.self, SessionConfine.self,
        LayoutSet.self, LayoutGet.self, AlertRaise.self, AlertClear.self, AlertList.self,
        TriggersList.self, TriggersSet.self, TriggersFire.self, OutputsList.self, OutputsSet.self,
        SyncClock.self, SyncTrim.self, SyncAlign.self, SyncReport.self, SyncStatus.self,
    ]
}

extension RPCMethodDefinition {
    /// Positional params bind to these names, in this order.
    public static var parameterOrder: [String] { Params.order + (zoned ? ["zone"] : []) }
}
