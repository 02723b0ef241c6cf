// A fault-injecting HTTP/1.1 reverse proxy for tests: a client under test (NetCache's async-http-client,
// a test's own socket) talks to it on 127.0.0.1, it forwards each request to an upstream on 127.0.0.1
// (NginxServer) and injects faults into the response: a throttle, a stall, a cut connection, an injected
// status, a server that ignores Range. It never listens on or connects to anything but 127.0.0.1.
//
// Hand-written because no Debian or mirrored package does this in-process under a test's control: nginx's
// limit_rate throttles but cannot stall, cut at an exact byte or change while a test runs; tc/netem shapes
// whole interfaces; toxiproxy-like tools are separate daemons with their own API. TestSupport has no
// dependencies, so this is plain POSIX sockets (Glibc), one thread per connection, every wait a poll()
// of at most 200 ms that `stop()` wakes at once (a closed self-pipe), so no thread can block forever.
//
// Each connection carries one exchange: the request head is read, rewritten with `Connection: close`
// and sent upstream; the response goes back with `Connection: close`, then both sockets close. Keep-alive
// clients see the close and open a new connection for their next request. Requests with a body are
// refused (501): the clients under test only send GET and HEAD.

import Foundation
import Glibc

/// Thread-safety: `port` and `upstreamPort` are immutable; faults, the exchange log, the hook and the
/// stop flag live in `Core`, guarded by its lock; each connection's sockets are owned by its thread.
public final class FaultProxy: @unchecked Sendable {
    /// A pause in a response body: after `afterBytes` body bytes, nothing for `seconds`, then the rest.
    public struct Stall: Sendable, Equatable {
        public var afterBytes: Int
        public var seconds: Double
        /// How many more responses it applies to (one is used up by each response that reaches
        /// `afterBytes`; at 0 the fault clears itself); nil: every response.
        public var times: Int?
        public init(afterBytes: Int, seconds: Double, times: Int? = 1) {
            self.afterBytes = afterBytes
            self.seconds = seconds
            self.times = times
        }
    }

    /// A connection closed (FIN) after `afterBytes` body bytes of a response that has more.
    public struct Cut: Sendable, Equatable {
        public var afterBytes: Int
        /// As for `Stall.times`.
        public var times: Int?
        public init(afterBytes: Int, times: Int? = 1) {
            self.afterBytes = afterBytes
            self.times = times
        }
    }

    /// What to do to the responses from now on (read once per request, and per body chunk for
    /// throttle, stall and cut, so a change applies to responses already in flight).
    public struct Faults: Sendable, Equatable {
        /// Body bytes per second to the client (paced in chunks of at most 16 KiB and rate/20).
        public var throttle: Int?
        public var stall: Stall?
        public var cut: Cut?
        /// Answer every request with this status and a short text body; upstream is not contacted.
        public var status: Int?
        /// Strip `Range` and `If-Range` from requests, so upstream answers 200 with the whole file.
        public var ignoreRange: Bool
        public init(
            throttle: Int? = nil, stall: Stall? = nil, cut: Cut? = nil, status: Int? = nil, ignoreRange: Bool = false
        ) {
            self.throttle = throttle
            self.stall = stall
            self.cut = cut
            self.status = status
            self.ignoreRange = ignoreRange
        }
    }

    /// One request and what its response did, updated while it runs.
    public struct Exchange: Sendable, Equatable {
        public var method: String
        /// The request target as the client sent it ("/clip.mp4?x=1").
        public var path: String
        /// The client's Range header ("" when none), as received (before `ignoreRange`).
        public var range: String
        /// The client's If-Range header ("" when none), as received.
        public var ifRange: String
        /// The status sent to the client (0 until known; 502 when upstream failed).
        public var status: Int
        /// Body bytes written to the client so far.
        public var bodyBytes: Int
        /// Whether the response came from upstream (false: injected status, 502, 501).
        public var upstream: Bool
        public var stalled: Bool
        /// Whether the proxy closed the connection mid-body because of `Faults.cut`.
        public var cut: Bool
        /// Whether the connection is done (response complete, cut, client gone or proxy stopped).
        public var finished: Bool
    }

