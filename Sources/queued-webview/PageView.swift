// One page the daemon asked for: its web view, its frame slots, its pace and its watchdog.
// Main loop thread only (GLib's callbacks and the daemon's commands both run there).

import CWebView
import Glibc
import JSONText
import SystemClock

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
    /// A frame painted while both slots were taken: copied here and moved into the first slot given back, so
    /// the page's last picture is never lost.
    private var staged: (pixels: [UInt8], width: Int, height: Int)?
    /// The daemon was told once that a frame did not fit.
    private var toldOversize = false
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

    /// A painted frame (valid during the call): copied into a free slot and announced, or staged until the
    /// daemon gives one back. The page may paint its next one after 1/fps either way.
    func offer(_ pixels: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int) {
        defer { scheduleComplete() }
        guard width * height * 4 <= slots.slotBytes, stride >= width * 4 else {
            if !toldOversize {
                toldOversize = true
                EventWriter.send([
                    ("ev", "failed"), ("view", .int(Int64(id))),
                    ("reason", .string("the page painted \(width)×\(height), larger than its viewport")),
                ])
            }
            return
        }
        guard let slot = slots.freeSlot else {
            var copy = [UInt8](repeating: 0, count: width * height * 4)
            copy.withUnsafeMutableBytes { target in
                for line in 0..<height {
                    (target.baseAddress! + line * width * 4).copyMemory(from: pixels + line * stride, byteCount: width * 4)
                }
            }
            staged = (copy, width, height)
            return
        }
        staged = nil
        announce(slot, pixels: pixels, width: width, height: height, stride: stride)
    }

    private func announce(_ slot: Int, pixels: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int) {
        guard slots.fill(slot, pixels: pixels, width: width, height: height, stride: stride) else { return }
        sequence += 1
        EventWriter.send([
            ("ev", "frame"), ("view", .int(Int64(id))), ("slot", .int(Int64(slot))), ("seq", .int(Int64(sequence))),
            ("width", .int(Int64(width))), ("height", .int(Int64(height))),
        ])
    }

    /// The daemon copied `slot` out: a staged frame takes it.
    func slotDone(_ slot: Int) {
        slots.release(slot)
        guard let frame = staged, let free = slots.freeSlot else { return }
        staged = nil
        frame.pixels.withUnsafeBufferPointer { buffer in
            announce(free, pixels: buffer.baseAddress!, width: frame.width, height: frame.height, stride: frame.width * 4)
        }
    }

    /// The page may paint again once 1/fps has passed since its last frame: how its rate is capped.
    private func scheduleComplete() {
        guard !completeScheduled else { return }
        completeScheduled = true
        let now = Monotonic.now()
        let wait = max(0, lastFrameAt + 1 / max(1, framesPerSecond) - now)
        PageHost.after(seconds: wait, view: id) { view in
            view.completeScheduled = false
            view.lastFrameAt = Monotonic.now()
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
