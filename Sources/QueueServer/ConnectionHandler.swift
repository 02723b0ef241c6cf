import Glibc
import NIOCore
import Playback
import QueueRPC
// One client connection, confined to its event loop: checks the peer, answers request lines in order,
// and forwards the events it subscribed to. A client that stops reading never holds up anyone: while its
// outgoing buffer is over the high-water mark we stop reading its requests and drop its progress events;
// past `maxPendingBytes` it is disconnected.
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
    /// Responses are written in request order even when one is answered later (screenshot).
    private var lastResponse: EventLoopFuture<Void>?
    /// A flush of deferred replies is scheduled for the end of this event-loop tick (one write(2) for
    /// every reply that became ready meanwhile, as the immediate ones get at channelReadComplete).
    private var flushScheduled = false
    private var lastProgressAt = 0.0

    var subscribedEvents: Set<EventName> = []
    var progressInterval = 1.0

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
        case .now(let bytes) where lastResponse == nil:
            // The common case: answered at once, nothing earlier still pending.
            if let bytes { write(bytes, flush: false) }
        case .now(let bytes):
            chain(context.eventLoop.makeSucceededFuture(bytes), on: context.eventLoop)
        case .later(let future):
            chain(future, on: context.eventLoop)
        }
    }

    /// Keeps replies in request order behind one that is answered later.
    private func chain(_ reply: EventLoopFuture<[UInt8]?>, on loop: EventLoop) {
        let loopBound = NIOLoopBound(self, eventLoop: loop)
        let previous = lastResponse ?? loop.makeSucceededVoidFuture()
        let written = previous.flatMap { reply }.map { bytes in
            if let bytes { loopBound.value.writeSoon(bytes, on: loop) }
        }
        lastResponse = written
        written.whenComplete { _ in
            let handler = loopBound.value
            if handler.lastResponse === written { handler.lastResponse = nil }
        }
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

    /// An engine event, on this connection's event loop.
    private func deliver(_ event: PlayerEvent) {
        guard let context else { return }
        let (name, params) = Wire.notification(event)
        guard subscribedEvents.contains(name) else { return }
        if name == .progress {
            // Progress is the first thing dropped for a slow reader, and it is rate-limited per client.
            guard context.channel.isWritable else { return }
            let now = Monotonic.now()
            guard now - lastProgressAt >= progressInterval - 0.005 else { return }
            lastProgressAt = now
        }
        write(RPCEncode.line(RPCEncode.notification(method: name.method, params: params)), flush: true)
    }

    /// Writes a deferred reply and flushes at the end of the tick, with whatever else got ready.
    private func writeSoon(_ bytes: [UInt8], on loop: EventLoop) {
        write(bytes, flush: false)
        guard !flushScheduled else { return }
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
