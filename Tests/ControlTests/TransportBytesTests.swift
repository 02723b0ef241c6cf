// The control socket's transport, byte for byte, on an EmbeddedChannel holding the production pipeline
// (LineFrameDecoder + ConnectionHandler): lines split or joined across reads, over-long lines, reply order
// behind a deferred reply, and the 1 MiB (stop reading) / 8 MiB (disconnect) backpressure thresholds.

import Logging
import NIOCore
import NIOEmbedded
import Playback
import QueueRPC
import Testing

@testable import QueueServer

/// Promises of the `later` method, for the test to complete. Only touched on the embedded loop's thread.
private final class DeferredReplies: @unchecked Sendable {
    var promises: [EventLoopPromise<JSONValue>] = []
}

/// A state keeper the test drives: `change` requests record a change, `keep(through:)` keeps them.
/// Only touched on the embedded loop's thread.
private final class ManualKeeper: ChangeKeeper, @unchecked Sendable {
    private(set) var lastRecorded: UInt64 = 0
    private var kept: UInt64 = 0
    private(set) var waiting: [(sequence: UInt64, callback: @Sendable () -> Void)] = []
    /// Callbacks asked for so far (one per round trip to the keeper, not one per reply).
    private(set) var requests = 0
    private(set) var heldWakeups = 0
    private var held = false

    func record() { lastRecorded += 1 }

    func whenKept(_ sequence: UInt64, _ callback: @escaping @Sendable () -> Void) {
        requests += 1
        if sequence <= kept { callback() } else { waiting.append((sequence, callback)) }
    }

    func keep(through sequence: UInt64) {
        kept = sequence
        let ready = waiting.filter { $0.sequence <= kept }
        waiting.removeAll { $0.sequence <= kept }
        for waiter in ready { waiter.callback() }
    }

    func holdWakeup() -> Bool {
        guard !held else { return false }
        held = true
        heldWakeups += 1
        return true
    }

    func releaseWakeup() { held = false }
}

/// Bytes compared byte for byte (String's == equates Unicode-equivalent texts); printed shortened.
private struct WireBytes: Equatable, CustomStringConvertible {
    let raw: [UInt8]
    init(_ raw: [UInt8]) { self.raw = raw }
    init(_ text: String) { raw = Array(text.utf8) }
    var description: String {
        let text = String(decoding: raw, as: UTF8.self)
        return raw.count <= 300 ? text : "\(text.prefix(120))…[\(raw.count) bytes]…\(text.suffix(120))"
    }
}

/// Stands in for a socket whose peer stopped reading. It keeps every write with its promise open (what
/// ConnectionHandler counts as its outgoing buffer) and, as NIO's socket channel does (EmbeddedChannel has
/// no watermarks), marks the channel unwritable past ControlServer's high-water mark and writable again
/// under its low one. `drain()` is the peer reading it all.
private final class StalledSocket: ChannelOutboundHandler {
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer
    static let waterMark = ControlServer.writeBufferWaterMark
    private var held: [(ByteBuffer, EventLoopPromise<Void>?)] = []
    private var context: ChannelHandlerContext?
    private(set) var received: [UInt8] = []
    private(set) var reads = 0
    var heldBytes: Int { held.reduce(0) { $0 + $1.0.readableBytes } }

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let buffer = unwrapOutboundIn(data)
        held.append((buffer, promise))
        received += buffer.readableBytesView
        setWritable(false, when: heldBytes > Self.waterMark.high)
    }

    func flush(context: ChannelHandlerContext) {}  // nothing leaves: the peer is not reading

    func read(context: ChannelHandlerContext) {
        reads += 1
        context.read()
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        for (_, promise) in held { promise?.fail(ChannelError.ioOnClosedChannel) }
        held = []
        context.close(mode: mode, promise: promise)
    }

    func drain() {
        guard let context else { return }
        for (buffer, promise) in held { context.write(wrapOutboundOut(buffer), promise: promise) }
        held = []
        context.flush()
        setWritable(true, when: heldBytes < Self.waterMark.low)
    }

    private func setWritable(_ writable: Bool, when condition: Bool) {
        guard condition, let context, let channel = context.channel as? EmbeddedChannel, channel.isWritable != writable
        else { return }
        channel.isWritable = writable
        context.fireChannelWritabilityChanged()
    }
}

