// FaultProxy (TestSupport) in front of Debian's nginx: bytes pass through unchanged and are logged, Range
// survives or is stripped on demand, and each fault (cut, injected status, stall, throttle, stop during a
// stall) does exactly what it says. The client is a plain blocking HTTP/1.1 GET on its own thread that
// reads to EOF, so nothing but the proxy is under test. Everything stays on 127.0.0.1.

import Foundation
import Glibc
import TestSupport
import Testing

@Suite(.serialized) struct FaultProxyTests {
    static let size = 1_000_000
    let site: TemporaryDirectory
    let nginx: NginxServer
    let proxy: FaultProxy
    let file: [UInt8]

    init() throws {
        site = try TemporaryDirectory(prefix: "queued-proxy-site")
        var generator = SeededGenerator(seed: 0x5EED_F00D)
        var bytes = [UInt8](repeating: 0, count: Self.size)
        bytes.withUnsafeMutableBytes { raw in
            for offset in stride(from: 0, to: Self.size, by: 8) {
                raw.storeBytes(of: generator.next(), toByteOffset: offset, as: UInt64.self)
            }
        }
        file = bytes
        try Data(file).write(to: URL(fileURLWithPath: site.file("blob.bin")))
        nginx = try NginxServer(root: site.path)
        proxy = try FaultProxy(upstream: nginx)
    }

    @Test func passThroughIsByteExactAndLogged() async throws {
        let whole = try await get(proxy.port, "/blob.bin")
        #expect(whole.status == 200)
        #expect(whole.body == file)
        #expect(whole.headers["content-length"] == "\(Self.size)")
        #expect(whole.headers["connection"] == "close")
        let part = try await get(proxy.port, "/blob.bin", ["Range: bytes=0-99"])
        #expect(part.status == 206)
        #expect(part.body == Array(file[0..<100]))

        let log = proxy.exchanges()
        #expect(log.map(\.path) == ["/blob.bin", "/blob.bin"])
        #expect(log.map(\.status) == [200, 206])
        #expect(log.map(\.bodyBytes) == [Self.size, 100])
        #expect(log.map(\.range) == ["", "bytes=0-99"])
        #expect(log.allSatisfy { $0.upstream && $0.finished && !$0.cut && !$0.stalled })
        #expect(proxy.totalBodyBytes == Self.size + 100)
        #expect(await waitUntil(timeout: 5) { () async in nginx.responses().map(\.bodyBytes) == [Self.size, 100] })
    }

    @Test func rangeRequestGetsThePartialSlice() async throws {
        let etag = try #require(try await get(proxy.port, "/blob.bin", method: "HEAD").headers["etag"])
        let part = try await get(proxy.port, "/blob.bin", ["Range: bytes=300000-399999", "If-Range: \(etag)"])
        #expect(part.status == 206)
        #expect(part.headers["content-range"] == "bytes 300000-399999/\(Self.size)")
        #expect(part.body == Array(file[300_000..<400_000]))
        let tail = try await get(proxy.port, "/blob.bin", ["Range: bytes=999000-"])
        #expect(tail.status == 206)
        #expect(tail.body == Array(file[999_000...]))

        let log = proxy.exchanges()
        #expect(log.map(\.method) == ["HEAD", "GET", "GET"])
        #expect(log.map(\.bodyBytes) == [0, 100_000, 1000])
        #expect(log[1].ifRange == etag)
        #expect(log[1].range == "bytes=300000-399999")
    }

    @Test func ignoreRangeGetsTheWholeFile() async throws {
        proxy.faults.ignoreRange = true
        let response = try await get(proxy.port, "/blob.bin", ["Range: bytes=500000-", "If-Range: \"x\""])
        #expect(response.status == 200)
        #expect(response.body == file)
        // The log keeps what the client asked for; nginx saw no Range at all.
        #expect(proxy.exchanges().map(\.range) == ["bytes=500000-"])
        #expect(proxy.exchanges().map(\.status) == [200])
        #expect(await waitUntil(timeout: 5) { () async in !nginx.responses().isEmpty })
        // (nginx logs an absent Range header as "-".)
        #expect(nginx.responses().map(\.status) == [200])
        #expect(nginx.responses().map(\.bodyBytes) == [Self.size])
        #expect(nginx.responses().allSatisfy { !$0.range.contains("bytes") })
    }

    @Test func cutDeliversExactlyThatManyBytesThenEOFOnce() async throws {
        proxy.cut(afterBytes: 300_000)
        let cut = try await get(proxy.port, "/blob.bin")
        #expect(cut.status == 200)
        #expect(cut.headers["content-length"] == "\(Self.size)")
        #expect(cut.body == Array(file[0..<300_000]))
        // Used up: the next response is whole.
        #expect(proxy.faults.cut == nil)
        let next = try await get(proxy.port, "/blob.bin")
        #expect(next.body == file)

        let log = proxy.exchanges()
        #expect(log.map(\.cut) == [true, false])
        #expect(log.map(\.bodyBytes) == [300_000, Self.size])
        #expect(proxy.totalBodyBytes == 300_000 + Self.size)
    }

    @Test func injectedStatusNeverReachesUpstream() async throws {
        proxy.faults.status = 500
        let failed = try await get(proxy.port, "/blob.bin", ["Range: bytes=0-"])
        #expect(failed.status == 500)
        #expect(!failed.body.isEmpty)
        #expect(failed.headers["content-length"] == "\(failed.body.count)")
        proxy.faults.status = 404
        #expect(try await get(proxy.port, "/blob.bin").status == 404)
        proxy.clearFaults()
        #expect(try await get(proxy.port, "/blob.bin").status == 200)

        #expect(proxy.exchanges().map(\.status) == [500, 404, 200])
        #expect(proxy.exchanges().map(\.upstream) == [false, false, true])
        // nginx logs a response when it ends: once the forwarded one is there, it is the only one.
        #expect(await waitUntil(timeout: 5) { () async in !nginx.responses().isEmpty })
        #expect(nginx.responses().map(\.status) == [200])
    }

