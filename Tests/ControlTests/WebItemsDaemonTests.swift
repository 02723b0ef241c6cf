// Web items through the real daemon (SDL offscreen, a private PulseAudio) and its real renderer
// (queued-webview, WPE WebKit), with pages served by Debian's nginx on a loopback port: a page is drawn in
// its colours and moves, and the status and events name it; every way a page can fail (an HTTP error, a
// server that never answers, a load slower than its timeout, a script that never yields, a page eating
// memory, a killed web process) ends its item with its reason in bounded time and the queue plays on, while
// a page's dialogs block nothing; a page kept with `reload: keep` stays on screen with its server gone.

import Foundation
import Glibc
import QueueClient
import QueueRPC
import TestSupport
import Testing

/// The test pages, served by nginx.
private struct WebSite {
    let folder: TemporaryDirectory
    let nginx: NginxServer

    static let pages: [String: String] = [
        // Blue, a yellow panel on the left, a white box moving across the top band, a clock in it.
        "colours.html": """
            <html><head><title>Colours</title><style>
            html,body{margin:0;height:100%;background:#0000ff;overflow:hidden}
            #panel{position:absolute;left:0;top:35%;width:40%;height:40%;background:#ffff00}
            #box{position:absolute;top:0;width:20%;height:25%;background:#ffffff;animation:move 1s linear infinite alternate}
            @keyframes move{from{left:0}to{left:80%}}
            #clock{position:absolute;right:0;top:0;color:#ffffff;font-size:20px}
            </style></head><body><div id=panel></div><div id=box></div><div id=clock>0</div>
            <script>setInterval(function(){document.getElementById('clock').textContent=Date.now()%100000},100)</script>
            </body></html>
            """,
        "green.html": page("Green", "#00ff00"),
        "red.html": page("Red", "#ff0000"),
        "alert.html": page("Alert", "#00ff00", script: "alert('hello'); confirm('sure?'); prompt('name?');"),
        "spin.html": page("Spin", "#00ff00", script: "setTimeout(function(){ while (true) {} }, 300);"),
        "hog.html": page(
            "Hog", "#00ff00",
            script: "var kept=[]; setInterval(function(){ for (var i=0;i<20;i++) kept.push(new Array(1000000).fill(i+kept.length)); }, 20);"),
        // 400 kB: through /slow/ at 40 kB/s it takes 10 s to arrive.
        "slow.html": page("Slow", "#00ff00", padding: 400_000),
    ]

    static func page(_ title: String, _ colour: String, script: String = "", padding: Int = 0) -> String {
        "<html><head><title>\(title)</title><style>html,body{margin:0;height:100%;background:\(colour)}</style></head><body>"
            + (script.isEmpty ? "" : "<script>\(script)</script>")
            + (padding > 0 ? "<!--" + String(repeating: "x", count: padding) + "-->" : "") + "</body></html>"
    }

    init() throws {
        folder = try TemporaryDirectory(prefix: "queued-web-site")
        for (name, text) in Self.pages { try text.write(toFile: folder.file(name), atomically: true, encoding: .utf8) }
        chmod(folder.path, 0o755)
        nginx = try NginxServer(root: folder.path, slowRate: 40_000)
    }

    func url(_ name: String) -> String { nginx.baseURL + "/" + name }
}

/// A loopback port that takes connections into its backlog and never answers them.
private final class SilentServer {
    let port: Int
    private let descriptor: Int32

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.descriptor = descriptor
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(descriptor, 16) == 0 else { throw TestSupportError.io("silent server: \(errno)") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(descriptor) }
}

private typealias Notes = [(method: String, params: JSONValue?)]

private func events(_ notes: Notes, _ method: String, _ id: Int64) -> [JSONValue] {
    notes.filter { $0.method == "event.\(method)" && $0.params?["id"]?.intValue == id }.compactMap(\.params)
}

