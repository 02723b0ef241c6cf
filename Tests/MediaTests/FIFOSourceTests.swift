// FIFOs as item sources: a writer that never comes, a writer that stops, a writer that finishes, and a
// wait cut short by cancellation. Every wait is bounded; nothing here may hang the reading thread.

import Foundation
import Glibc
import Media
import TestSupport
import Testing

@Suite(.serialized) struct FIFOSourceTests {
    final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false
        func set() { lock.withLock { value = true } }
        var isSet: Bool { lock.withLock { value } }
    }

    func makeFIFO(_ directory: TemporaryDirectory) throws -> String {
        let path = directory.path + "/feed"
        guard mkfifo(path, 0o600) == 0 else { throw TestSupportError.io("mkfifo: errno \(errno)") }
        return path
    }

    func limits(_ seconds: Double, cancelled: Flag? = nil) -> SourceLimits {
        var limits = SourceLimits()
        limits.openTimeout = seconds
        limits.readTimeout = seconds
        if let cancelled { limits.isCancelled = { cancelled.isSet } }
        return limits
    }

    /// Opens the FIFO's write end on another thread (open blocks until a reader exists) and hands it over.
    func writer(_ path: String) -> (fd: () -> Int32, done: DispatchSemaphore) {
        let done = DispatchSemaphore(value: 0)
        let box = Box()
        Thread.detachNewThread {
            box.fd = open(path, O_WRONLY | O_CLOEXEC)
            done.signal()
        }
        return ({ box.fd }, done)
    }

    final class Box: @unchecked Sendable { var fd: Int32 = -1 }

    func read(_ source: FileByteSource) -> Result<[UInt8], MediaError> {
        var buffer = [UInt8](repeating: 0, count: 4096)
        do {
            let count = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
            return .success(Array(buffer.prefix(count)))
        } catch let error as MediaError {
            return .failure(error)
        } catch {
            return .failure(MediaError(operation: "read", message: "\(error)"))
        }
    }

    @Test func aFIFONobodyWritesIntoFailsAfterTheOpenTimeout() throws {
        let directory = try TemporaryDirectory(prefix: "queued-fifo")
        let source = try FileByteSource(path: try makeFIFO(directory), limits: limits(0.4))
        #expect(!source.isSeekable && source.size == nil)
        let start = MonotonicClock.seconds()
        guard case .failure(let error) = read(source) else {
            Issue.record("read returned without a writer")
            return
        }
        let waited = MonotonicClock.seconds() - start
        #expect(error.message.hasPrefix("stalled: nothing written"), "\(error)")
        #expect(waited >= 0.35 && waited < 3, "waited \(waited) s")
    }

    @Test func aWriterThatStopsFailsTheReadAndOneThatClosesEndsIt() throws {
        let directory = try TemporaryDirectory(prefix: "queued-fifo")
        let path = try makeFIFO(directory)
        let source = try FileByteSource(path: path, limits: limits(0.4))
        let (fd, opened) = writer(path)
        #expect(opened.wait(timeout: .now() + 10) == .success)
        let bytes: [UInt8] = Array("RIFF....".utf8)
        #expect(write(fd(), bytes, bytes.count) == bytes.count)
        #expect(try read(source).get() == bytes)
        // The writer keeps its end open but writes nothing more: stalled.
        guard case .failure(let error) = read(source) else {
            Issue.record("read returned while the writer was silent")
            return
        }
        #expect(error.message == "stalled: no data for 0.4 s", "\(error)")
        // Closing the write end is the end of the data.
        close(fd())
        #expect(try read(source).get() == [])
        #expect(throws: MediaError.self) { try source.seek(to: 0) }
    }

    @Test func aCancelledWaitEndsAtOnce() throws {
        let directory = try TemporaryDirectory(prefix: "queued-fifo")
        let cancelled = Flag()
        let source = try FileByteSource(path: try makeFIFO(directory), limits: limits(30, cancelled: cancelled))
        let start = MonotonicClock.seconds()
        DispatchQueue.global().async { cancelled.set() }
        guard case .failure(let error) = read(source) else {
            Issue.record("read returned without a writer")
            return
        }
        #expect(error.message == "interrupted")
        #expect(MonotonicClock.seconds() - start < 5, "a cancelled wait must not wait out a 30 s timeout")
    }

    @Test func otherKindsOfFileAreRefused() {
        #expect(throws: MediaError.self) { try FileByteSource(path: "/dev/null") }
        #expect(throws: MediaError.self) { try FileByteSource(path: "/tmp") }
    }
}
