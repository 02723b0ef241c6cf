// Answers parsed request lines: looks the method up in the registry, binds its params (by name or by
// position, in the order Protocol/queued.openrpc.json declares), runs it, and encodes the response —
// or nothing, for notifications. Runs on a connection's event loop; methods that would block it
// (screenshot) answer later through a future.

import Alerts
import MediaPaths
import NIOCore
import Playback
import PlayLog
import QueueRPC
import ScreenLayout
import SystemSupport

/// A connection as methods see it: its event subscriptions.
protocol Session: AnyObject {
    var subscribedEvents: Set<EventName> { get set }
    var progressInterval: Double { get set }
    /// The zones whose engine events it gets ("*": all); main only at first.
    var subscribedZones: Set<String> { get set }
    /// Other zones' journals a change method of this request wrote to (state.apply's zone queues), with the
    /// change to wait for: the reply waits until each has kept it. Emptied around every request.
    var zoneKeeps: [(keeper: ChangeKeeper, through: UInt64)] { get set }
    /// What this connection may name (session.confine); nil: anything its user may read.
    var confinement: FolderConfinement? { get set }
}

/// What a method gives back: a value now, or one later.
enum MethodOutcome {
    case now(JSONValue)
    case later(EventLoopFuture<JSONValue>)
}

/// A method as the registry holds it: its name, its parameter order and its body, type-erased. Built from
/// an `RPCMethodDefinition` by `answering`/`answeringLater`, so that the wire shapes are QueueRPC's.
struct RPCMethod: Sendable {
    /// Whether a method's success changes the queue or the player (it is then answered only once the
    /// change is kept, see ChangeKeeper) or only reads. Every typed registration says which, so a new
    /// editing method cannot be left out of durability by accident.
    enum Kind: Sendable {
        case change, query
    }

    let name: String
    /// Parameter names in declared order (positional params map onto them).
    let params: [String]
    let kind: Kind
    /// It acts on one zone's engine, named by its last param `zone` (the dispatcher routes it).
    let zoned: Bool
    let run: @Sendable (ParamReader, Session, EventLoop) throws -> MethodOutcome

    init(
        name: String, params: [String], kind: Kind = .query, zoned: Bool = false,
        run: @escaping @Sendable (ParamReader, Session, EventLoop) throws -> MethodOutcome
    ) {
        self.name = name
        self.params = params
        self.kind = kind
        self.zoned = zoned
        self.run = run
    }

    /// A method that answers at once: its typed params in, its typed result out.
    static func answering<Method: RPCMethodDefinition>(
        _ method: Method.Type, _ kind: Kind,
        _ body: @escaping @Sendable (Method.Params, Session) throws -> Method.Result
    ) -> RPCMethod {
        RPCMethod(name: Method.name, params: Method.parameterOrder, kind: kind, zoned: Method.zoned) { reader, session, _ in
            .now(try body(try Method.Params(reading: reader), session).json)
        }
    }

    /// A query that answers later and reads the caller's session (what it may name).
    static func answeringLater<Method: RPCMethodDefinition>(
        _ method: Method.Type,
        _ body: @escaping @Sendable (Method.Params, Session, EventLoop) throws -> EventLoopFuture<Method.Result>
    ) -> RPCMethod {
        RPCMethod(name: Method.name, params: Method.parameterOrder, zoned: Method.zoned) { reader, session, loop in
            .later(try body(try Method.Params(reading: reader), session, loop).map(\.json))
        }
    }

    /// A query that answers later (work that must not block the event loop).
    static func answeringLater<Method: RPCMethodDefinition>(
        _ method: Method.Type,
        _ body: @escaping @Sendable (Method.Params, EventLoop) throws -> EventLoopFuture<Method.Result>
    ) -> RPCMethod {
        RPCMethod(name: Method.name, params: Method.parameterOrder, zoned: Method.zoned) { reader, _, loop in
            .later(try body(try Method.Params(reading: reader), loop).map(\.json))
        }
    }
}

public struct DaemonInfo: Sendable {
    public var version: String
    public var socket: String
    public var audio: String
    public var video: String
    public var startedAt: Double
    /// daemon.info's `hwdec`.
    public var hwdec = API.DaemonInfo.Result.HWDecodeInfo()
    /// `--display-schedule` as given (daemon.info's `display.schedule`).
    public var displaySchedule: String?
    /// daemon.health's answer, gathered by the daemon (the server has no view of the process).
    public var health: @Sendable () -> API.DaemonHealth.Result
    /// daemon.restart: begins the daemon's restart once the answer is on its way (nil: not offered).
    public var restart: (@Sendable () -> Void)?
    public init(
        version: String, socket: String, audio: String, video: String, startedAt: Double,
        health: @escaping @Sendable () -> API.DaemonHealth.Result = { API.DaemonHealth.Result() }
    ) {
        self.version = version
        self.socket = socket
        self.audio = audio
        self.video = video
        self.startedAt = startedAt
        self.health = health
    }
}

