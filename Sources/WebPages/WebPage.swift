// One page in the renderer: what it has said (committed, loaded, its title, a failure, its process's end)
// and its latest frame, copied out of the shared frame file. Events arrive on the renderer's reader thread;
// decode and prefetch threads read and wait. Every field below is guarded by `state`.

import Glibc
import Media
import MediaPaths
import SystemClock
import SystemSupport

final class WebPage: @unchecked Sendable {
    let id: Int
    let url: String
    /// The URL as errors and logs show it (a user, password or token as `***`).
    let shownURL: String
    let size: PixelSize
    let framesPath: String
    /// Whether it outlives its plays (`reload: keep`).
    let kept: Bool
    private let state = ThreadCondition()
    private var committed = false
    private var loaded = false
    private var paintedSinceCommit = false
    private var failure: String?
    private var ended: String?
    private var title: String?
    /// Monotonic seconds when the load finished (WebKit may tell the title a little after).
    private var finishedAt: Double?
    private var latest: VideoFrame?
    private var sequence = 0
    /// A play showed it: later load failures (a reload offline) keep the page as it was.
    private var shown = false
    /// Plays reading it now (readers alive).
    private var readers = 0
    /// Monotonic seconds of the last load or reload asked.
    private var loadedAt: Double
    /// The mapped frame file (reader thread only).
    private var mapping: (base: UnsafeMutableRawPointer, bytes: Int)?

    /// `uri`: the item's, as status and errors show it (a local page is loaded through another URL).
    init(id: Int, url: String, uri: String, size: PixelSize, framesPath: String, kept: Bool) {
        self.id = id
        self.url = url
        shownURL = StreamKind.redacted(uri)
        self.size = size
        self.framesPath = framesPath
        self.kept = kept
        loadedAt = Monotonic.now()
    }

    deinit {
        if let mapping { munmap(mapping.base, mapping.bytes) }
        unlink(framesPath)
    }

    // MARK: events (reader thread)

    /// A frame in `slot` of the frame file: copied into a picture of our own. True when it was (the slot
    /// may be given back).
    func frameArrived(slot: Int, width: Int, height: Int) {
        let slotBytes = size.width * size.height * 4
        guard width <= size.width, height <= size.height, slot >= 0, slot < 2, let base = mapped(slotBytes * 2),
            let frame = VideoFrame.copyingBGRA(
                base + slot * slotBytes, width: width, height: height, bytesPerRow: width * 4)
        else { return }
        state.withLock {
            latest = frame
            sequence += 1
            if committed { paintedSinceCommit = true }
        }
        state.broadcast()
    }

    private func mapped(_ bytes: Int) -> UnsafeMutableRawPointer? {
        if let mapping, mapping.bytes == bytes { return mapping.base }
        let descriptor = open(framesPath, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        guard let base = mmap(nil, bytes, PROT_READ, MAP_SHARED, descriptor, 0), base != MAP_FAILED else { return nil }
        mapping = (base, bytes)
        return base
    }

    func committed(status: Int) {
        state.withLock {
            committed = true
            paintedSinceCommit = false
        }
        state.broadcast()
    }

    func loadFinished() {
        state.withLock {
            loaded = true
            finishedAt = Monotonic.now()
        }
        state.broadcast()
    }

    /// The load failed (an HTTP error, a network error) or the renderer could not make the page.
    func failed(_ reason: String) {
        state.withLock {
            if shown && ended == nil { return }  // a kept page's reload offline: it stays as it was
            if failure == nil { failure = reason }
        }
        state.broadcast()
    }

    /// Its web process ended (or the renderer did): the page shows nothing more.
    func processEnded(_ reason: String) {
        state.withLock { if ended == nil { ended = reason } }
        state.broadcast()
    }

    func titled(_ text: String) {
        state.withLock { title = text.isEmpty ? nil : text }
        state.broadcast()
    }

    /// How long a loaded page without a title waits for WebKit to tell one, so its play starts named.
    static let titleGrace = 0.5

    // MARK: plays (decode and prefetch threads)

    /// Waits until the page is loaded and painted since it was committed, up to `timeout` seconds.
    func waitUntilShown(timeout: Double, isCancelled: () -> Bool) throws(MediaError) {
        let deadline = Monotonic.now() + timeout
        while true {
            let outcome: Result<Bool, MediaError> = state.withLock {
                if let ended { return .failure(error(ended)) }
                if let failure { return .failure(error(failure)) }
                let named = title != nil || Monotonic.now() - (finishedAt ?? .infinity) >= Self.titleGrace
                return .success(loaded && paintedSinceCommit && latest != nil && named)
            }
            switch outcome {
            case .failure(let error): throw error
            case .success(true): return
            case .success(false): break
            }
            if isCancelled() { throw MediaError(operation: "open", path: shownURL, message: "interrupted") }
            let left = deadline - Monotonic.now()
            if left <= 0 {
                throw error(
                    state.withLock { committed }
                        ? "the page did not finish loading in \(Self.seconds(timeout)) s"
                        : "the page did not answer in \(Self.seconds(timeout)) s")
            }
            state.withLock { _ = state.wait(seconds: min(left, 0.1)) }
        }
    }

    /// The latest picture and its number, or why the page shows nothing more.
    func current() -> Result<(frame: VideoFrame, sequence: Int), MediaError> {
        state.withLock {
            if let ended { return .failure(error(ended)) }
            if let failure, !shown { return .failure(error(failure)) }
            guard let latest else { return .failure(error("the page painted nothing")) }
            shown = true
            return .success((latest, sequence))
        }
    }

    /// Held while a change of readers is decided and told to the renderer (never under `state`).
    private let readerOrder = ThreadLock()

    /// A reader began reading it; `tell` runs with the new count, in the order of the changes.
    func readerBegan(_ tell: (Int) -> Void) {
        readerOrder.withLock { tell(state.withLock { readers += 1; return readers }) }
    }

    /// A reader is done with it: how many still read it; `tell` runs with that count, in order.
    @discardableResult
    func readerEnded(_ tell: (Int) -> Void = { _ in }) -> Int {
        readerOrder.withLock {
            let left = state.withLock { readers = max(0, readers - 1); return readers }
            tell(left)
            return left
        }
    }

    var isRead: Bool { state.withLock { readers > 0 } }

    /// Makes the frame file the renderer paints into, at its full size (the renderer only maps it, so it can
    /// never shrink under our mapping). False when it cannot be made.
    func makeFrameFile() -> Bool {
        let descriptor = open(framesPath, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return ftruncate(descriptor, off_t(size.width * size.height * 4 * 2)) == 0
    }

    var status: WebPageStatus {
        state.withLock { WebPageStatus(loaded: loaded, url: shownURL, title: title) }
    }

    /// Whether it can be shown again (a kept page whose process did not end nor fail).
    var isAlive: Bool { state.withLock { ended == nil && (failure == nil || shown) } }

    /// Seconds since the last load or reload was asked.
    var sinceLoad: Double { Monotonic.now() - state.withLock { loadedAt } }

    func reloadAsked() { state.withLock { loadedAt = Monotonic.now() } }

    private func error(_ reason: String) -> MediaError {
        MediaError(operation: "web page", path: shownURL, message: reason)
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
