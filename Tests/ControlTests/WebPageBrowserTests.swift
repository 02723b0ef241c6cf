// The page in a real browser: Tests/browser/page_test.py drives Debian's headless Chromium with Selenium
// against a real daemon (SDL offscreen, this private PulseAudio server's null sink) and nginx on loopback,
// both made here; it signs in, compares the queue with queue.list, drags, adds a URL and uploads a 20 MB file
// that then play, adds a live UDP stream that plays, drops (the page says so) and comes back, sees a
// queuectl change, compares the preview with player.screenshot, survives a daemon kill and restart, and
// checks a 360-px phone layout and a title made of markup. Its screenshots are kept in the test's directory
// (the README's picture is one).

import Foundation
import TestSupport
import Testing

@Suite(.serialized) struct WebPageBrowserTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("browser/page_test.py").path

    static func clip(_ colour: String, seconds: Int = 3) throws -> String {
        try Fixtures.make(
            "web-\(colour)-\(seconds).mp4",
            [
                "-f", "lavfi", "-i", "color=c=\(colour):s=320x240:r=25:d=\(seconds)", "-f", "lavfi", "-i",
                "sine=f=440:d=\(seconds)", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac",
                "-shortest", "-movflags", "+faststart",
            ])
    }

    @Test func thePageRunsTheScreenInARealBrowser() throws {
        let work = try TemporaryDirectory(prefix: "queued-web-browser")
        let site = try TemporaryDirectory(prefix: "queued-web-site")
        let clips = try ["red", "green", "blue"].map { try Self.clip($0) }
        for (colour, path) in zip(["red", "green", "blue"], clips) {
            try FileManager.default.copyItem(atPath: path, toPath: site.path + "/\(colour).mp4")
        }
        // ~20 MB: 8 s of noise at 20 Mbit/s (cheap to decode, big to send).
        let big = try Fixtures.make(
            "web-upload-20mb.mp4",
            [
                "-f", "lavfi", "-i", "testsrc2=s=320x240:r=25:d=8,noise=alls=100:allf=t", "-f", "lavfi", "-i",
                "sine=f=330:d=8", "-c:v", "libx264", "-preset", "ultrafast", "-b:v", "20M", "-minrate", "20M", "-maxrate",
                "20M", "-bufsize", "4M", "-c:a", "aac", "-shortest",
            ])
        // A web page for the Add form's "A web page": magenta, titled.
        try "<html><head><title>Magenta board</title><style>html,body{margin:0;height:100%;background:#ff00ff}</style></head><body></body></html>"
            .write(toFile: site.path + "/board.html", atomically: true, encoding: .utf8)
        chmod(site.path, 0o755)
        let nginx = try NginxServer(root: site.path)
        defer { nginx.stop() }
        let pulse = try PrivatePulseServer()
        let screenshots = work.path + "/screenshots"
        try FileManager.default.createDirectory(atPath: screenshots, withIntermediateDirectories: true)
        let run = try ChildProcess.run(
            "/usr/bin/env",
            ["python3", Self.script],
            environment: ProcessInfo.processInfo.environment.merging([
                "QUEUED": BuiltProduct.path("queued"), "QUEUED_WEB": BuiltProduct.path("queued-web"),
                "QUEUECTL": BuiltProduct.path("queuectl"), "PULSE_SERVER_ADDRESS": pulse.server,
                "SITE_URL": nginx.baseURL, "CLIPS": clips.joined(separator: ","), "BIG_CLIP": big, "WORK": work.path,
                "SCREENSHOTS": screenshots,
            ]) { $1 },
            timeout: 400)
        print(run.stdout)
        if run.status != 0 { print(run.stderr.suffix(6000)) }
        #expect(run.status == 0, "browser checks failed:\n\(run.stdout.split(separator: "\n").filter { $0.hasPrefix("FAIL") }.joined(separator: "\n"))")
        #expect(run.stdout.contains("all browser checks passed"))
        #expect(FileManager.default.fileExists(atPath: screenshots + "/page-desktop.png"))
        // Kept for the README (contrib/web/page.png is one of these, copied by hand when the page changes).
        if let keep = ProcessInfo.processInfo.environment["QUEUED_WEB_SCREENSHOTS"] {
            for name in ["page-desktop.png", "page-phone.png", "page-zones.png"] {
                try? FileManager.default.removeItem(atPath: keep + "/" + name)
                try? FileManager.default.copyItem(atPath: screenshots + "/" + name, toPath: keep + "/" + name)
            }
        }
    }
}