    /// The port the proxy listens on (127.0.0.1 only), chosen by the kernel.
    public let port: Int
    public let upstreamPort: Int
    private let core: Core

    /// Starts forwarding 127.0.0.1:`port` → 127.0.0.1:`upstreamPort`.
    public init(upstreamPort: Int, faults: Faults = Faults()) throws {
        let listener = try Core.listenOnLoopback()
        port = listener.port
        self.upstreamPort = upstreamPort
        core = try Core(listener: listener.fd, upstreamPort: upstreamPort, faults: faults)
        let core = self.core
        guard core.spawn({ core.acceptLoop() }) else { throw TestSupportError.io("FaultProxy: accept thread") }
    }

    public convenience init(upstream: NginxServer, faults: Faults = Faults()) throws {
        try self.init(upstreamPort: upstream.port, faults: faults)
    }

    deinit { core.stop() }

    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// The faults now in force. Setting replaces them all; a read-modify-write such as
    /// `proxy.faults.throttle = 1000` is two lock round trips and may undo a stall or cut that a
    /// response used up in between: use `updateFaults` when one may be in flight.
    public var faults: Faults {
        get { core.withLock { core.faults } }
        set { core.withLock { core.faults = newValue } }
    }

    /// Changes the faults atomically.
    public func updateFaults(_ change: (inout Faults) -> Void) {
        core.withLock { change(&core.faults) }
    }

    public func stall(afterBytes: Int, seconds: Double, times: Int? = 1) {
        updateFaults { $0.stall = Stall(afterBytes: afterBytes, seconds: seconds, times: times) }
    }

    public func cut(afterBytes: Int, times: Int? = 1) {
        updateFaults { $0.cut = Cut(afterBytes: afterBytes, times: times) }
    }

    public func clearFaults() { faults = Faults() }

    /// Called on the connection's thread once a request head is read, before the faults are read and
    /// anything is forwarded: it may change the faults for this very request, or the file upstream.
    public var onRequest: (@Sendable (Exchange) -> Void)? {
        get { core.withLock { core.onRequest } }
        set { core.withLock { core.onRequest = newValue } }
    }

    /// Every exchange so far, in arrival order (in-flight ones included, see `Exchange.finished`).
    public func exchanges() -> [Exchange] { core.withLock { core.log } }

    /// Body bytes written to clients over all exchanges.
    public var totalBodyBytes: Int { core.withLock { core.log.reduce(0) { $0 + $1.bodyBytes } } }

    /// Closes the listener and every connection and waits (up to 5 s) for their threads to end.
    /// Idempotent; also called on deinit; safe from `onRequest`.
    public func stop() { core.stop() }
}

/// The proxy's state and threads. Threads hold the core, not the FaultProxy, so dropping the last
/// FaultProxy reference runs its deinit, which stops them.
private final class Core: @unchecked Sendable {
    static let chunk = 16 * 1024
    static let headLimit = 64 * 1024
    /// For request and response heads and for connecting upstream; bodies wait only for `stop()`.
    static let headSeconds = 30.0

    let upstreamPort: Int
    /// Owned by the accept thread, which closes it when it ends.
    private let listener: Int32
    /// Read end of the stop pipe: every poll() includes it, and `stop()` closes the write end.
    private let stopRead: Int32
    private let stopWrite: Int32

    /// Guards everything below.
    private let lock = NSCondition()
    var faults: Faults
    var log: [FaultProxy.Exchange] = []
    var onRequest: (@Sendable (FaultProxy.Exchange) -> Void)?
    private var stopped = false
    private var threads = 0
    private var threadIDs: Set<pthread_t> = []

