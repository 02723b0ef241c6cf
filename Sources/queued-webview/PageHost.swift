// The daemon's commands (one JSON object per line on standard input) carried out on the pages, and the
// web views' callbacks turned into events. Main loop thread only: every entry point here is called by
// GLib's main loop (qd_web_run), so the tables below are never touched concurrently.

import CWebView
import JSONText
import SystemClock

enum PageHost {
    /// Main loop thread only.
    nonisolated(unsafe) static var views: [Int: PageView] = [:]
    nonisolated(unsafe) private static var timers: [Int: (PageView) -> Void] = [:]
    nonisolated(unsafe) private static var timerViews: [Int: Int] = [:]
    nonisolated(unsafe) private static var nextTimer = 1
    /// Seconds without an answer to a ping before a page counts as hung.
    nonisolated(unsafe) static var hangAfter = 5.0

    // MARK: commands

    static func handle(_ line: String) {
        guard let command = try? JSON.parse(line), let op = command["op"]?.stringValue,
            let id = command["view"]?.intValue.map(Int.init)
        else { return }
        switch op {
        case "open":
            guard views[id] == nil, let url = command["url"]?.stringValue, let path = command["frames"]?.stringValue,
                let width = command["width"]?.intValue, let height = command["height"]?.intValue,
                (1...8192).contains(width), (1...8192).contains(height)
            else {
                fail(id, "the renderer was asked for a page it cannot make")
                return
            }
            open(
                id: id, url: url, frames: path, width: Int(width), height: Int(height),
                zoom: command["zoom"]?.doubleValue ?? 1, fps: command["fps"]?.doubleValue ?? 30,
                files: command["files"]?.stringValue ?? "")
        case "load":
            if let url = command["url"]?.stringValue { views[id]?.load(url) }
        case "reload":
            views[id]?.reload()
        case "fps":
            if let fps = command["fps"]?.doubleValue { views[id]?.framesPerSecond = fps }
        case "done":
            if let slot = command["slot"]?.intValue { views[id]?.slotDone(Int(slot)) }
        case "close":
            views.removeValue(forKey: id)?.close()
        default:
            break
        }
    }

    private static func open(
        id: Int, url: String, frames: String, width: Int, height: Int, zoom: Double, fps: Double, files: String
    ) {
        guard let slots = FrameSlots(path: frames, width: width, height: height) else {
            fail(id, "the renderer could not make its frame file")
            return
        }
        let view = PageView(id: id, slots: slots, framesPerSecond: fps)
        let callbacks = qd_web_view_callbacks(
            frame: { user, pixels, width, height, stride in
                guard let view = PageHost.view(user), let pixels else { return }
                view.offer(pixels, width: Int(width), height: Int(height), stride: Int(stride))
            },
            load: { user, event, status, message in
                guard let view = PageHost.view(user) else { return }
                PageHost.loadChanged(view, event: event, status: Int(status), message: message.map { String(cString: $0) } ?? "")
            },
            ended: { user, reason in
                guard let view = PageHost.view(user) else { return }
                view.processDidEnd()
                let why =
                    reason == Int32(QD_WEB_MEMORY.rawValue)
                    ? "memory" : reason == Int32(QD_WEB_TERMINATED.rawValue) ? "terminated" : "crashed"
                EventWriter.send([("ev", "ended"), ("view", .int(Int64(view.id))), ("reason", .string(why))])
            },
            title: { user, title in
                guard let view = PageHost.view(user) else { return }
                EventWriter.send([
                    ("ev", "title"), ("view", .int(Int64(view.id))), ("title", .string(title.map { String(cString: $0) } ?? "")),
                ])
            },
            pong: { user, token in PageHost.view(user)?.pong(token) })
        guard
            let handle = qd_web_view_new(
                Int32(width), Int32(height), zoom, files, callbacks, UnsafeMutableRawPointer(bitPattern: id))
        else {
            fail(id, "the web engine could not make a view")
            return
        }
        view.attach(handle)
        views[id] = view
        view.load(url)
    }

    private static func loadChanged(_ view: PageView, event: Int32, status: Int, message: String) {
        let id = JSONValue.int(Int64(view.id))
        switch event {
        case Int32(QD_WEB_COMMITTED.rawValue):
            if status >= 400 {
                EventWriter.send([("ev", "failed"), ("view", id), ("reason", .string("the server answered HTTP \(status)"))])
            } else {
                EventWriter.send([("ev", "committed"), ("view", id), ("status", .int(Int64(status)))])
            }
        case Int32(QD_WEB_FINISHED.rawValue):
            // With its title as it is now: a play prepared on this event names the page.
            let title = String(cString: qd_web_view_title(view.handle))
            EventWriter.send([("ev", "loaded"), ("view", id), ("title", .string(title))])
        default:
            EventWriter.send([("ev", "failed"), ("view", id), ("reason", .string(message))])
        }
    }

    private static func fail(_ id: Int, _ reason: String) {
        EventWriter.send([("ev", "failed"), ("view", .int(Int64(id))), ("reason", .string(reason))])
    }

    private static func view(_ user: UnsafeMutableRawPointer?) -> PageView? {
        views[Int(bitPattern: user)]
    }

    // MARK: timers

    /// Runs `body` with the view after `seconds`, unless the view was closed by then.
    static func after(seconds: Double, view: Int, _ body: @escaping (PageView) -> Void) {
        let token = nextTimer
        nextTimer += 1
        timers[token] = body
        timerViews[token] = view
        qd_web_after(UInt32(max(0, seconds * 1000).rounded()), { user in
            let token = Int(bitPattern: user)
            guard let body = PageHost.timers.removeValue(forKey: token),
                let id = PageHost.timerViews.removeValue(forKey: token), let view = PageHost.views[id]
            else { return }
            body(view)
        }, UnsafeMutableRawPointer(bitPattern: token))
    }

    /// The watchdog's tick, once a second for as long as the renderer runs.
    static func watchEverySecond() {
        qd_web_after(1000, { _ in
            let now = Monotonic.now()
            for view in PageHost.views.values { view.watch(now: now, hangAfter: PageHost.hangAfter) }
            PageHost.watchEverySecond()
        }, nil)
    }
}
