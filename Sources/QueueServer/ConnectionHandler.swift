// One client connection, confined to its event loop: checks the peer, answers request lines in order,
// and forwards the events it subscribed to. A client that stops reading never holds up anyone: while its
// outgoing buffer is over the high-water mark we stop reading its requests and drop its progress events;
// past `maxPendingBytes` it is disconnected.

import Glibc
import MediaPaths
import NIOCore
import Playback
import QueueRPC
import SystemClock

final class ConnectionHandler: ChannelInboundHandler, Session {
    typealias InboundIn = InboundFrame
    typealias OutboundOut = ByteBuffer

    struct Limits {
        var lineLimit: Int
        /// Bytes written but not yet taken by the socket, past which the client is dropped.
        var maxPendingBytes: Int
    }

    private let dispatcher: Dispatcher
    private let hub: EventHub
    private let access: PeerAccess
    private let limits: Limits
    private var context: ChannelHandlerContext?
    private var pendingBytes = 0
    /// Replies not yet written, in request order: a reply waits for every one before it. Empty in the
    /// common case (every reply answered at once), when replies are written as they come.
    private var outbox = CircularBuffer<Outgoing>()
    /// The keeper has kept every change up to this sequence number (as far as this connection knows).
    private var keptThrough: UInt64 = 0
    /// The sequence number one keeper callback is on its way for (one at a time: while the keeper writes,
    /// the replies behind it gather, and the next callback releases them all).
    private var awaitedKeep: UInt64 = 0
    private var nextLaterID = 0
    /// A flush of deferred replies is scheduled for the end of this event-loop tick (one write(2) for
    /// every reply that became ready meanwhile, as the immediate ones get at channelReadComplete).
    private var flushScheduled = false

    /// A reply in the outbox.
    private enum Outgoing {
        case ready([UInt8]?)
        /// To be written once the keeper has kept every change up to the sequence number.
        case afterKept(UInt64, [UInt8]?)
        /// Answered later (a screenshot, a batch that waits); becomes `.ready` when it is.
        case later(id: Int)
    }

    var subscribedEvents: Set<EventName> = []
    var progressInterval = 1.0
    var subscribedZones: Set<String> = ["main"]
    var zoneKeeps: [(keeper: ChangeKeeper, through: UInt64)] = []
    /// When progress was last sent, per zone (each zone's progress is rate-limited on its own).
    private var lastProgressAtByZone: [String: Double] = [:]
    /// Set once by session.confine (this connection's event loop), never lifted.
    var confinement: FolderConfinement?

