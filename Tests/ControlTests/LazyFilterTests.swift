// libavfilter is loaded only when a rate other than 1 needs it (FilterLibrary): a daemon playing at rate 1
// has none of it (nor the ~30 libraries it brings) mapped; asked for rate 1.5 it loads it and plays on.

import Foundation
import JSONText
import QueueClient
import TestSupport
import Testing

@Suite struct LazyFilterTests {
    @Test func libavfilterIsLoadedOnlyForARateOtherThanOne() throws {
        let tone = try Fixtures.tone(frequency: 440, seconds: 2)
        let daemon = try RunningDaemon(outputs: .null(untimed: false), [])
        defer { daemon.stop() }
        let control = try daemon.client()
        let watcher = try daemon.client()
        _ = try watcher.call("events.subscribe", ["events": ["itemStarted", "itemEnded"]])
        _ = try control.call("queue.add", ["items": [["uri": .string(tone), "loops": 0]]])
        _ = try control.call("player.play")
        _ = try collectNotifications(watcher, timeout: 20) { $0.contains { $0.method == "event.itemStarted" } }
        let pid = daemon.process.pid
        // Read to the end (a /proc file has no size to read up to).
        func mapped() -> String {
            let file = FileHandle(forReadingAtPath: "/proc/\(pid)/maps")
            defer { try? file?.close() }
            return String(decoding: file?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
        }
        func filterLibraryMapped() -> Bool { mapped().contains("libavfilter.so") }
        #expect(mapped().contains("libavcodec.so"), "the maps are read")
        #expect(!filterLibraryMapped(), "playing at rate 1 must not load libavfilter")
        #expect(!mapped().contains("libflite"), "nor what it brings")

        #expect(try control.call("player.set", ["rate": 1.5])["rate"]?.doubleValue == 1.5)
        let loaded = try waitUntil(timeout: 10) { filterLibraryMapped() }
        #expect(loaded, "the first play at rate 1.5 loads it")
        // It plays on at the new rate: a 2 s loop ends (about 1.3 s later) and the next begins.
        let next = try collectNotifications(watcher, timeout: 10) { $0.contains { $0.method == "event.itemStarted" } }
        #expect(next.contains { $0.method == "event.itemEnded" })
        #expect(!daemon.log().contains("cannot load libavfilter"), "\(daemon.log())")
        #expect(try control.call("player.status")["state"]?.stringValue == "playing")
    }
}