    typealias Faults = FaultProxy.Faults

    init(listener: Int32, upstreamPort: Int, faults: Faults) throws {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            close(listener)
            throw TestSupportError.io("FaultProxy: pipe(): \(String(cString: strerror(errno)))")
        }
        ends.forEach { Self.configure($0) }
        self.listener = listener
        self.upstreamPort = upstreamPort
        self.faults = faults
        stopRead = ends[0]
        stopWrite = ends[1]
    }

    deinit { close(stopRead) }

    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    private var isStopped: Bool { withLock { stopped } }

    // MARK: Threads

    /// Runs `body` on a new thread unless stopped; `stop()` waits for it.
    func spawn(_ body: @escaping @Sendable () -> Void) -> Bool {
        let allowed = withLock { () -> Bool in
            if stopped { return false }
            threads += 1
            return true
        }
        guard allowed else { return false }
        Thread { [self] in
            withLock { _ = threadIDs.insert(pthread_self()) }
            body()
            withLock {
                threadIDs.remove(pthread_self())
                threads -= 1
                lock.broadcast()
            }
        }.start()
        return true
    }

    func stop() {
        let deadline = MonotonicClock.nanoseconds() + 5_000_000_000
        withLock {
            if !stopped {
                stopped = true
                close(stopWrite)
            }
            // Called from one of our own threads (an onRequest hook): that thread cannot be joined.
            let own = threadIDs.contains(pthread_self()) ? 1 : 0
            while threads > own && MonotonicClock.nanoseconds() < deadline {
                _ = lock.wait(until: Date(timeIntervalSinceNow: 0.05))
            }
        }
    }

    func acceptLoop() {
        defer { close(listener) }
        while wait(listener, POLLIN, until: nil) == .ready {
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else {
                // EAGAIN/ECONNABORTED: the client went away; EMFILE and the like: back off a little.
                if errno != EAGAIN && errno != EINTR && errno != ECONNABORTED {
                    _ = wait(-1, 0, until: MonotonicClock.nanoseconds() + 50_000_000)
                }
                continue
            }
            Self.configure(fd)
            guard spawn({ [self] in serve(client: fd) }) else {
                close(fd)
                return
            }
        }
    }

    // MARK: One connection

    private func serve(client: Int32) {
        defer {
            shutdown(client, Int32(SHUT_WR))
            close(client)
        }
        guard let (request, _) = readHead(client, until: deadline(Self.headSeconds)) else { return }
        let words = request.startLine.split(separator: " ")
        guard words.count == 3 else { return }
        let exchange = FaultProxy.Exchange(
            method: String(words[0]), path: String(words[1]), range: request.value("range") ?? "",
            ifRange: request.value("if-range") ?? "", status: 0, bodyBytes: 0, upstream: false, stalled: false,
            cut: false, finished: false)
        let index = withLock { () -> Int in
            log.append(exchange)
            return log.count - 1
        }
        // The log says finished before the client can see the close.
        defer { update(index) { $0.finished = true } }
        withLock { onRequest }?(exchange)

        let hasBody = (Int(request.value("content-length") ?? "0") ?? 1) != 0
        if hasBody || request.value("transfer-encoding") != nil {
            respond(client, status: 501, index: index, headOnly: false)
            return
        }
        let faults = withLock { self.faults }
        if let status = faults.status {
            respond(client, status: status, index: index, headOnly: exchange.method == "HEAD")
            return
        }
        forward(request, client: client, index: index, ignoreRange: faults.ignoreRange, method: exchange.method)
    }

    private func forward(_ request: MessageHead, client: Int32, index: Int, ignoreRange: Bool, method: String) {
        var request = request
        request.makeClosing()
        if ignoreRange { request.remove(["range", "if-range"]) }
        guard let upstream = connectUpstream() else {
            respond(client, status: 502, index: index, headOnly: false)
            return
        }
        defer { close(upstream) }
        guard writeAll(upstream, request.bytes[...], until: deadline(Self.headSeconds)),
            var (response, bodyStart) = readHead(upstream, until: deadline(Self.headSeconds)),
            let status = response.status
        else {
            respond(client, status: 502, index: index, headOnly: false)
            return
        }
        update(index) {
            $0.status = status
            $0.upstream = true
        }
        let noBody = method == "HEAD" || (100..<200).contains(status) || status == 204 || status == 304
        let length = noBody ? 0 : response.value("transfer-encoding") == nil ? response.contentLength : nil
        response.makeClosing()
        guard writeAll(client, response.bytes[...], until: nil) else { return }
        pump(from: upstream, to: client, pending: bodyStart, length: length, index: index)
    }

    /// Copies the response body (`length` bytes, or up to upstream's EOF when nil), applying
    /// throttle, stall and cut as it goes.
    private func pump(from upstream: Int32, to client: Int32, pending first: [UInt8], length: Int?, index: Int) {
        var pending = first[...].prefix(length ?? first.count)
        var received = pending.count
        var sent = 0
        var stalled = false
        // The throttle's schedule: bytes paced since `origin` at `rate` (restarted when the rate changes).
        var pace: (rate: Int, origin: UInt64, bytes: Int)?
        while true {
            if pending.isEmpty {
                if let length, received >= length { return }
                guard let more = readSome(upstream, until: nil) else { return }
                pending = more[...].prefix(length.map { $0 - received } ?? more.count)
                received += pending.count
            }
            // More body is waiting: the faults at this offset decide what happens to it.
            let step = nextStep(at: sent, mayStall: !stalled)
            if step.cut {
                update(index) { $0.cut = true }
                return
            }
            if let seconds = step.stall {
                stalled = true
                update(index) { $0.stalled = true }
                guard wait(-1, 0, until: deadline(seconds)) == .timedOut else { return }
                pace = nil
            }
            var count = min(pending.count, Self.chunk, (step.boundary ?? Int.max) - sent)
            if let rate = step.throttle, rate > 0 {
                count = min(count, max(1, rate / 20))
                if pace?.rate != rate { pace = (rate, MonotonicClock.nanoseconds(), 0) }
                pace?.bytes += count
                if let pace {
                    let due = pace.origin + UInt64(Double(pace.bytes) / Double(rate) * 1e9)
                    guard wait(-1, 0, until: due) == .timedOut else { return }
                }
            } else {
                pace = nil
            }
            guard writeAll(client, pending.prefix(count), until: nil) else { return }
            pending = pending.dropFirst(count)
            sent += count
            update(index) { $0.bodyBytes = sent }
        }
    }

    private struct Step {
        var cut = false
        var stall: Double?
        /// The next offset where a fault applies: a chunk must not cross it.
        var boundary: Int?
        var throttle: Int?
    }

    /// Reads the faults for body offset `sent` and uses up a stall or cut that applies there.
    private func nextStep(at sent: Int, mayStall: Bool) -> Step {
        withLock {
            var step = Step(throttle: faults.throttle)
            if let cut = faults.cut {
                if cut.afterBytes == sent {
                    faults.cut = Self.usedOnce(cut.times).map { Cut(afterBytes: cut.afterBytes, times: $0) }
                    step.cut = true
                    return step
                }
                if cut.afterBytes > sent { step.boundary = cut.afterBytes }
            }
            if mayStall, let stall = faults.stall {
                if stall.afterBytes == sent {
                    faults.stall = Self.usedOnce(stall.times).map {
                        Stall(afterBytes: stall.afterBytes, seconds: stall.seconds, times: $0)
                    }
                    step.stall = stall.seconds
                } else if stall.afterBytes > sent {
                    step.boundary = min(step.boundary ?? Int.max, stall.afterBytes)
                }
            }
            return step
        }
    }

    private typealias Cut = FaultProxy.Cut
    private typealias Stall = FaultProxy.Stall

    /// `times` after one use: nil (cleared) when it was the last, `.some(nil)` when unlimited.
    private static func usedOnce(_ times: Int?) -> Int?? {
        guard let times else { return .some(nil) }
        return times > 1 ? .some(times - 1) : nil
    }

    /// Answers without upstream: `status` and a one-line text body.
    private func respond(_ client: Int32, status: Int, index: Int, headOnly: Bool) {
        let silent = headOnly || (100..<200).contains(status) || status == 204 || status == 304
        let body = silent ? [] : Array("FaultProxy: status \(status)\n".utf8)
        let head =
            "HTTP/1.1 \(status) \(Self.reason(status))\r\nContent-Type: text/plain\r\n"
            + "Content-Length: \(silent ? 0 : body.count)\r\nConnection: close\r\n\r\n"
        update(index) { $0.status = status }
        guard writeAll(client, Array(head.utf8)[...], until: nil), writeAll(client, body[...], until: nil) else {
            return
        }
        update(index) { $0.bodyBytes = body.count }
    }

    private static func reason(_ status: Int) -> String {
        let reasons = [
            400: "Bad Request", 403: "Forbidden", 404: "Not Found", 410: "Gone", 416: "Range Not Satisfiable",
            429: "Too Many Requests", 500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway",
            503: "Service Unavailable", 504: "Gateway Timeout",
        ]
        return reasons[status] ?? "Injected"
    }

    private func update(_ index: Int, _ change: (inout FaultProxy.Exchange) -> Void) {
        withLock { change(&log[index]) }
    }

    // MARK: Sockets

    enum Wake { case ready, stopped, timedOut }

    private func deadline(_ seconds: Double) -> UInt64 {
        MonotonicClock.nanoseconds() + UInt64(max(0, seconds) * 1e9)
    }

    /// Waits for `events` on `fd` (-1: none, a plain sleep), for `stop()`, or for `deadline`
    /// (monotonic ns; nil: none), in poll() slices of at most 200 ms.
    private func wait(_ fd: Int32, _ events: Int32, until deadline: UInt64?) -> Wake {
        while true {
            if isStopped { return .stopped }
            var slice: UInt64 = 200
            if let deadline {
                let now = MonotonicClock.nanoseconds()
                if now >= deadline { return .timedOut }
                slice = min(slice, (deadline - now + 999_999) / 1_000_000)
            }
            var fds = [
                pollfd(fd: fd, events: Int16(events), revents: 0),
                pollfd(fd: stopRead, events: Int16(POLLIN), revents: 0),
            ]
            let result = poll(&fds, nfds_t(fds.count), Int32(slice))
            if fds[1].revents != 0 { return .stopped }
            if fd >= 0 && fds[0].revents != 0 { return .ready }
            // Let the caller's recv/send report a real poll failure.
            if result < 0 && errno != EINTR && fd >= 0 { return .ready }
        }
    }

    /// Up to `chunk` bytes; nil at EOF, on an error, at the deadline or when stopped.
    private func readSome(_ fd: Int32, until deadline: UInt64?) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: Self.chunk)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 { return Array(buffer[..<count]) }
            if count == 0 { return nil }
            if errno == EINTR { continue }
            guard errno == EAGAIN || errno == EWOULDBLOCK, wait(fd, POLLIN, until: deadline) == .ready else {
                return nil
            }
        }
    }

    /// Writes all of `bytes`; false if the peer is gone, at the deadline or when stopped.
    private func writeAll(_ fd: Int32, _ bytes: ArraySlice<UInt8>, until deadline: UInt64?) -> Bool {
        var rest = bytes
        while !rest.isEmpty {
            let count = rest.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count > 0 {
                rest = rest.dropFirst(count)
                continue
            }
            if count < 0 && errno == EINTR { continue }
            guard count < 0, errno == EAGAIN || errno == EWOULDBLOCK, wait(fd, POLLOUT, until: deadline) == .ready
            else { return false }
        }
        return true
    }

    /// A message head and the bytes that followed it; nil on EOF, timeout, stop or a malformed head.
    private func readHead(_ fd: Int32, until deadline: UInt64) -> (MessageHead, [UInt8])? {
        var buffer: [UInt8] = []
        while buffer.count <= Self.headLimit {
            guard let more = readSome(fd, until: deadline) else { return nil }
            let scanFrom = max(0, buffer.count - 3)
            buffer += more
            var index = scanFrom
            while index + 3 < buffer.count {
                if buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10
                {
                    guard let head = MessageHead(buffer[..<index]) else { return nil }
                    return (head, Array(buffer[(index + 4)...]))
                }
                index += 1
            }
        }
        return nil
    }

    /// A non-blocking connection to 127.0.0.1:`upstreamPort`, or nil.
    private func connectUpstream() -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        Self.configure(fd)
        var address = Self.loopback(port: upstreamPort)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        var failure: Int32 = result == 0 ? 0 : errno
        if failure == EINPROGRESS, wait(fd, POLLOUT, until: deadline(Self.headSeconds)) == .ready {
            var length = socklen_t(MemoryLayout<Int32>.size)
            if getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &length) != 0 { failure = errno }
        }
        guard failure == 0 else {
            close(fd)
            return nil
        }
        return fd
    }

    /// A listening socket on 127.0.0.1 with a port the kernel chose.
    static func listenOnLoopback() throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestSupportError.io("FaultProxy: socket(): \(String(cString: strerror(errno)))") }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, 64) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard ok else {
            let message = String(cString: strerror(errno))
            close(fd)
            throw TestSupportError.io("FaultProxy: listen on 127.0.0.1: \(message)")
        }
        configure(fd)
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return address
    }

    /// Non-blocking (every wait is a poll() that stop wakes) and close-on-exec.
    private static func configure(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }
}