final class Dispatcher: Sendable {
    /// The main zone's engine (the whole screen when no layout is set).
    let engine: PlayerEngine
    /// The other zones' engines, by name (nil: the main zone only).
    let zones: (any ZoneEngines)?
    /// The zoned methods bound to each other zone's engine, made when first asked for.
    private let zoneMethods = ZoneMethodCache()
    let info: DaemonInfo
    /// The OpenRPC document, served by rpc.discover.
    let document: JSONValue
    let methods: [String: RPCMethod]
    /// Where changes are kept before they are acknowledged (nil: --no-state).
    let keeper: ChangeKeeper?

    init(
        engine: PlayerEngine, info: DaemonInfo, document: JSONValue, keeper: ChangeKeeper? = nil,
        plays: (any PlayLogControl)? = nil, zones: (any ZoneEngines)? = nil, alerts: AlertController? = nil,
        triggers: TriggerControl? = nil, sync: SyncControl? = nil
    ) {
        self.engine = engine
        self.zones = zones
        self.info = info
        self.document = document
        self.keeper = keeper
        methods = Self.registry(
            Self.queueMethods(engine, zones: zones, alerts: alerts) + Self.playerMethods(engine) + Self.cacheMethods(engine)
                + Self.overlayMethods(engine) + Self.stateMethods(engine, zones: zones) + Self.playsMethods(plays ?? PlayLogStore(directory: nil))
                + Self.sessionMethods(engine: engine, info: info, document: document)
                + Self.layoutMethods(zones) + Self.alertMethods(alerts) + Self.triggerMethods(triggers) + Self.syncMethods(engine, sync))
    }

    /// The groups of methods as one registry. A name registered twice is a programming error: it traps
    /// (a merge that kept one of them would drop the other silently).
    static func registry(_ methods: [RPCMethod]) -> [String: RPCMethod] {
        var all: [String: RPCMethod] = [:]
        for method in methods {
            precondition(all[method.name] == nil, "JSON-RPC method \(method.name) is registered twice")
            all[method.name] = method
        }
        return all
    }

    /// A dispatcher with only the given methods (transport tests bring their own).
    init(engine: PlayerEngine, methods: [RPCMethod], keeper: ChangeKeeper? = nil) {
        self.engine = engine
        zones = nil
        self.keeper = keeper
        info = DaemonInfo(version: "", socket: "", audio: "", video: "", startedAt: 0)
        document = .null
        self.methods = Self.registry(methods)
    }

    var methodNames: Set<String> { Set(methods.keys) }

    /// A reply line ready now (nil: nothing to send back), one to send once the keeper has kept every
    /// change up to a sequence number, or one that comes later.
    enum Reply {
        case now([UInt8]?)
        case afterKept(UInt64, [UInt8]?)
        case later(EventLoopFuture<[UInt8]?>)
    }

    private enum Answer {
        case now(JSONValue?)
        case afterKept(UInt64, JSONValue?)
        case later(EventLoopFuture<JSONValue?>)
    }

    /// The reply to a request line. Almost every method answers at once; only a batch holding a deferred
    /// method (screenshot) needs futures, so the common path allocates none.
    func handle(_ line: RPCLine, session: Session, on loop: EventLoop) -> Reply {
        switch line {
        case .failure(let error):
            return .now(RPCEncode.line(RPCEncode.error(error, id: .null)))
        case .single(let inbound):
            switch answer(inbound, session: session, on: loop) {
            case .now(let message): return .now(message.map(RPCEncode.line))
            case .afterKept(let sequence, let message): return .afterKept(sequence, message.map(RPCEncode.line))
            case .later(let future): return .later(future.map { $0.map(RPCEncode.line) })
            }
        case .batch(let inbounds):
            let answers = inbounds.map { answer($0, session: session, on: loop) }
            func line(_ responses: [JSONValue?]) -> [UInt8]? {
                let present = responses.compactMap { $0 }
                return present.isEmpty ? nil : RPCEncode.batchLine(present)
            }
            var immediate: [JSONValue?] = []
            for answer in answers {
                guard case .now(let message) = answer else {
                    let futures = answers.map { answer -> EventLoopFuture<JSONValue?> in
                        switch answer {
                        case .now(let message): return loop.makeSucceededFuture(message)
                        case .afterKept(let sequence, let message): return afterKept(sequence, message, on: loop)
                        case .later(let future): return future
                        }
                    }
                    return .later(EventLoopFuture.whenAllSucceed(futures, on: loop).map(line))
                }
                immediate.append(message)
            }
            return .now(line(immediate))
        }
    }