    @Test func stallHoldsTheRestBackAndLosesNothing() async throws {
        proxy.stall(afterBytes: 200_000, seconds: 1.5)
        let response = try await get(proxy.port, "/blob.bin")
        #expect(response.status == 200)
        #expect(response.body == file)
        #expect(response.seconds >= 1.4)
        // The one long gap comes right after byte 200000.
        let gaps = zip(response.arrivals, response.arrivals.dropFirst()).map { ($0.bytes, $1.at - $0.at) }
        let longest = try #require(gaps.max { $0.1 < $1.1 })
        #expect(longest.0 == 200_000)
        #expect(longest.1 >= 1.4)
        #expect(proxy.exchanges().map(\.stalled) == [true])
        #expect(proxy.faults.stall == nil)
    }

    @Test func throttlePacesTheBody() async throws {
        proxy.faults.throttle = 500_000
        let response = try await get(proxy.port, "/blob.bin")
        #expect(response.body == file)
        // 1 MB at 500 kB/s: 2 s.
        #expect(response.seconds >= 1.5)
        #expect(response.seconds < 10)
    }

    @Test func stopWakesAStallAndClosesEverything() async throws {
        proxy.stall(afterBytes: 100_000, seconds: 60)
        let port = proxy.port
        let pending = Task { try await get(port, "/blob.bin") }
        #expect(await waitUntil(timeout: 5) { () async in proxy.exchanges().first?.bodyBytes == 100_000 })
        let started = MonotonicClock.seconds()
        proxy.stop()
        #expect(MonotonicClock.seconds() - started < 1)
        let response = try await pending.value
        #expect(response.body == Array(file[0..<100_000]))
        #expect(proxy.exchanges().map(\.finished) == [true])
        proxy.stop()
        #expect(throws: (any Error).self) { try RawHTTP.get(port: port, path: "/blob.bin", headers: [], method: "GET") }
    }

    @Test func onRequestCanReplaceTheFileBeforeForwarding() async throws {
        let replacement = Array(file.reversed())
        let path = site.file("blob.bin")
        proxy.onRequest = { exchange in
            if exchange.range == "bytes=0-" { try? Data(replacement).write(to: URL(fileURLWithPath: path)) }
        }
        #expect(try await get(proxy.port, "/blob.bin").body == file)
        #expect(try await get(proxy.port, "/blob.bin", ["Range: bytes=0-"]).body == replacement)
    }
}

/// Runs the blocking GET on its own thread, off Swift's cooperative pool.
private func get(
    _ port: Int, _ path: String, _ headers: [String] = [], method: String = "GET"
) async throws
    -> RawHTTP.Response
{
    try await withCheckedThrowingContinuation { continuation in
        Thread {
            continuation.resume(
                with: Result { try RawHTTP.get(port: port, path: path, headers: headers, method: method) })
        }.start()
    }
}

/// One request on a fresh connection that says keep-alive, read to EOF: the proxy must close it.
private enum RawHTTP {
    struct Arrival: Sendable {
        /// Body bytes received so far.
        var bytes: Int
        /// Monotonic seconds.
        var at: Double
    }

    struct Response: Sendable {
        var status: Int
        /// Lower-case names.
        var headers: [String: String]
        var body: [UInt8]
        var arrivals: [Arrival]
        /// From sending the request to EOF.
        var seconds: Double
    }

    static func get(
        port: Int, path: String, headers: [String], method: String, timeout: Double = 20
    ) throws
        -> Response
    {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestSupportError.io("socket(): \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else { throw TestSupportError.io("connect 127.0.0.1:\(port): \(errno)") }

        let lines = ["\(method) \(path) HTTP/1.1", "Host: 127.0.0.1:\(port)", "Connection: keep-alive"] + headers
        let request = Array((lines + ["", ""]).joined(separator: "\r\n").utf8)
        let started = MonotonicClock.seconds()
        guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count
        else { throw TestSupportError.io("send: \(errno)") }

        var received: [UInt8] = []
        var headLength: Int?
        var arrivals: [Arrival] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let remaining = started + timeout - MonotonicClock.seconds()
            guard remaining > 0, poll(&ready, 1, Int32(min(remaining, 1) * 1000)) >= 0 else {
                throw TestSupportError.timeout("GET \(path) via 127.0.0.1:\(port): no EOF")
            }
            if ready.revents == 0 { continue }
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }  // EOF (or reset): the proxy closed the connection.
            received += buffer[..<count]
            if headLength == nil, let end = headEnd(received) { headLength = end }
            if let headLength {
                arrivals.append(Arrival(bytes: received.count - headLength, at: MonotonicClock.seconds()))
            }
        }
        let seconds = MonotonicClock.seconds() - started
        guard let headLength else { throw TestSupportError.io("GET \(path): no response head") }
        let headLines = String(decoding: received[..<(headLength - 4)], as: UTF8.self).components(separatedBy: "\r\n")
        let statusWords = headLines[0].split(separator: " ")
        guard statusWords.count >= 2, let status = Int(statusWords[1]) else {
            throw TestSupportError.io("bad status line: \(headLines[0])")
        }
        var fields: [String: String] = [:]
        for line in headLines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Response(
            status: status, headers: fields, body: Array(received[headLength...]), arrivals: arrivals, seconds: seconds)
    }

    /// The offset just past the first CRLFCRLF.
    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index + 4
        }
        return nil
    }
}