@Suite struct TransportBytesTests {
    let config = ControlServerConfig(socketPath: "/run/queued-test.sock", ownsDirectory: false)
    private let deferred: DeferredReplies
    let dispatcher: Dispatcher

    init() {
        let engine = PlayerEngine(
            config: EngineConfig(), audio: NullAudioSink(mode: .untimed), video: nil,
            logger: Logger(label: "transport-test")
        ) { _ in }
        let deferred = DeferredReplies()
        self.deferred = deferred
        dispatcher = Dispatcher(
            engine: engine,
            methods: [
                RPCMethod(name: "echo", params: ["text"]) { params, _, _ in
                    .now(.string(try params.requiredString("text")))
                },
                RPCMethod(name: "blob", params: ["size"]) { params, _, _ in
                    .now(.string(String(repeating: "x", count: Int(try params.requiredInt("size")))))
                },
                RPCMethod(name: "later", params: []) { _, _, loop in
                    let promise = loop.makePromise(of: JSONValue.self)
                    deferred.promises.append(promise)
                    return .later(promise.futureResult)
                },
            ])
    }

    /// ControlServer.start's per-connection pipeline behind `socket`, on a connected channel. The handler
    /// is added after connecting: EmbeddedChannel has no SO_PEERCRED, so the access check is left out.
    private func connection(_ socket: StalledSocket? = nil) throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        channel.connect(to: try SocketAddress(unixDomainSocketPath: config.socketPath), promise: nil)
        let limits = ConnectionHandler.Limits(lineLimit: config.lineLimit, maxPendingBytes: config.maxPendingBytes)
        if let socket { try channel.pipeline.syncOperations.addHandler(socket) }
        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineFrameDecoder(limit: limits.lineLimit)))
        try channel.pipeline.syncOperations.addHandler(
            ConnectionHandler(dispatcher: dispatcher, hub: EventHub(), access: config.access, limits: limits))
        return channel
    }

    private func request(_ id: Int, _ method: String, _ params: String = "[]") -> String {
        #"{"jsonrpc":"2.0","method":"\#(method)","params":\#(params),"id":\#(id)}"# + "\n"
    }

    private func result(_ id: Int, _ text: String) -> String {
        #"{"jsonrpc":"2.0","result":"\#(text)","id":\#(id)}"# + "\n"
    }

    /// A `blob` request whose reply line is exactly `lineBytes` long, and that reply.
    private func blob(_ id: Int, replyBytes lineBytes: Int) -> (request: String, reply: String) {
        let size = lineBytes - result(id, "").utf8.count
        return (request(id, "blob", "[\(size)]"), result(id, String(repeating: "x", count: size)))
    }

    @Test func aLineSplitAnywhereGetsOneReplyAndJoinedLinesGetTheirsInOrder() throws {
        let line = Array(request(1, "echo", #"["né € 🎵"]"#).utf8)
        let reply = WireBytes(result(1, "né € 🎵"))
        // Every two-read split, including inside the 2-, 3- and 4-byte UTF-8 characters.
        for cut in 1..<line.count {
            let channel = try connection()
            try channel.send(line[..<cut])
            #expect(try channel.sent() == WireBytes(""), "split at byte \(cut): nothing before the newline")
            try channel.send(line[cut...])
            #expect(try channel.sent() == reply, "split at byte \(cut)")
            _ = try channel.finish()
        }
        // One byte per read.
        let channel = try connection()
        var afterEachByte: [[UInt8]] = []
        for byte in line {
            try channel.send([byte])
            afterEachByte.append(try channel.sent().raw)
        }
        #expect(afterEachByte.firstIndex { !$0.isEmpty } == line.count - 1, "nothing before the last byte")
        #expect(WireBytes(Array(afterEachByte.joined())) == reply)
        // Three requests and the first 20 bytes of a fourth in one read, then the rest of the fourth.
        let fourth = Array(request(4, "echo", #"["d"]"#).utf8)
        try channel.send(
            Array(
                (request(1, "echo", #"["a"]"#) + request(2, "echo", #"["b"]"#)
                    + request(3, "echo", #"["c"]"#)).utf8) + fourth[..<20])
        #expect(try channel.sent() == WireBytes(result(1, "a") + result(2, "b") + result(3, "c")))
        try channel.send(fourth[20...])
        #expect(try channel.sent() == WireBytes(result(4, "d")))
        _ = try channel.finish()
    }

    @Test func anOverLongLineIsAnsweredWithInvalidRequestAndSkipped() throws {
        let limit = config.lineLimit
        #expect(limit == 1 << 20, "the README's 1 MiB")
        let atLimit = request(1, "echo", #"[""]"#).utf8.count - 1  // without its newline
        let pad = String(repeating: "x", count: limit - atLimit)
        let refused =
            #"{"jsonrpc":"2.0","error":{"code":-32600,"message":"invalid request: "#
            + #"request line longer than 1048576 bytes; it was discarded"},"id":null}"# + "\n"
        let input = Array(
            (request(1, "echo", #"["\#(pad)"]"#) + request(2, "echo", #"["\#(pad)x"]"#)
                + request(3, "echo", #"["\#(String(repeating: "y", count: 4 * limit))"]"#)
                + request(4, "echo", #"["after"]"#)).utf8)
        // A line of exactly the limit is served; one byte more is refused; a 4 MiB line is refused once; the
        // next line is served. In one read (each newline is seen), in 64 KiB reads (the limit is passed before
        // the newline), and in reads of limit + 1 bytes (several over-limit reads inside one line).
        for chunk in [input.count, 64 << 10, limit + 1] {
            let channel = try connection()
            var output: [UInt8] = []
            for start in stride(from: 0, to: input.count, by: chunk) {
                try channel.send(input[start..<min(start + chunk, input.count)])
                output += try channel.sent().raw
            }
            let expected = WireBytes(result(1, pad) + refused + refused + result(4, "after"))
            #expect(WireBytes(output) == expected, "reads of \(chunk) bytes")
            #expect(channel.isActive)
            _ = try channel.finish()
        }
    }

    @Test func repliesStayInRequestOrderBehindDeferredOnes() throws {
        let channel = try connection()
        try channel.send(Array((request(1, "later") + request(2, "later")).utf8))
        try channel.send(Array(request(3, "echo", #"["now"]"#).utf8))
        #expect(deferred.promises.count == 2)
        #expect(try channel.sent() == WireBytes(""), "the immediate reply waits for the deferred ones")
        deferred.promises[1].succeed(.string("second"))
        #expect(try channel.sent() == WireBytes(""), "the second deferred reply waits for the first")
        deferred.promises[0].succeed(.string("first"))
        #expect(try channel.sent() == WireBytes(result(1, "first") + result(2, "second") + result(3, "now")))
        // Nothing pending any more: an immediate reply goes out at once.
        try channel.send(Array(request(4, "echo", #"["next"]"#).utf8))
        #expect(try channel.sent() == WireBytes(result(4, "next")))
        _ = try channel.finish()
    }

    /// A change is answered once it is kept, in request order with everything around it, and a client
    /// with many changes in flight costs the keeper one callback per round, not one per reply.
    @Test func repliesToChangesWaitUntilKeptAndKeepRequestOrder() throws {
        let keeper = ManualKeeper()
        let engine = PlayerEngine(
            config: EngineConfig(), audio: NullAudioSink(mode: .untimed), video: nil,
            logger: Logger(label: "transport-test")
        ) { _ in }
        let dispatcher = Dispatcher(
            engine: engine,
            methods: [
                RPCMethod(name: "change", params: [], kind: .change) { _, _, _ in
                    keeper.record()
                    return .now(.string("changed \(keeper.lastRecorded)"))
                },
                RPCMethod(name: "echo", params: ["text"]) { params, _, _ in
                    .now(.string(try params.requiredString("text")))
                },
            ], keeper: keeper)
        let channel = EmbeddedChannel()
        channel.connect(to: try SocketAddress(unixDomainSocketPath: config.socketPath), promise: nil)
        let limits = ConnectionHandler.Limits(lineLimit: config.lineLimit, maxPendingBytes: config.maxPendingBytes)
        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineFrameDecoder(limit: limits.lineLimit)))
        try channel.pipeline.syncOperations.addHandler(
            ConnectionHandler(dispatcher: dispatcher, hub: EventHub(), access: config.access, limits: limits))

        try channel.send(Array((request(1, "change") + request(2, "change") + request(3, "echo", #"["now"]"#)).utf8))
        #expect(try channel.sent() == WireBytes(""), "nothing is answered before its change is kept")
        #expect(keeper.requests == 1, "one callback is asked for while it is on its way")
        #expect(keeper.heldWakeups == 1, "the keeper is woken once for the changes of one read")
        keeper.keep(through: 1)
        #expect(try channel.sent() == WireBytes(result(1, "changed 1")), "the second change is not kept yet")
        #expect(keeper.requests == 2, "the next round asks for the newest change waiting")
        try channel.send(Array(request(4, "change").utf8))
        keeper.keep(through: 2)
        #expect(try channel.sent() == WireBytes(result(2, "changed 2") + result(3, "now")))
        keeper.keep(through: 3)
        #expect(try channel.sent() == WireBytes(result(4, "changed 3")))
        // Nothing waits any more: a query is answered at once.
        try channel.send(Array(request(5, "echo", #"["next"]"#).utf8))
        #expect(try channel.sent() == WireBytes(result(5, "next")))
        #expect(keeper.waiting.isEmpty)
        _ = try channel.finish()
    }

    @Test func pastOneMebibyteUnsentItStopsReadingAndResumesWhenDrained() throws {
        // The 1 MiB is the channel's high-water mark (set by ControlServer.start, acted on by NIO, here by
        // StalledSocket); what is ConnectionHandler's is turning autoRead off on the flip, and back on with a read.
        let socket = StalledSocket()
        let channel = try connection(socket)
        let blobs = (1...5).map { blob($0, replyBytes: 256 << 10) }
        try channel.send(Array(blobs[0..<4].map { $0.request }.joined().utf8))
        #expect(socket.heldBytes == 1 << 20)
        #expect(channel.autoRead == nil, "at exactly 1 MiB it still reads")
        try channel.send(Array(blobs[4].request.utf8))
        #expect(socket.heldBytes == 5 << 18)
        #expect(channel.autoRead == false, "past 1 MiB it stops reading")
        #expect(socket.reads == 0)
        socket.drain()  // the peer reads everything
        #expect(try channel.sent() == WireBytes(blobs.map { $0.reply }.joined()))
        #expect(channel.autoRead == true, "drained: reading again")
        #expect(socket.reads == 1, "and it asks for the next read at once")
        #expect(channel.isActive)
        _ = try channel.finish()
    }

    @Test func pastEightMebibytesUnsentTheConnectionIsClosed() throws {
        #expect(config.maxPendingBytes == 8 << 20, "the README's 8 MiB")
        let socket = StalledSocket()
        let channel = try connection(socket)
        // Replies of 256 KiB. A peer that reads them may be sent any amount: 8 MiB, read, then more.
        let blobs = (1...65).map { blob($0, replyBytes: 256 << 10) }
        try channel.send(Array(blobs[..<32].map { $0.request }.joined().utf8))
        socket.drain()
        #expect(try channel.sent() == WireBytes(blobs[..<32].map { $0.reply }.joined()))
        #expect(channel.isActive)
        // Now it stops reading: of 33 requests in one read, 32 replies make exactly 8 MiB unsent, the 33rd is over.
        try channel.send(Array(blobs[32...].map { $0.request }.joined().utf8))
        channel.embeddedEventLoop.run()
        let written = WireBytes(blobs[..<64].map { $0.reply }.joined())
        #expect(WireBytes(socket.received) == written, "up to 8 MiB unsent, not more")
        #expect(!channel.isActive, "past 8 MiB unsent the client is let go")
        _ = try channel.finish(acceptAlreadyClosed: true)
    }
}

extension EmbeddedChannel {
    fileprivate func send(_ bytes: some Sequence<UInt8>) throws {
        try writeInbound(ByteBuffer(bytes: bytes))
    }

    /// Everything that reached the socket since the last call, concatenated.
    fileprivate func sent() throws -> WireBytes {
        embeddedEventLoop.run()
        var bytes: [UInt8] = []
        while let buffer = try readOutbound(as: ByteBuffer.self) { bytes += buffer.readableBytesView }
        return WireBytes(bytes)
    }

    /// The autoRead value last set on the channel (nil: never set). EmbeddedChannel records it and ignores it.
    fileprivate var autoRead: Bool? {
        options.first { $0.option is ChannelOptions.Types.AutoReadOption }?.value as? Bool
    }
}
