// A connection must finish its first request head within a deadline, however slowly it keeps sending.
// Hummingbird's idle timeout (HTTPConnectionStateHandler) is added to a connection only once its first head is
// parsed (the WebSocket upgrade negotiates first), and it counts parsed HTTP parts, not bytes: without this, a
// socket that never sends — or dribbles a header a byte at a time — held a connection slot for ever. Sits
// first in each connection's pipeline, reads raw bytes (passing them on untouched), and removes itself once it
// has seen the blank line ending the first head; from then on Hummingbird's idle timeout governs.

import HummingbirdCore
import Logging
import NIOCore

/// Wraps the server's child channel: adds `RequestHeadDeadlineHandler` in front of its pipeline.
struct RequestHeadDeadlineChannel<Inner: ServerChildChannel>: ServerChildChannel {
    typealias Value = Inner.Value
    let inner: Inner
    let deadline: TimeAmount

    /// The connection's event loop.
    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        do {
            try channel.pipeline.syncOperations.addHandler(RequestHeadDeadlineHandler(deadline: deadline), position: .first)
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return inner.setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async { await inner.handle(value: value, logger: logger) }
}

/// Runs on the connection's event loop only.
final class RequestHeadDeadlineHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    let deadline: TimeAmount
    private var timer: Scheduled<Void>?
    /// The last byte seen was a line feed (carriage returns skipped): a second one ends the head.
    private var afterLineFeed = false
    private var headEnded = false

    init(deadline: TimeAmount) { self.deadline = deadline }

    func handlerAdded(context: ChannelHandlerContext) {
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(in: deadline) {
            loopBound.value.close(promise: nil)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        if !headEnded {
            for byte in buffer.readableBytesView {
                if byte == UInt8(ascii: "\n") {
                    if afterLineFeed {
                        headEnded = true
                        break
                    }
                    afterLineFeed = true
                } else if byte != UInt8(ascii: "\r") {
                    afterLineFeed = false
                }
            }
        }
        context.fireChannelRead(data)
        if headEnded {
            timer?.cancel()
            timer = nil
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        }
    }
}