@Suite(.serialized) struct WebItemsDaemonTests {
    static func web(_ uri: String, duration: Double, loadTimeout: Double? = nil, reload: String? = nil, loops: Int64? = nil)
        -> RPCItemInput
    {
        RPCItemInput(
            uri: uri, loops: loops, duration: duration, web: RPCWebOptions(reload: reload, loadTimeout: loadTimeout))
    }

    static func watcher(_ daemon: RunningDaemon) throws -> QueueClient {
        let watcher = try daemon.client()
        _ = try watcher.call(API.EventsSubscribe.self, .init(events: [.itemStarted, .itemEnded]))
        return watcher
    }

    /// The colour at a point of the screen, read back from a screenshot.
    static func colour(_ client: QueueClient, _ x: Int, _ y: Int) throws -> (Int, Int, Int) {
        let shot = try RotationDaemonTests.pixels(client)
        return ZonesDaemonTests.rgb(shot, x, y)
    }

    static func isColour(_ pixel: (Int, Int, Int), _ wanted: (Int, Int, Int)) -> Bool {
        abs(pixel.0 - wanted.0) < 40 && abs(pixel.1 - wanted.1) < 40 && abs(pixel.2 - wanted.2) < 40
    }

    @Test func aPageIsDrawnInItsColoursMovesAndIsNamedInTheStatusAndEvents() throws {
        let site = try WebSite()
        let daemon = try RunningDaemon()
        let client = try daemon.client()
        let watcher = try Self.watcher(daemon)
        let id = try client.call(API.QueueAdd.self, .init(items: [Self.web(site.url("colours.html"), duration: 30)])).ids[0]
        _ = try client.call(API.PlayerPlay.self, .init())
        let notes = try collectNotifications(watcher, timeout: 30) { !events($0, "itemStarted", id).isEmpty }
        let started = try #require(events(notes, "itemStarted", id).first, "\(daemon.log().suffix(3000))")
        #expect(started["web"]?["loaded"]?.boolValue == true)
        #expect(started["web"]?["title"]?.stringValue == "Colours")
        #expect(started["web"]?["url"]?.stringValue == site.url("colours.html"))
        let status = try client.call(API.PlayerStatus.self, .init())
        #expect(status.web == RPCWebStatus(loaded: true, url: site.url("colours.html"), title: "Colours"))
        let row = try #require(try client.call(API.QueueList.self, .init()).items.first)
        #expect(row.web != nil && row.width == 320 && row.height == 240, "\(row.json)")
        // queuectl says it and adds pages with their options; the options come back in queue.list.
        let shown = try daemon.queuectl(["status"])
        #expect(shown.stdout.contains("web page: \"Colours\" \(site.url("colours.html"))"), "\(shown)")
        let added = try daemon.queuectl([
            "add", "--web", "--reload", "keep", "--zoom", "1.5", "--viewport", "800x600", "--interval", "60",
            "--load-timeout", "5", "--duration", "20", site.url("green.html"),
        ])
        #expect(added.status == 0, "\(added)")
        let second = try #require(try client.call(API.QueueList.self, .init()).items.last)
        #expect(second.json["type"]?.stringValue == "web")
        #expect(
            second.web
                == RPCWebOptions(reload: "keep", zoom: 1.5, viewport: (800, 600), interval: 60, loadTimeout: 5),
            "\(second.json)")
        let refused = try daemon.queuectl(["add", "--zoom", "9", site.url("green.html")])
        #expect(refused.status != 0 && refused.stderr.contains("--zoom"), "\(refused)")
        // The page's colours where it draws them: blue below, the yellow panel at the left (320x240 screen).
        var seen = false
        _ = waitUntil(timeout: 10, pollInterval: 0.1) {
            guard let below = try? Self.colour(client, 250, 200), let panel = try? Self.colour(client, 40, 130) else {
                return false
            }
            seen = Self.isColour(below, (0, 0, 255)) && Self.isColour(panel, (255, 255, 0))
            return seen
        }
        #expect(seen, "the page's blue and yellow are on screen")
        // It moves: the top band (the white box sliding, the clock ticking) changes between screenshots.
        let first = try RotationDaemonTests.pixels(client)
        let band = { (shot: (width: Int, height: Int, rgba: [UInt8])) in Array(shot.rgba[0..<(shot.width * 50 * 4)]) }
        let moved = waitUntil(timeout: 10, pollInterval: 0.2) {
            guard let later = try? RotationDaemonTests.pixels(client) else { return false }
            return band(later) != band(first)
        }
        #expect(moved, "the page's top band changed over time")
    }

    @Test func everyWayAPageFailsEndsItsItemWithItsReasonAndTheQueuePlaysOn() throws {
        let site = try WebSite()
        let silent = try SilentServer()
        let daemon = try RunningDaemon(["--web-memory", "400"])
        let client = try daemon.client()
        let watcher = try Self.watcher(daemon)
        let items = [
            Self.web(site.url("broken"), duration: 5, loadTimeout: 5),
            Self.web("http://127.0.0.1:\(silent.port)/page.html", duration: 5, loadTimeout: 2),
            Self.web(site.nginx.baseURL + "/slow/slow.html", duration: 5, loadTimeout: 2),
            Self.web(site.url("spin.html"), duration: 60),
            Self.web(site.url("hog.html"), duration: 60),
            Self.web(site.url("alert.html"), duration: 1),
            Self.web(site.url("green.html"), duration: 1),
            Self.web(site.nginx.baseURL + "/secret/green.html", duration: 5, loadTimeout: 5),
            Self.web(site.url("green.html"), duration: 1),
        ]
        let ids = try client.call(API.QueueAdd.self, .init(items: items)).ids
        _ = try client.call(API.PlayerPlay.self, .init())
        let notes = try collectNotifications(watcher, timeout: 120) { !events($0, "itemEnded", ids[8]).isEmpty }
        let log = String(daemon.log().suffix(4000))
        func ended(_ index: Int) -> (reason: String?, error: String) {
            let event = events(notes, "itemEnded", ids[index]).first
            return (event?["reason"]?.stringValue, event?["error"]?.stringValue ?? "")
        }
        #expect(ended(0).reason == "error" && ended(0).error.contains("HTTP 500"), "\(ended(0)) \(log)")
        #expect(ended(1).reason == "error" && ended(1).error.contains("did not answer in 2 s"), "\(ended(1))")
        #expect(ended(2).reason == "error" && ended(2).error.contains("did not finish loading in 2 s"), "\(ended(2))")
        #expect(ended(3).reason == "error" && ended(3).error.contains("stopped answering"), "\(ended(3))")
        #expect(ended(4).reason == "error" && ended(4).error.contains("memory cap (400 MiB)"), "\(ended(4)) \(log)")
        // The spinning and the hungry page played before they were stopped; the others never started.
        for index in [0, 1, 2] { #expect(events(notes, "itemStarted", ids[index]).isEmpty) }
        for index in [3, 4] { #expect(!events(notes, "itemStarted", ids[index]).isEmpty) }
        // Dialogs block nothing: the page with alert() plays its second and ends; the queue went on.
        #expect(ended(5).reason == "eof", "\(ended(5))")
        #expect(ended(6).reason == "eof", "\(ended(6))")
        // A password asked for is not given (the dialog is cancelled): the page fails with its 401.
        #expect(ended(7).reason == "error" && ended(7).error.contains("HTTP 401"), "\(ended(7))")
        #expect(ended(8).reason == "eof", "\(ended(8))")
        let rows = try client.call(API.QueueList.self, .init()).items
        #expect(rows.map(\.state) == ["failed", "failed", "failed", "failed", "failed", "played", "played", "failed", "played"])
        #expect(daemon.isRunning)
    }

    @Test func aKilledWebProcessFailsItsItemAndTheNextPagePlays() throws {
        let site = try WebSite()
        let daemon = try RunningDaemon()
        let client = try daemon.client()
        let watcher = try Self.watcher(daemon)
        let ids = try client.call(
            API.QueueAdd.self,
            .init(items: [Self.web(site.url("red.html"), duration: 60), Self.web(site.url("green.html"), duration: 60)])
        ).ids
        _ = try client.call(API.PlayerPlay.self, .init())
        _ = try collectNotifications(watcher, timeout: 30) { !events($0, "itemStarted", ids[0]).isEmpty }
        #expect(waitUntil(timeout: 10, pollInterval: 0.1) { (try? Self.colour(client, 160, 120)).map { Self.isColour($0, (255, 0, 0)) } ?? false })
        let renderer = try #require(Self.children(of: daemon.process.pid).first { Self.command($0) == "queued-webview" })
        let webProcesses = Self.children(of: renderer).filter { Self.command($0).hasPrefix("WPEWebProcess") }
        #expect(!webProcesses.isEmpty)
        for pid in webProcesses { kill(pid, SIGKILL) }
        let notes = try collectNotifications(watcher, timeout: 30) { !events($0, "itemStarted", ids[1]).isEmpty }
        let ended = try #require(events(notes, "itemEnded", ids[0]).first)
        #expect(ended["reason"]?.stringValue == "error")
        #expect(ended["error"]?.stringValue?.contains("web process crashed") == true, "\(ended)")
        #expect(waitUntil(timeout: 10, pollInterval: 0.1) { (try? Self.colour(client, 160, 120)).map { Self.isColour($0, (0, 255, 0)) } ?? false })
        #expect(daemon.isRunning)
    }

    @Test func aKeptPageStaysOnScreenWithItsServerGone() throws {
        let site = try WebSite()
        let daemon = try RunningDaemon()
        let client = try daemon.client()
        let watcher = try Self.watcher(daemon)
        // Two plays of one kept page; the server goes between them.
        let id = try client.call(
            API.QueueAdd.self, .init(items: [Self.web(site.url("red.html"), duration: 1.5, reload: "keep", loops: 2)])
        ).ids[0]
        _ = try client.call(API.PlayerPlay.self, .init())
        _ = try collectNotifications(watcher, timeout: 30) { !events($0, "itemStarted", id).isEmpty }
        site.nginx.stop()
        let notes = try collectNotifications(watcher, timeout: 30) { notes in
            events(notes, "itemStarted", id).contains { $0["play"]?.intValue == 2 }
        }
        #expect(events(notes, "itemEnded", id).first?["reason"]?.stringValue == "eof")
        #expect(waitUntil(timeout: 5, pollInterval: 0.1) { (try? Self.colour(client, 160, 120)).map { Self.isColour($0, (255, 0, 0)) } ?? false })
        // A page loaded for each play cannot come back without its server: that play fails, with its reason.
        let fresh = try client.call(API.QueueAdd.self, .init(items: [Self.web(site.url("green.html"), duration: 1, loadTimeout: 2)])).ids[0]
        let more = try collectNotifications(watcher, timeout: 30) { !events($0, "itemEnded", fresh).isEmpty }
        #expect(events(more, "itemEnded", fresh).first?["reason"]?.stringValue == "error")
    }

    @Test func aPageCannotReachFilesOutsideItsFolderNorOpenWindows() throws {
        let folder = try TemporaryDirectory(prefix: "queued-web-escape")
        let page = folder.file("escape.html")
        // Its colour says what it could load once both images answered: green for an image beside it loaded and
        // a local file elsewhere refused, red for anything else.
        try FileManager.default.copyItem(
            atPath: try Fixtures.still(hue: .red, width: 16, height: 16, format: .png), toPath: folder.file("beside.png"))
        try """
        <html><head><title>Escape</title><style>html,body{margin:0;height:100%;background:#00ffff}</style></head>
        <body><iframe src="file:///etc/hostname" style="display:none"></iframe>
        <script>
        var seen = {};
        function tell(name, how) { seen[name] = how; if (seen.beside && seen.outside) document.body.style.background = seen.beside == 'loaded' && seen.outside == 'refused' ? '#00ff00' : '#ff0000'; }
        var beside = new Image(); beside.onload = function(){ tell('beside', 'loaded'); }; beside.onerror = function(){ tell('beside', 'refused'); }; beside.src = 'beside.png';
        var outside = new Image(); outside.onload = function(){ tell('outside', 'loaded'); }; outside.onerror = function(){ tell('outside', 'refused'); }; outside.src = 'file:///usr/share/pixmaps/debian-logo.png';
        window.open('file:///etc/passwd'); setTimeout(function(){ location.href = 'file:///etc/passwd'; }, 50);
        </script></body></html>
        """.write(toFile: page, atomically: true, encoding: .utf8)
        let daemon = try RunningDaemon()
        let client = try daemon.client()
        let watcher = try Self.watcher(daemon)
        // A local .html file is a web page without saying so.
        let id = try client.call(API.QueueAdd.self, .init(items: [RPCItemInput(uri: page, duration: 3)])).ids[0]
        _ = try client.call(API.PlayerPlay.self, .init())
        _ = try collectNotifications(watcher, timeout: 30) { !events($0, "itemStarted", id).isEmpty }
        var answered: (Int, Int, Int)?
        _ = waitUntil(timeout: 5, pollInterval: 0.1) {
            answered = try? Self.colour(client, 160, 200)
            return answered.map { Self.isColour($0, (0, 255, 0)) || Self.isColour($0, (255, 0, 0)) } ?? false
        }
        #expect(answered.map { Self.isColour($0, (0, 255, 0)) } == true, "the image beside loaded, the file elsewhere refused: \(String(describing: answered))")
        // WebKit tells the title on its own, sometimes after the load finished: the status has it once told.
        var status = try client.call(API.PlayerStatus.self, .init())
        _ = waitUntil(timeout: 5, pollInterval: 0.05) {
            status = (try? client.call(API.PlayerStatus.self, .init())) ?? status
            return status.web?.title != nil
        }
        #expect(status.web?.title == "Escape" && status.web?.url == page, "\(String(describing: status.web))")
        let notes = try collectNotifications(watcher, timeout: 30) { !events($0, "itemEnded", id).isEmpty }
        #expect(events(notes, "itemEnded", id).first?["reason"]?.stringValue == "eof")
        #expect(try client.call(API.QueueList.self, .init()).items.first?.json["type"]?.stringValue == "web")
    }

    @Test func withoutTheRendererWebItemsFailWithTheReasonAndEverythingElsePlays() throws {
        let clip = try Fixtures.video(seconds: 0.5, fps: 25, width: 160, height: 120, hue: .green, withAudio: .aacMP4)
        let daemon = try RunningDaemon(["--web-renderer", "/nonexistent/queued-webview"])
        let client = try daemon.client()
        let watcher = try Self.watcher(daemon)
        let ids = try client.call(
            API.QueueAdd.self, .init(items: [Self.web("http://127.0.0.1:9/page.html", duration: 5), RPCItemInput(uri: clip)])
        ).ids
        _ = try client.call(API.PlayerPlay.self, .init())
        let notes = try collectNotifications(watcher, timeout: 30) { !events($0, "itemEnded", ids[1]).isEmpty }
        let failed = events(notes, "itemEnded", ids[0]).first
        #expect(failed?["reason"]?.stringValue == "error")
        #expect(
            failed?["error"]?.stringValue?.contains("web pages need /nonexistent/queued-webview, which is not installed") == true,
            "\(String(describing: failed))")
        #expect(events(notes, "itemEnded", ids[1]).first?["reason"]?.stringValue == "eof")
    }

    @Test func aPageWithAnIntervalIsReloadedWhileItShows() throws {
        let site = try WebSite()
        // Each load of the page in its view counts itself (sessionStorage lives as long as the view): red on
        // the first load, blue on the next.
        try """
        <html><head><title>Count</title></head><body><script>
        var loads = Number(sessionStorage.getItem('loads') || 0) + 1; sessionStorage.setItem('loads', loads);
        document.body.style.background = loads == 1 ? '#ff0000' : '#0000ff'; document.body.style.height = '100%';
        document.documentElement.style.height = '100%'; document.body.style.margin = '0';
        </script></body></html>
        """.write(toFile: site.folder.file("count.html"), atomically: true, encoding: .utf8)
        let daemon = try RunningDaemon()
        let client = try daemon.client()
        let watcher = try Self.watcher(daemon)
        let id = try client.call(
            API.QueueAdd.self,
            .init(items: [RPCItemInput(uri: site.url("count.html"), duration: 30, web: RPCWebOptions(interval: 5))])
        ).ids[0]
        _ = try client.call(API.PlayerPlay.self, .init())
        _ = try collectNotifications(watcher, timeout: 30) { !events($0, "itemStarted", id).isEmpty }
        #expect(waitUntil(timeout: 5, pollInterval: 0.1) { (try? Self.colour(client, 160, 120)).map { Self.isColour($0, (255, 0, 0)) } ?? false })
        #expect(
            waitUntil(timeout: 20, pollInterval: 0.2) { (try? Self.colour(client, 160, 120)).map { Self.isColour($0, (0, 0, 255)) } ?? false },
            "reloaded within its interval")
        let status = try client.call(API.PlayerStatus.self, .init())
        #expect(status.currentId == id && status.play == 1, "the same play goes on through the reload")
    }

    @Test func aPageInAZoneIsLaidOutAtTheZonesSizeAndDrawnInIt() throws {
        let site = try WebSite()
        let daemon = try RunningDaemon()
        let client = try daemon.client()
        // 320x240: main at the left (240 wide), the page in the right column (80x240).
        _ = try client.call(
            "layout.set",
            [
                "zones": [
                    ["name": "main", "rect": ["x": 0, "y": 0, "w": "75%", "h": "100%"]],
                    ["name": "side", "rect": ["x": "75%", "y": 0, "w": "25%", "h": "100%"]],
                ]
            ])
        let watcher = try daemon.client()
        _ = try watcher.call("events.subscribe", ["events": ["itemStarted", "itemEnded"], "zones": ["*"]])
        let side = try daemon.client()
        side.zone = "side"
        let id = try side.call(API.QueueAdd.self, .init(items: [Self.web(site.url("colours.html"), duration: 30)])).ids[0]
        _ = try side.call(API.PlayerPlay.self, .init())
        let notes = try collectNotifications(watcher, timeout: 30) { !events($0, "itemStarted", id).isEmpty }
        let started = try #require(events(notes, "itemStarted", id).first)
        #expect(started["zone"]?.stringValue == "side" && started["width"]?.intValue == 80 && started["height"]?.intValue == 240, "\(started)")
        // The page's blue in the side column; main, with nothing to play, stays black.
        #expect(waitUntil(timeout: 10, pollInterval: 0.1) { (try? Self.colour(client, 300, 220)).map { Self.isColour($0, (0, 0, 255)) } ?? false })
        #expect((try? Self.colour(client, 100, 120)).map { Self.isColour($0, (0, 0, 0)) } == true)
    }

    // MARK: processes

    static func children(of parent: pid_t) -> [pid_t] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return entries.compactMap { pid_t($0) }.filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && pid_t(fields[1]) == parent
        }
    }

    static func command(_ pid: pid_t) -> String {
        ((try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