/// An HTTP/1.1 message head: the start line and the header fields in order.
private struct MessageHead {
    var startLine: String
    var fields: [(name: String, value: String)]

    /// Parses the bytes before the blank line; nil if a field line has no colon.
    init?(_ bytes: ArraySlice<UInt8>) {
        let lines = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n")
        guard let first = lines.first, !first.isEmpty else { return nil }
        startLine = first
        fields = []
        for line in lines.dropFirst() where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { return nil }
            fields.append(
                (
                    String(line[..<colon]).trimmingCharacters(in: .whitespaces),
                    String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
                ))
        }
    }

    /// The first value of a field (`name` in lower case).
    func value(_ name: String) -> String? { fields.first { $0.name.lowercased() == name }?.value }

    /// A response's status code.
    var status: Int? {
        let words = startLine.split(separator: " ")
        return words.count >= 2 ? Int(words[1]) : nil
    }

    var contentLength: Int? { value("content-length").flatMap { Int($0) } }

    mutating func remove(_ names: Set<String>) { fields.removeAll { names.contains($0.name.lowercased()) } }

    /// Drops the hop-by-hop fields (and those the Connection field names) and adds `Connection: close`.
    mutating func makeClosing() {
        var hopByHop: Set<String> = ["connection", "keep-alive", "proxy-connection", "te", "upgrade"]
        for field in fields where field.name.lowercased() == "connection" {
            for token in field.value.split(separator: ",") {
                hopByHop.insert(token.trimmingCharacters(in: .whitespaces).lowercased())
            }
        }
        hopByHop.remove("transfer-encoding")
        remove(hopByHop)
        fields.append(("Connection", "close"))
    }

    var bytes: [UInt8] {
        Array(([startLine] + fields.map { "\($0.name): \($0.value)" } + ["", ""]).joined(separator: "\r\n").utf8)
    }
}
