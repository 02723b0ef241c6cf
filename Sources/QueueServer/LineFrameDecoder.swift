// Splits the inbound byte stream into request lines of at most `limit` bytes. An over-long line is
// reported once (so the client gets an error) and its bytes are discarded up to the next newline; the
// connection lives on. Runs on the connection's event loop.

import NIOCore

enum InboundFrame {
    case line(ByteBuffer)
    case oversized
}

struct LineFrameDecoder: ByteToMessageDecoder {
    typealias InboundOut = InboundFrame

    let limit: Int
    /// Inside an over-long line: drop bytes until its newline.
    private var discarding = false

    init(limit: Int) {
        self.limit = limit
    }

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        let view = buffer.readableBytesView
        if let newline = view.firstIndex(of: UInt8(ascii: "\n")) {
            let length = newline - view.startIndex
            if discarding {
                buffer.moveReaderIndex(forwardBy: length + 1)
                discarding = false
                return .continue
            }
            if length > limit {
                buffer.moveReaderIndex(forwardBy: length + 1)
                context.fireChannelRead(wrapInboundOut(.oversized))
                return .continue
            }
            guard let line = buffer.readSlice(length: length) else { return .needMoreData }
            buffer.moveReaderIndex(forwardBy: 1)
            context.fireChannelRead(wrapInboundOut(.line(line)))
            return .continue
        }
        if buffer.readableBytes > limit {
            // No newline within the limit: this line is too long whatever follows.
            buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
            if !discarding {
                discarding = true
                context.fireChannelRead(wrapInboundOut(.oversized))
            }
        } else if discarding {
            buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
        }
        return .needMoreData
    }

    mutating func decodeLast(
        context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool
    ) throws -> DecodingState {
        // A client that disconnects mid-line: the partial line is dropped.
        while try decode(context: context, buffer: &buffer) == .continue {}
        buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
        return .needMoreData
    }
}
