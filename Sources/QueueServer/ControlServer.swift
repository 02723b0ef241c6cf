// The control socket: a SwiftNIO server on one event loop thread, bound to a Unix socket, one
// ConnectionHandler per client. Owns the event hub the engine's events go through.

import Alerts
import FoundationEssentials
import Glibc
import SystemSupport
import Logging
import NIOCore
import NIOPosix
import Playback
import PlayLog
import QueueRPC

public struct ControlServerConfig: Sendable {
    public var socketPath: String
    /// Whether the socket's directory is ours to create and restrict to 0700 (the default location).
    public var ownsDirectory: Bool
    public var access = PeerAccess()
    public var lineLimit = 1 << 20
    public var maxPendingBytes = 8 << 20
    public init(socketPath: String, ownsDirectory: Bool) {
        self.socketPath = socketPath
        self.ownsDirectory = ownsDirectory
    }
}

public final class ControlServer: Sendable {
    private let config: ControlServerConfig
    private let hub = EventHub()
    private let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    private let logger: Logger
    private let channelBox = ChannelBox()

    public init(config: ControlServerConfig, logger: Logger) {
        self.config = config
        self.logger = logger
    }

    public var socketPath: String { config.socketPath }

    /// Where the engine's events go (pass to PlayerEngine's onEvent).
    public func publish(_ event: DaemonEvent) {
        hub.publish(event)
    }

    /// The OpenRPC document bundled with the server (Protocol/queued.openrpc.json).
    public static func description() throws -> JSONValue {
        // Built into the binary (`embedInCode`), so an installed daemon needs no resource bundle beside it.
        do {
            return try JSON.parse(PackageResources.queued_openrpc_json)
        } catch {
            throw SocketFileError(description: "the bundled API description is not valid JSON: \(error)")
        }
    }

    /// Binds the socket and starts answering. Throws with a clear message if another daemon owns it.
    /// `keeper`: answer changes only once it has kept them (nil: answer at once).
    public func start(
        engine: PlayerEngine, info: DaemonInfo, keeper: ChangeKeeper? = nil, plays: (any PlayLogControl)? = nil,
        zones: (any ZoneEngines)? = nil, alerts: AlertController? = nil, triggers: TriggerControl? = nil,
        sync: SyncControl? = nil
    ) throws {
        try SocketFile.prepare(config.socketPath, ownsDirectory: config.ownsDirectory)
        let dispatcher = Dispatcher(
            engine: engine, info: info, document: try Self.description(), keeper: keeper, plays: plays, zones: zones,
            alerts: alerts, triggers: triggers, sync: sync)
        let hub = self.hub
        let access = config.access
        let limits = ConnectionHandler.Limits(lineLimit: config.lineLimit, maxPendingBytes: config.maxPendingBytes)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 64)
            .childChannelOption(ChannelOptions.autoRead, value: false)  // until the peer is checked
            .childChannelOption(ChannelOptions.writeBufferWaterMark, value: Self.writeBufferWaterMark)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        ByteToMessageHandler(LineFrameDecoder(limit: limits.lineLimit)))
                    try channel.pipeline.syncOperations.addHandler(
                        ConnectionHandler(dispatcher: dispatcher, hub: hub, access: access, limits: limits))
                }
            }
        // bind(2) both creates the file and starts listening, so a client can connect before the chmod
        // below: create it owner-only already (umask is per process; only startup threads run now, and the
        // mask only ever removes permissions).
        let previousMask = umask(0o177)
        let bound = Result { try bootstrap.bind(unixDomainSocketPath: config.socketPath).wait() }
        umask(previousMask)
        let channel = try bound.get()
        channelBox.set(channel)
        try SocketFile.restrict(config.socketPath, group: config.access.group)
        logger.info("control socket at \(config.socketPath)")
    }

    /// Stops accepting, closes connections, removes the socket file.
    public func shutdown() {
        if let channel = channelBox.take() {
            try? channel.close().wait()
            unlink(config.socketPath)
        }
        try? group.syncShutdownGracefully()
    }

    /// Past `high` unsent bytes a connection is no longer read (the client only blocks itself); under
    /// `low` it is read again.
    static let writeBufferWaterMark = WriteBufferWaterMark(low: 256 << 10, high: 1 << 20)

    /// Methods the server implements (for the description check).
    public static func implementedMethods(engine: PlayerEngine) -> Set<String> {
        Set(positionalParameters(engine: engine).keys)
    }

    /// Each implemented method's parameter names in the order positional params bind to them.
    public static func positionalParameters(engine: PlayerEngine) -> [String: [String]] {
        Dispatcher(
            engine: engine, info: DaemonInfo(version: "", socket: "", audio: "", video: "", startedAt: 0),
            document: .null
        )
        .methods.mapValues(\.params)
    }
}

/// The listening channel, set once by start and taken by shutdown (possibly from another thread).
private final class ChannelBox: @unchecked Sendable {
    private let lock = ThreadLock()
    private var channel: Channel?
    func set(_ channel: Channel) { lock.withLock { self.channel = channel } }
    func take() -> Channel? {
        lock.withLock {
            defer { channel = nil }
            return channel
        }
    }
}
