// Resource use over a long run, measured on a separate queued process (this test process runs other
// tests in parallel, so its own RSS would say nothing): 2000 loops of a 1 s A/V clip, untimed.

import Foundation
import TestSupport
import Testing

@Suite struct SoakTests {
    @Test func twoThousandLoopsLeakNothing() throws {
        let clip = try Fixtures.video(seconds: 1, fps: 25, hue: .green, withAudio: .aacMP4)
        let directory = try TemporaryDirectory()
        let log = directory.path + "/queued.log"
        let daemon = try ChildProcess(
            BuiltProduct.path("queued"),
            [
                "--no-socket", "--no-state", "--untimed", "--video", "null", "--shortest-track", "--item-loops", "2000",
                "--exit-when-done",
                "--log-level", "info", clip,
            ],
            stdoutPath: directory.path + "/stdout", stderrPath: log)
        defer { _ = daemon.terminate() }
        func logContains(_ text: String) -> Bool {
            ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains(text)
        }
        // RSS moves with the pictures in flight at the sampled instant: compare medians of 40 samples
        // taken early and late; a leak of even 1 KiB per loop would add 1.4 MiB between them. The first
        // 300 plays are warm-up: the allocator arenas of FFmpeg's decode threads fill up to their plateau.
        func samples(_ plays: StrideTo<Int>) throws -> [ProcessStats] {
            try plays.map { play in
                #expect(try waitUntil(timeout: 600) { logContains("started item 1 play \(play)\n") })
                return ProcessStats(pid: daemon.pid, ignoring: clip)
            }
        }
        let earlySamples = try samples(stride(from: 300, to: 420, by: 3))
        let lateSamples = try samples(stride(from: 1780, to: 1900, by: 3))
        func median(_ values: [Int]) -> Int { values.sorted()[values.count / 2] }
        let early = ProcessStats(
            residentBytes: median(earlySamples.map(\.residentBytes)),
            descriptors: earlySamples.map(\.descriptors).max() ?? -1)
        let late = ProcessStats(
            residentBytes: median(lateSamples.map(\.residentBytes)),
            descriptors: lateSamples.map(\.descriptors).max() ?? -1)
        let growth = late.residentBytes - early.residentBytes
        print(
            "soak 2000 loops: median RSS \(early.residentBytes / 1024) KiB at plays 300-417 -> \(late.residentBytes / 1024) KiB at plays 1780-1897 (\(growth / 1024) KiB), fds \(early.descriptors) -> \(late.descriptors)"
        )
        #expect(early.residentBytes > 0)
        #expect(growth < 2 * 1024 * 1024)
        #expect(late.descriptors == early.descriptors)
        #expect(daemon.wait() == 0)
    }
}

extension SoakTests {
    /// Overlays over a long run: two clips alternating untimed on SDL offscreen (600 passes, 45,000
    /// pictures), each with a layer of its
    /// own (a text whose placeholders change every second of the clip, an image), under a clock and a
    /// ticker — textures made and dropped at every play. RSS and descriptors must not grow.
    @Test func overlaysOverSixHundredPassesLeakNothing() throws {
        let a = try Fixtures.video(seconds: 2, fps: 25, hue: .red)
        let b = try Fixtures.video(seconds: 1, fps: 25, hue: .blue)
        let logo = try Fixtures.make(
            "overlay-logo-24x24.png",
            ["-f", "lavfi", "-i", "color=c=white@0.7:s=24x24:d=1,format=rgba", "-frames:v", "1", "-update", "1"])
        let directory = try TemporaryDirectory()
        let log = directory.path + "/queued.log"
        let socket = directory.path + "/queued.sock"
        let daemon = try ChildProcess(
            BuiltProduct.path("queued"),
            [
                "--socket", socket, "--no-state", "--untimed", "--audio", "null", "--video", "sdl", "--video-driver",
                "offscreen", "--geometry", "320x240", "--loops", "0", "--log-level", "info", a, b,
            ],
            stdoutPath: directory.path + "/stdout", stderrPath: log)
        defer { _ = daemon.terminate() }
        func queuectl(_ arguments: [String]) throws -> Int32 {
            try ChildProcess.run(BuiltProduct.path("queuectl"), ["--socket", socket] + arguments, timeout: 30).status
        }
        #expect(try waitUntil(timeout: 30, pollInterval: 0.05) { (try? queuectl(["status"])) == 0 })
        for overlay in [
            ["--clock", "--format", "%H:%M:%S", "--anchor", "top-right", "--size", "14"],
            ["--ticker", "A ticker over every play", "--anchor", "bottom", "--size", "14", "--background", "#00000080"],
            ["--text", "{title} {position}/{duration}", "--item", "1", "--size", "14", "--background", "#00000080"],
            ["--image", logo, "--item", "2", "--anchor", "center"],
        ] {
            #expect(try queuectl(["overlay", "add"] + overlay) == 0)
        }
        func logContains(_ text: String) -> Bool {
            ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains(text)
        }
        // Each pass is play 1 of each item again: count the passes in the log.
        func passes() -> Int {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            return text.components(separatedBy: "started item 1 play 1\n").count - 1
        }
        func samples(_ plays: StrideTo<Int>) throws -> [ProcessStats] {
            try plays.map { play in
                #expect(try waitUntil(timeout: 600, pollInterval: 0.01) { passes() >= play })
                return ProcessStats(pid: daemon.pid, ignoring: a)
            }
        }
        let earlySamples = try samples(stride(from: 100, to: 130, by: 1))
        let lateSamples = try samples(stride(from: 570, to: 600, by: 1))
        func median(_ values: [Int]) -> Int { values.sorted()[values.count / 2] }
        let early = median(earlySamples.map(\.residentBytes))
        let late = median(lateSamples.map(\.residentBytes))
        let descriptors = (earlySamples.map(\.descriptors).max() ?? -1, lateSamples.map(\.descriptors).max() ?? -1)
        print(
            "overlay soak: median RSS \(early / 1024) KiB at passes 100-129 -> \(late / 1024) KiB at passes 570-599 (\((late - early) / 1024) KiB), fds \(descriptors.0) -> \(descriptors.1)"
        )
        #expect(early > 0)
        #expect(late - early < 2 * 1024 * 1024)
        #expect(descriptors.1 <= descriptors.0)
        #expect(!logContains("overlay text cannot be drawn") && !logContains("overlay image cannot be shown"))
    }
}

struct ProcessStats {
    let residentBytes: Int
    let descriptors: Int

    init(residentBytes: Int, descriptors: Int) {
        self.residentBytes = residentBytes
        self.descriptors = descriptors
    }

    /// `ignoring`: a media file the daemon has open once or twice (the playing and the prepared item),
    /// depending on the instant; descriptors on it are not counted.
    init(pid: Int32, ignoring mediaPath: String) {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
        let kib = line.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        residentBytes = kib * 1024
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
        // An entry can vanish between the listing and the readlink (the media file closing): not counted.
        descriptors =
            entries.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)") }
            .filter { $0 != mediaPath }.count
    }
}
