// A stream's reader thread and its queue, fed made-up packets (a 25 fps picture with a keyframe a second, and
// 20 ms sound frames, in milliseconds): a stream opened ahead keeps only its last moments from a keyframe,
// the queue stops reading when full and goes on when the play takes, and a cut play's wait ends.

import CFFmpeg
import Foundation
import Glibc
import Synchronization
import TestSupport
import Testing

@testable import Media

/// Packets for `seconds` of a stream: picture (stream 0) and sound (stream 1), in order of time.
private func packets(seconds: Double) throws -> [Packet] {
    /// A packet of `stream` at `at` ms lasting `length` ms.
    func packet(_ stream: Int32, at: Int, length: Int, key: Bool) throws -> (Int64, Packet) {
        let packet = try Packet()
        packet.pointer.pointee.stream_index = stream
        packet.pointer.pointee.pts = Int64(at)
        packet.pointer.pointee.dts = Int64(at)
        packet.pointer.pointee.duration = Int64(length)
        packet.pointer.pointee.flags = key ? AV_PKT_FLAG_KEY : 0
        return (Int64(at), packet)
    }
    var made: [(Int64, Packet)] = []
    for frame in 0..<Int(seconds * 25) { made.append(try packet(0, at: frame * 40, length: 40, key: frame % 25 == 0)) }
    for frame in 0..<Int(seconds * 50) { made.append(try packet(1, at: frame * 20, length: 20, key: true)) }
    return made.sorted { $0.0 < $1.0 }.map(\.1)
}

/// Hands the packets out one by one from the reader thread, then the end.
private final class Feed: @unchecked Sendable {
    private let lock = NSLock()
    /// Guarded by lock.
    private var left: [Packet]
    init(_ packets: [Packet]) { left = packets.reversed() }
    func next() -> Packet? { lock.withLock { left.popLast() } }
}

private func span(_ packet: Packet) -> (start: Double, end: Double)? {
    let start = Double(packet.pointer.pointee.pts) / 1000
    return (start, start + Double(packet.pointer.pointee.duration) / 1000)
}

@Suite struct StreamPumpTests {
    @Test func aStreamOpenedAheadKeepsItsLastMomentsFromAKeyframe() throws {
        let pump = StreamPump()
        let feed = Feed(try packets(seconds: 10))
        pump.start(
            read: { () throws(MediaError) -> Packet? in feed.next() }, takeRestarted: { false }, end: span,
            preroll: (1.5, 0))
        #expect(waitUntil(timeout: 30) { pump.received == 10 }, "read through")
        // 10 s received: the latest picture keyframe leaving 1.5 s is the one at 8 s.
        let first = try #require(try pump.next())
        #expect(first.packet.streamIndex == 0 && first.packet.pointer.pointee.pts == 8000)
        #expect(pump.takeTrimmedStart() == 8)
        #expect(pump.takeTrimmedStart() == nil, "told once")
        var taken = 1
        while let delivery = try pump.next() {
            #expect(delivery.packet.pointer.pointee.pts >= 8000)
            taken += 1
        }
        #expect(taken == 2 * 25 + 2 * 50, "the last 2 s whole")
        // Taken from 8 s to the last packet's start (9.98 s): that is what the play had.
        #expect(abs(pump.takenSeconds - 1.98) < 1e-9)
    }

    @Test func aFullQueueStopsReadingUntilThePlayTakes() throws {
        let pump = StreamPump()
        let feed = Feed(try packets(seconds: StreamPump.capacity + 10))
        pump.start(read: { () throws(MediaError) -> Packet? in feed.next() }, takeRestarted: { false }, end: span)
        #expect(waitUntil(timeout: 30) { (pump.received ?? 0) > StreamPump.capacity })
        // An observation window, not a synchronisation: the reader waits for room.
        #expect(!waitUntil(timeout: 0.5) { (pump.received ?? 0) > StreamPump.capacity + 0.1 })
        for _ in 0..<300 { _ = try pump.next() }
        #expect(waitUntil(timeout: 30) { (pump.received ?? 0) > StreamPump.capacity + 2 }, "reads on once taken")
        pump.stop()
    }

    @Test func aCutEndsTheWaitOfAPlayThatAdoptedAReaderOpenedAhead() throws {
        let pump = StreamPump()
        // A sender that went quiet: the read waits until it is told to stop, as a stream's interrupt does.
        pump.start(
            read: { () throws(MediaError) -> Packet? in
                while !pump.isStopping { usleep(10_000) }  // a sender that went quiet: poll as an interrupt does
                throw MediaError(operation: "read", message: "interrupted")
            }, takeRestarted: { false }, end: span)
        let cut = Atomic<Bool>(false)
        pump.adopt { cut.load(ordering: .relaxed) }
        cut.store(true, ordering: .relaxed)
        #expect(throws: MediaError.self) { _ = try pump.next() }
        pump.stop()
    }
}
