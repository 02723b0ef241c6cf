// One page the daemon asked for: its web view, its frame slots, its pace and its watchdog.
// Main loop thread only (GLib's callbacks and the daemon's commands both run there).

import CWebView
import Glibc
import JSONText

final class PageView {
    let id: Int
    let slots: FrameSlots
    /// Owned: freed in `close`.
    private(set) var handle: OpaquePointer?
    /// The most frames a second the page may paint (the daemon's output need).
    var framesPerSecond: Double
    private var sequence = 0
    /// When the page was last told it may paint (monotonic seconds).
    private var lastFrameAt = 0.0
    /// A frame-complete is already scheduled.
    private var completeScheduled = false
    /// The watchdog's ping out, and since when (nil: none out).
    private var pingOut: (token: UInt32, since: Double)?
    private var nextToken: UInt32 = 0
    /// The web process ended: no pings until the next load.
    private var processEnded = false

    init(id: Int, slots: FrameSlots, framesPerSecond: Double) {
        self.id = id
        self.slots = slots
        self.framesPerSecond = framesPerSecond
    }

    func attach(_ handle: OpaquePointer) { self.handle = handle }

    func load(_ url: String) {
        processEnded = false
        pingOut = nil
        qd_web_view_load(handle, url)
    }

    func reload() {
        processEnded = false
        pingOut = nil
        qd_web_view_reload(handle)
    }

    func close() {
        qd_web_view_free(handle)
        handle = nil
    }

    // MARK: frames

    /// A painted frame: copied into a free slot and announced, or held (false) until the daemon frees one.
    func offer(_ pixels: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int) -> Bool {
        guard let slot = slots.freeSlot else { return false }
        guard slots.fill(slot, pixels: pixels, width: width, height: height, stride: stride) else {
            EventWriter.send([("ev", "failed"), ("view", .int(Int64(id))), ("reason", .string("the page painted \(width)×\(height), larger than its viewport"))])
            return true
        }
        sequence += 1
        EventWriter.send([
            ("ev", "frame"), ("view", .int(Int64(id))), ("slot", .int(Int64(slot))), ("seq", .int(Int64(sequence))),
            ("width", .int(Int64(width))), ("height", .int(Int64(height))),
        ])
        scheduleComplete()
        return true
    }

    /// The daemon copied `slot` out: a held frame may take it.
    func slotDone(_ slot: Int) {
        slots.release(slot)
        qd_web_view_offer_held(handle)
    }

    /// The page may paint again once 1/fps has passed since its last frame: how its rate is capped.
    private func scheduleComplete() {
        guard !completeScheduled else { return }
        completeScheduled = true
        let now = Monotonic.seconds()
        let wait = max(0, lastFrameAt + 1 / max(1, framesPerSecond) - now)
        PageHost.after(seconds: wait, view: id) { view in
            view.completeScheduled = false
            view.lastFrameAt = Monotonic.seconds()
            qd_web_view_frame_complete(view.handle)
        }
    }

    // MARK: the watchdog

    /// Every tick: a page whose script has not answered a ping for `hangAfter` seconds is hung (an endless
    /// script): its web process is killed and the daemon told. Otherwise a new ping goes out.
    func watch(now: Double, hangAfter: Double) {
        guard !processEnded, handle != nil else { return }
        if let out = pingOut {
            guard now - out.since >= hangAfter else { return }
            pingOut = nil
            processEnded = true
            EventWriter.send([
                ("ev", "hung"), ("view", .int(Int64(id))),
                ("reason", .string("the page stopped answering for \(Int(hangAfter)) s (a script that never yields)")),
            ])
            qd_web_view_terminate(handle)
            return
        }
        nextToken &+= 1
        pingOut = (nextToken, now)
        qd_web_view_ping(handle, nextToken)
    }

    func pong(_ token: UInt32) {
        if pingOut?.token == token { pingOut = nil }
    }

    func processDidEnd() {
        processEnded = true
        pingOut = nil
    }
}

enum Monotonic {
    static func seconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
