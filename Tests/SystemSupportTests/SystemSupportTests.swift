// What replaced Foundation proper in the daemon (so its static binary carries no ICU data): the helpers give
// what Foundation's gave for the inputs the daemon has — checked against Foundation itself where it is
// the reference — and the lock, condition and thread do their job across real threads.

import Foundation
import SystemSupport
import Testing

@Suite struct SystemSupportTests {
    @Test func trimmingAgreesWithFoundation() {
        for text in ["", " ", "\t a b \t", "a", "  title, with spaces  ", "\n x \r\n", " é ", "\t\t"] {
            #expect(text.trimmingSpaces() == text.trimmingCharacters(in: .whitespaces), "\(text.debugDescription)")
            #expect(
                text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespacesAndNewlines),
                "\(text.debugDescription)")
        }
        #expect("a = b"[...].trimmingSpaces() == "a = b")
    }

    @Test func pathComponentsAgreeWithNSString() {
        for path in ["/a/b.mp4", "b.mp4", "/b", "/", "/a/b/", "a/b", "/srv/media/clip one.mkv", ""] {
            #expect(PathText.lastComponent(path) == (path as NSString).lastPathComponent, "\(path)")
            #expect(PathText.deletingLastComponent(path) == (path as NSString).deletingLastPathComponent, "\(path)")
        }
    }

    @Test func percentDecodingAgreesWithFoundation() {
        for text in ["/a/b%20c.mp4", "plain", "%E2%82%AC", "%zz", "%4", "%", "%C3%28", "100%25"] {
            #expect(PathText.percentDecoded(text) == text.removingPercentEncoding, "\(text)")
        }
    }

    @Test func fixedDecimalsAndHexAgreeWithPrintf() {
        for value in [0.0, 1.25, 2.5, -0.04, -3.96, 12345.678, 0.05, 99.95, 7] {
            for places in 0...2 {
                // printf rounds the binary value half to even; only the halves differ, and none is above
                // except 2.5 at 0 places, where both are within one unit of the last digit.
                let ours = value.fixed(places)
                let theirs = String(format: "%.\(places)f", value)
                #expect(abs(Double(ours)! - Double(theirs)!) <= pow(10, -Double(places)) + 1e-12, "\(value) \(places)")
            }
        }
        #expect(1.25.fixed(1) == "1.3" || 1.25.fixed(1) == "1.2")
        #expect((-0.04).fixed(1) == "0.0")
        #expect(12.0.fixed(1) == "12.0")
        #expect([0x00, 0x0f, 0xa5, 0xff].hexDigits == "000fa5ff")
    }

    @Test func aTimedWaitTimesOutAndASignalWakesIt() {
        let condition = ThreadCondition()
        condition.lock()
        let before = Monotonic()
        #expect(condition.wait(seconds: 0.05) == false)
        #expect(before.elapsed >= 0.05)
        condition.unlock()

        // A thread started by name sets the flag and signals; the waiter sees it before its long timeout.
        let flag = Flag()
        Threads.start(named: "test.signal") {
            condition.withLock {
                flag.value = true
                condition.signal()
            }
        }
        let waited = Monotonic()
        condition.withLock {
            while !flag.value { _ = condition.wait(seconds: 10) }
        }
        #expect(flag.value)
        #expect(waited.elapsed < 10)
    }

    @Test func aLockKeepsCountsWhole() {
        let lock = ThreadLock()
        let counter = Flag()
        let done = ThreadCondition()
        let finished = Flag()
        for index in 0..<4 {
            Threads.start(named: "test.count\(index)") {
                for _ in 0..<10_000 { lock.withLock { counter.count += 1 } }
                done.withLock {
                    finished.count += 1
                    done.broadcast()
                }
            }
        }
        done.withLock {
            while finished.count < 4 { _ = done.wait(seconds: 30) }
        }
        #expect(lock.withLock { counter.count } == 40_000)
    }

    @Test func aThreadIsNamedForTheTools() throws {
        let condition = ThreadCondition()
        let name = Flag()
        Threads.start(named: "queued.test-thread-name") {
            let comm = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
            condition.withLock {
                name.text = comm.trimmingWhitespace()
                condition.signal()
            }
        }
        condition.withLock {
            while name.text == nil { _ = condition.wait(seconds: 10) }
        }
        #expect(name.text == "queued.test-thr")  // Linux keeps 15 bytes
    }
}

/// Shared between test threads; guarded by the test's own lock or condition.
private final class Flag: @unchecked Sendable {
    var value = false
    var count = 0
    var text: String?
}

private struct Monotonic {
    let start = DispatchTime.now()
    var elapsed: Double { Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9 }
}