    init(dispatcher: Dispatcher, hub: EventHub, access: PeerAccess, limits: Limits) {
        self.dispatcher = dispatcher
        self.hub = hub
        self.access = access
        self.limits = limits
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func channelActive(context: ChannelHandlerContext) {
        let access = self.access
        let loopBound = NIOLoopBound(self, eventLoop: context.eventLoop)
        PeerAccess.credentials(of: context.channel).whenComplete { result in
            let handler = loopBound.value
            guard let context = handler.context else { return }
            switch result {
            case .success(let peer) where access.allows(peer):
                let eventLoop = context.eventLoop
                handler.hub.add(ObjectIdentifier(handler)) { event in
                    eventLoop.execute { loopBound.value.deliver(event) }
                }
                context.channel.setOption(ChannelOptions.autoRead, value: true).whenComplete { _ in
                    loopBound.value.context?.read()
                }
            default:
                let refusal = RPCEncode.error(.badState("access denied: this socket is for its owner only"), id: .null)
                handler.write(RPCEncode.line(refusal), flush: true)
                context.close(promise: nil)
            }
        }
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        hub.remove(ObjectIdentifier(self))
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        hub.remove(ObjectIdentifier(self))
        self.context = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let reply: Dispatcher.Reply
        switch unwrapInboundIn(data) {
        case .oversized:
            let error = RPCError.invalidRequest("request line longer than \(limits.lineLimit) bytes; it was discarded")
            reply = .now(RPCEncode.line(RPCEncode.error(error, id: .null)))
        case .line(let buffer):
            reply = dispatcher.handle(RPCLine.parse(buffer.readableBytesView), session: self, on: context.eventLoop)
        }
        switch reply {
        case .now(let bytes) where outbox.isEmpty:
            // The common case: answered at once, nothing earlier still waiting.
            if let bytes { write(bytes, flush: false) }
        case .now(let bytes):
            outbox.append(.ready(bytes))
        case .afterKept(let sequence, let bytes):
            outbox.append(.afterKept(sequence, bytes))
            awaitKeeper(through: sequence)
        case .later(let future):
            let id = nextLaterID
            nextLaterID += 1
            outbox.append(.later(id: id))
            let loopBound = NIOLoopBound(self, eventLoop: context.eventLoop)
            future.whenComplete { result in
                let handler = loopBound.value
                guard let index = handler.outbox.firstIndex(where: { if case .later(id) = $0 { true } else { false } })
                else { return }
                handler.outbox[index] = .ready((try? result.get()) ?? nil)
                handler.writeReadyReplies()
            }
        }
    }

    /// Asks the keeper to call back once `sequence` is kept, unless a callback is already on its way (the
    /// replies behind it then wait for the next round, which `writeReadyReplies` asks for).
    private func awaitKeeper(through sequence: UInt64) {
        guard let keeper = dispatcher.keeper else {
            // Nothing keeps changes (a dispatcher without one does not defer replies; this is the safe side).
            keptThrough = max(keptThrough, sequence)
            return writeReadyReplies()
        }
        guard sequence > keptThrough else { return writeReadyReplies() }
        guard awaitedKeep <= keptThrough, let context else { return }
        awaitedKeep = sequence
        let loop = context.eventLoop
        let loopBound = NIOLoopBound(self, eventLoop: loop)
        keeper.whenKept(sequence) {
            loop.execute {
                let handler = loopBound.value
                handler.keptThrough = max(handler.keptThrough, sequence)
                handler.writeReadyReplies()
            }
        }
    }

    /// Writes the replies at the head of the outbox that may go now, in order, and asks the keeper for
    /// the next round when the head still waits for it.
    private func writeReadyReplies() {
        var wrote = false
        loop: while let head = outbox.first {
            switch head {
            case .later:
                break loop
            case .afterKept(let sequence, _) where sequence > keptThrough:
                // Wait for everything queued so far in one callback: the newest sequence number covers it.
                let newest = outbox.reduce(sequence) { newest, reply in
                    if case .afterKept(let later, _) = reply { max(newest, later) } else { newest }
                }
                awaitKeeper(through: newest)
                break loop
            case .ready(let bytes), .afterKept(_, let bytes):
                outbox.removeFirst()
                if let bytes {
                    write(bytes, flush: false)
                    wrote = true
                }
            }
        }
        if wrote { flushSoon() }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        context.flush()
        context.fireChannelReadComplete()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        // Backpressure: a client that does not read its replies does not get to send more requests.
        let loopBound = NIOLoopBound(self, eventLoop: context.eventLoop)
        let channel = context.channel
        channel.setOption(ChannelOptions.autoRead, value: channel.isWritable).whenSuccess {
            if channel.isWritable { loopBound.value.context?.read() }
        }
        context.fireChannelWritabilityChanged()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }

    /// A daemon event, on this connection's event loop.
    private func deliver(_ event: DaemonEvent) {
        guard let context, subscribedEvents.contains(Wire.name(of: event)) else { return }
        switch event {
        case .zoned(let zone, _): guard subscribedZones.contains(zone) || subscribedZones.contains("*") else { return }
        case .engine: guard subscribedZones.contains("main") || subscribedZones.contains("*") else { return }
        default: break
        }
        let (name, params) = Wire.notification(event)
        if name == .progress {
            // Progress is the first thing dropped for a slow reader, and it is rate-limited per client.
            guard context.channel.isWritable else { return }
            let now = Monotonic.now()
            let zone: String
            if case .zoned(let name, _) = event { zone = name } else { zone = "main" }
            guard now - (lastProgressAtByZone[zone] ?? 0) >= progressInterval - 0.005 else { return }
            lastProgressAtByZone[zone] = now
        }
        write(RPCEncode.line(RPCEncode.notification(method: name.method, params: params)), flush: true)
    }

    /// Flushes at the end of the tick, with whatever else got ready (deferred replies are written outside
    /// a read, so channelReadComplete does not flush them).
    private func flushSoon() {
        guard !flushScheduled, let loop = context?.eventLoop else { return }
        flushScheduled = true
        let loopBound = NIOLoopBound(self, eventLoop: loop)
        loop.execute {
            let handler = loopBound.value
            handler.flushScheduled = false
            handler.context?.flush()
        }
    }

    private func write(_ bytes: [UInt8], flush: Bool) {
        guard let context else { return }
        if pendingBytes + bytes.count > limits.maxPendingBytes {
            // It has stopped reading for good: let it go rather than hold its backlog.
            context.close(promise: nil)
            return
        }
        pendingBytes += bytes.count
        let count = bytes.count
        let loopBound = NIOLoopBound(self, eventLoop: context.eventLoop)
        let promise = context.eventLoop.makePromise(of: Void.self)
        promise.futureResult.whenComplete { _ in loopBound.value.pendingBytes -= count }
        let buffer = context.channel.allocator.buffer(bytes: bytes)
        if flush {
            context.writeAndFlush(wrapOutboundOut(buffer), promise: promise)
        } else {
            context.write(wrapOutboundOut(buffer), promise: promise)
        }
    }

}