    /// `reply` once each zone journal has kept its change and `main` (if given) everything recorded so far.
    private func afterKept(
        _ zoneKeeps: [(keeper: ChangeKeeper, through: UInt64)], main: ChangeKeeper?, _ reply: JSONValue?, on loop: EventLoop
    ) -> EventLoopFuture<JSONValue?> {
        let promise = loop.makePromise(of: JSONValue?.self)
        var waits = zoneKeeps
        if let main { waits.append((main, main.lastRecorded)) }
        let countdown = Countdown(waits.count) { promise.succeed(reply) }
        for wait in waits { wait.keeper.whenKept(wait.through) { countdown.done() } }
        return promise.futureResult
    }

    /// Method `name` bound to the engine of zone `zone` (not main); invalid params for a zone the layout lacks.
    private func zoneMethod(_ name: String, zone: String) throws(RPCError) -> RPCMethod {
        guard let engine = zones?.engine(forZone: zone) else {
            let known = zones?.zoneNames ?? [Layout.mainZone]
            throw .invalidParams(
                param: "zone", reason: "no zone \"\(zone.prefix(40))\" in the layout (zones: \(known.joined(separator: ", ")))")
        }
        zoneMethods.prune { name, identity in
            self.zones?.engine(forZone: name).map { ObjectIdentifier($0) == identity } ?? false
        }
        let methods = zoneMethods.methods(forZone: zone, engine: engine) {
            Self.registry((Self.queueMethods(engine, zone: zone, zones: zones) + Self.playerMethods(engine)).filter(\.zoned))
        }
        guard let method = methods[name] else { throw .methodNotFound(name) }
        return method
    }

    /// `message` once every change up to `sequence` is kept (a batch's replies wait together).
    private func afterKept(_ sequence: UInt64, _ message: JSONValue?, on loop: EventLoop) -> EventLoopFuture<JSONValue?>
    {
        guard let keeper else { return loop.makeSucceededFuture(message) }
        let promise = loop.makePromise(of: JSONValue?.self)
        keeper.whenKept(sequence) { promise.succeed(message) }
        return promise.futureResult
    }

    private func answer(_ inbound: RPCInbound, session: Session, on loop: EventLoop) -> Answer {
        switch inbound {
        case .invalid(let error, let id):
            return .now(RPCEncode.error(error, id: id))
        case .request(let request):
            let respond: @Sendable (Result<JSONValue, RPCError>) -> JSONValue? = { result in
                guard let id = request.id else { return nil }
                switch result {
                case .success(let value): return RPCEncode.result(value, id: id)
                case .failure(let error): return RPCEncode.error(error, id: id)
                }
            }
            guard var method = methods[request.method] else {
                return .now(respond(.failure(.methodNotFound(request.method))))
            }
            do {
                let params = try ParamReader(request.params, order: method.params)
                var zoneKeeper: ChangeKeeper?
                if method.zoned, let zone = try params.string("zone"), zone != Layout.mainZone {
                    method = try zoneMethod(method.name, zone: zone)
                    zoneKeeper = method.kind == .change ? zones?.keeper(forZone: zone) : nil
                }
                if let zoneKeeper {
                    // Another zone's change is kept by that zone's own journal: answered once it is kept there.
                    guard case .now(let value) = try method.run(params, session, loop) else {
                        throw RPCError.internalError("\(method.name) answers later")
                    }
                    let promise = loop.makePromise(of: JSONValue?.self)
                    let reply = respond(.success(value))
                    zoneKeeper.whenKept(zoneKeeper.lastRecorded) { promise.succeed(reply) }
                    return .later(promise.futureResult)
                }
                if let keeper, method.kind == .change, keeper.holdWakeup() {
                    // Tasks run after this pass's reads: the keeper wakes once for all the changes in them.
                    loop.execute { keeper.releaseWakeup() }
                }
                session.zoneKeeps = []
                let outcome = try method.run(params, session, loop)
                let zoneKeeps = session.zoneKeeps
                session.zoneKeeps = []
                if case .now(let value) = outcome, !zoneKeeps.isEmpty {
                    return .later(afterKept(zoneKeeps, main: method.kind == .change ? keeper : nil, respond(.success(value)), on: loop))
                }
                switch outcome {
                case .now(let value):
                    if let keeper, method.kind == .change {
                        return .afterKept(keeper.lastRecorded, respond(.success(value)))
                    }
                    return .now(respond(.success(value)))
                case .later(let future):
                    return .later(
                        future.map { respond(.success($0)) }.recover { respond(.failure(ErrorMapping.rpcError($0))) })
                }
            } catch {
                return .now(respond(.failure(ErrorMapping.rpcError(error))))
            }
        }
    }
}

/// Runs its action once `done` was called `count` times (from any threads).
final class Countdown: @unchecked Sendable {
    private let lock = ThreadLock()
    private var left: Int
    private let action: @Sendable () -> Void

    init(_ count: Int, action: @escaping @Sendable () -> Void) {
        left = count
        self.action = action
        if count == 0 { action() }
    }

    func done() {
        let fire = lock.withLock { () -> Bool in
            left -= 1
            return left == 0
        }
        if fire { action() }
    }
}
