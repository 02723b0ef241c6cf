// Carries the alerts out on the main engine and keeps them in the alert file. The alert on screen (the
// board's `active`) plays its items as a chain of interrupts — one playing and the next already waiting
// behind it, so they join gaplessly and the queue resumes where it was when the alert goes — with its text
// as a layer over the whole screen (an opaque box, above every other layer); an alert of text alone pauses
// the queue under it. The screen's power is turned on while any alert stands. Every change is kept
// (DurableFile) before it is answered, so an alert survives kill -9 and a power cut; one that expired
// while the box was off is gone at start.
// A reconciling thread ("queued.alerts") does all the engine work, once a second and whenever woken: it
// also puts back what something else took away (a stop, a cleared layer, a state.apply), since an alert
// stands above the queue, schedules and interrupts.

import Dispatch
import FoundationEssentials
import Glibc
import JSONText
import Logging
import Overlays
import Playback
import QueueModel
import SystemClock
import SystemSupport

public final class AlertController: @unchecked Sendable {
    /// The layers of alerts have this z, beyond what overlay.add accepts: above everything, and known at start.
    public static let overlayZ = 2_000_000

    private let engine: PlayerEngine
    /// The alert file (nil: alerts are not kept, --no-state).
    private let path: String?
    /// An alert's items as the daemon reads `queue.add`'s items (files, URLs; checked again at each showing).
    private let makeItems: @Sendable ([JSONValue]) throws -> [MediaItem]
    private let wallClock: @Sendable () -> Double
    /// Told each interrupt an alert issues, under the engine's lock (only to note it): the daemon gives it the
    /// whole screen over every zone.
    private let onIssued: @Sendable (ItemID) -> Void
    /// Told on the reconciling thread, never under a lock, when an alert comes on screen (true) and when the
    /// last goes (false).
    private let onScreen: @Sendable (Bool) -> Void
    /// The screen's size in pixels as the viewer sees it (the alert's text is fitted to it).
    private let outputSize: @Sendable () -> (width: Int, height: Int)
    private let logger: Logger

    /// Guards `board`, `pending`, `lastIssued`, `needsNext`, `failuresInARow`, `stopping`. Never held while
    /// the engine is called or a file is written.
    private let lock = ThreadLock()
    private var board: AlertBoard
    /// Interrupts issued for the alert on screen that have not ended, with how often each plays.
    private var pending: [ItemID: Int] = [:]
    /// When one of them last started or was issued (monotonic): a chain that shows nothing for long was cut.
    private var lastProgress = 0.0
    private var lastIssued: ItemID?
    /// The last issued one started: the next one goes behind it now.
    private var needsNext = false
    private var failuresInARow = 0
    private var stopping = false
    /// Whether the queue was paused by an alert of text alone (kept in the file: a restart resumes it after).
    private var pausedByAlert: Bool

    /// File writes, one at a time and in order (never on the engine's or the event loop's threads).
    private let files = DispatchQueue(label: "queued.alerts.file")
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    /// Owned by the reconciling thread: what it has put on screen.
    private var shown: Shown?
    private struct Shown {
        var alert: Alert
        var items: [MediaItem]
        var next = 0
        /// The layers of its text: the box, then a line each.
        var overlays: [Int] = []
    }

    /// Reads the alert file (a damaged one is set aside: it never stops the start) and drops alerts that
    /// expired meanwhile.
    public init(
        engine: PlayerEngine, path: String?, logger: Logger, wallClock: @escaping @Sendable () -> Double = Monotonic.wallClock,
        outputSize: @escaping @Sendable () -> (width: Int, height: Int),
        onIssued: @escaping @Sendable (ItemID) -> Void = { _ in },
        onScreen: @escaping @Sendable (Bool) -> Void = { _ in },
        makeItems: @escaping @Sendable ([JSONValue]) throws -> [MediaItem]
    ) {
        self.engine = engine
        self.onIssued = onIssued
        self.onScreen = onScreen
        self.outputSize = outputSize
        self.path = path
        self.logger = logger
        self.wallClock = wallClock
        self.makeItems = makeItems
        let kept = path.map { AlertController.read($0, logger: logger) } ?? (alerts: [], paused: false)
        var board = AlertBoard(kept.alerts)
        let gone = board.expire(now: wallClock())
        for alert in gone { logger.notice("alert \(alert.id) expired while the daemon was down") }
        self.board = board
        pausedByAlert = kept.paused
        if !gone.isEmpty, let failure = keepNow() { logger.error("alerts: \(failure)") }
    }

    // MARK: Calls (any thread)

    /// The most alerts that stand at once.
    public static let capacity = 100

    /// Raises (or replaces) `alert` once it is kept; `done` gets nil, or why it was not.
    public func raise(_ alert: Alert, done: @escaping @Sendable (String?) -> Void) {
        files.async { [self] in
            let now = wallClock()
            let (outcome, before) = lock.withLock { () -> (String?, Alert?) in
                let before = board.alerts[alert.id]
                guard before != nil || board.alerts.count < Self.capacity else { return ("\(Self.capacity) alerts stand already", nil) }
                return (board.raise(alert, now: now) ? nil : "the alert has already expired", before)
            }
            if let outcome { return done(outcome) }
            if let failure = keepNow() {
                // Back as it was: the one it replaced, or none.
                lock.withLock {
                    _ = board.clear(alert.id)
                    if let before { _ = board.raise(before, now: -.infinity) }
                }
                return done(failure)
            }
            logger.notice("alert \(alert.id) raised (priority \(alert.priority))")
            wake.signal()
            done(nil)
        }
    }

    /// Withdraws the alert `id` once that is kept; `done` gets whether there was one, or why it failed.
    public func clear(_ id: String, done: @escaping @Sendable (Result<Bool, AlertFailure>) -> Void) {
        files.async { [self] in
            let removed = lock.withLock { () -> Alert? in
                defer { _ = board.clear(id) }
                return board.alerts[id]
            }
            guard let removed else { return done(.success(false)) }
            if let failure = keepNow() {
                lock.withLock { _ = board.raise(removed, now: -.infinity) }
                return done(.failure(AlertFailure(failure)))
            }
            logger.notice("alert \(id) cleared")
            wake.signal()
            done(.success(true))
        }
    }

    /// The alerts standing, the one on screen first.
    public var alerts: [Alert] { lock.withLock { board.ordered } }

    /// The alert on screen now, if any (queue.interrupt is refused meanwhile: it would play inside the alert).
    public var activeID: String? { lock.withLock { board.active?.id } }

    /// The main engine's events (its event thread: notes and wakes, never waits).
    public func engineEvent(_ event: PlayerEvent) {
        switch event {
        case .itemStarted(let id, _, _, _, true, _, _, _, _):
            let wanted = lock.withLock { () -> Bool in
                guard pending[id] != nil else { return false }
                lastProgress = Monotonic.now()
                guard id == lastIssued else { return false }
                needsNext = true
                return true
            }
            if wanted { wake.signal() }
        case .itemEnded(let id, let play, let reason, let error, true):
            lock.withLock {
                // An interrupt of several plays ends after its last (or one cut short).
                guard let plays = pending[id], play >= plays || reason != .eof else { return }
                pending[id] = nil
                if error != nil || reason == .error { failuresInARow += 1 } else if reason == .eof { failuresInARow = 0 }
            }
            wake.signal()
        default:
            break
        }
    }

    // MARK: Lifecycle

    /// Removes the layers a previous run left (they were kept with the player's state), then shows what stands.
    public func start() {
        let stale = engine.overlays().filter { $0.z == Self.overlayZ }.map(\.id)
        if !stale.isEmpty { try? engine.removeOverlays(stale) }
        Threads.start(named: "queued.alerts") { [self] in
            while true {
                let next = lock.withLock { board.nextExpiry }
                let wait = min(1, max(0.01, (next ?? .infinity) - wallClock()))
                _ = wake.wait(timeout: .now() + wait)
                if lock.withLock({ stopping }) { break }
                reconcile()
            }
            finished.signal()
        }
    }

    /// Stops the thread; what is on screen stays (the state keeps it for the next start).
    public func stop() {
        lock.withLock { stopping = true }
        wake.signal()
        finished.wait()
        // Every change asked for is on disk before the daemon exits or restarts.
        files.sync {}
    }

    // MARK: The reconciling thread

    private func reconcile() {
        let now = wallClock()
        let (expired, active) = lock.withLock { (board.expire(now: now), board.active) }
        if !expired.isEmpty {
            for alert in expired { logger.notice("alert \(alert.id) expired") }
            keepLater()
        }
        // A queue paused for an alert that is gone (it expired while the daemon was down) plays again.
        if shown == nil, active == nil, lock.withLock({ pausedByAlert }) {
            if engine.status().state == .paused { try? engine.play() }
            setPausedByAlert(false)
        }
        if shown?.alert != active {
            if let shown { takeDown(shown) }
            let wasShown = shown != nil
            shown = nil
            if let active { show(active) }
            if wasShown != (active != nil) { onScreen(active != nil) }
        } else if shown != nil {
            keepUp()
        }
    }

    private func show(_ alert: Alert) {
        var items: [MediaItem] = []
        do {
            items = try makeItems(alert.items)
        } catch {
            logger.error("alert \(alert.id): its items cannot play (\(error)); its text alone is shown")
        }
        let shown = Shown(alert: alert, items: items)
        engine.setScreenPower(.on)
        lock.withLock {
            pending = [:]
            lastIssued = nil
            needsNext = false
            failuresInARow = 0
            lastProgress = Monotonic.now()
        }
        if items.isEmpty {
            let state = engine.status().state
            if state == .playing {
                engine.pause()
                setPausedByAlert(true)
            }
        }
        self.shown = shown
        keepUp()
        logger.notice("alert \(alert.id) on screen: \(items.count) items\(alert.text != nil ? " and its text" : "")")
    }

    /// Puts back what the alert needs: its layer, and an interrupt playing with the next one behind it.
    private func keepUp() {
        guard var shown else { return }
        let (wantsNext, waiting, failures) = lock.withLock { () -> (Bool, Int, Int) in
            let wants = needsNext
            needsNext = false
            return (wants, pending.count, failuresInARow)
        }
        // Items that fail every time (a file gone, a URL down) are given up after two rounds: the text, or
        // the alert's id, stands in for them.
        let playable = !shown.items.isEmpty && failures < shown.items.count * 2
        if let words = shown.alert.text ?? (playable ? nil : "ALERT: \(shown.alert.id)") {
            let present = Set(engine.overlays().map(\.id))
            if shown.overlays.isEmpty || !shown.overlays.allSatisfy(present.contains) {
                let left = shown.overlays.filter(present.contains)
                if !left.isEmpty { try? engine.removeOverlays(left) }
                let size = outputSize()
                shown.overlays = Self.layers(words, width: size.width, height: size.height).compactMap { try? engine.addOverlay($0) }
            }
        }
        if playable {
            // Issued interrupts that are neither heard nor started for 10 s were dropped by a cut elsewhere (a
            // stop, a jump, a cleared queue): they are taken back and the chain starts again.
            let status = engine.status()
            let (heard, quiet) = lock.withLock {
                (status.currentID.map { pending[$0] != nil } ?? false, Monotonic.now() - lastProgress)
            }
            let cut = waiting > 0 && !heard && quiet > 10
            if cut {
                let stale = lock.withLock { () -> Set<ItemID> in
                    defer { pending = [:] }
                    return Set(pending.keys)
                }
                engine.withdrawInterrupts(stale)
                logger.warning("alert \(shown.alert.id): its interrupts were cut elsewhere; playing it again")
            }
            // None under way: one to play and the next behind it; else the next once the last one started.
            let count = cut || waiting == 0 ? 2 : wantsNext ? 1 : 0
            for _ in 0..<count { issue(&shown) }
        }
        self.shown = shown
    }

    private func issue(_ shown: inout Shown) {
        var item = shown.items[shown.next % shown.items.count]
        shown.next += 1
        let plays = max(1, item.loops)
        item.loops = 1
        do {
            _ = try engine.interrupt(item, plays: plays) { id in
                onIssued(id)
                lock.withLock {
                    pending[id] = plays
                    lastIssued = id
                    lastProgress = Monotonic.now()
                }
            }
        } catch {
            lock.withLock { failuresInARow += 1 }
            logger.error("alert \(shown.alert.id): \(item.uri) cannot play: \(error)")
        }
    }

    private func takeDown(_ shown: Shown) {
        let ids = lock.withLock { () -> Set<ItemID> in
            let ids = Set(pending.keys)
            pending = [:]
            lastIssued = nil
            return ids
        }
        engine.withdrawInterrupts(ids)
        if !shown.overlays.isEmpty { try? engine.removeOverlays(shown.overlays) }
        if lock.withLock({ pausedByAlert }) {
            if engine.status().state == .paused { try? engine.play() }
            setPausedByAlert(false)
        }
        engine.setScreenPower(.auto)
        logger.notice("alert \(shown.alert.id) off screen")
    }

    private func setPausedByAlert(_ paused: Bool) {
        lock.withLock { pausedByAlert = paused }
        keepLater()
    }

    /// Keeps the board as it is when the write comes (never an older snapshot over a newer write).
    private func keepLater() {
        files.async { [self] in
            if let failure = keepNow() { logger.error("alerts: \(failure)") }
        }
    }

    /// The layers of an alert's text: an opaque black box over the whole screen (it reaches 1000 px beyond its
    /// centre on every side), then the text in white, wrapped at words into lines of at most 32 characters
    /// and sized so that the longest fits 90 % of the width and all of them 80 % of the height (text layers
    /// are one line each: a line per layer, centred as a block). Above every other layer.
    static func layers(_ text: String, width: Int, height: Int) -> [Overlay] {
        let lines = wrap(text, columns: 32)
        let longest = Double(max(1, lines.map(\.count).max() ?? 1))
        // DejaVu Sans: a character is about 0.6 of the font's height wide; a line 1.25 of it high.
        let byWidth = 0.9 * Double(width) / (0.6 * longest)
        let byHeight = 0.8 * Double(height) / (1.25 * Double(lines.count))
        let size = Int(max(12, min(120, byWidth, byHeight)))
        let step = Double(size) * 1.25
        let box = Overlay(
            content: .text(" "), style: OverlayStyle(size: size, color: .white, background: OverlayColor(red: 0, green: 0, blue: 0), padding: 1000),
            anchor: .center, z: overlayZ)
        let words = lines.enumerated().map { index, line in
            Overlay(
                content: .text(line), style: OverlayStyle(size: size, color: .white, padding: 0), anchor: .center,
                y: .pixels((Double(index) - Double(lines.count - 1) / 2) * step), z: overlayZ)
        }
        return [box] + words
    }

    /// `text` in lines of at most `columns` characters, broken at spaces (a longer word stands alone) and
    /// at the line breaks it has; at most 8 lines (the rest joins the last).
    static func wrap(_ text: String, columns: Int) -> [String] {
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            for word in paragraph.split(separator: " ") {
                if line.isEmpty {
                    line = String(word)
                } else if line.count + 1 + word.count <= columns {
                    line += " " + word
                } else {
                    lines.append(line)
                    line = String(word)
                }
            }
            lines.append(line)
        }
        if lines.count > 8 { lines = Array(lines.prefix(7)) + [lines.dropFirst(7).joined(separator: " ")] }
        return lines
    }

    // MARK: The file

    /// The file queue: writes the board and the pause as they are now; nil, or why it could not.
    private func keepNow() -> String? {
        guard let path else { return nil }
        let (board, paused) = lock.withLock { (self.board, pausedByAlert) }
        do {
            try DurableFile.replace(path, with: Self.fileBytes(board, paused: paused))
            return nil
        } catch {
            return "the alerts could not be kept: \(error)"
        }
    }

    static func fileBytes(_ board: AlertBoard, paused: Bool) -> [UInt8] {
        JSON.serialize(.object(["alerts": .array(board.ordered.map(\.json)), "pausedByAlert": .bool(paused)]))
    }

    static func read(_ path: String, logger: Logger) -> (alerts: [Alert], paused: Bool) {
        guard let data = FileManager.default.contents(atPath: path) else { return ([], false) }
        guard let json = try? JSON.parse([UInt8](data)), let list = json["alerts"]?.arrayValue else {
            let aside = path + ".damaged"
            _ = rename(path, aside)
            logger.error("\(path) could not be read; set aside as \(aside): no alerts are restored")
            return ([], false)
        }
        let alerts = list.compactMap(Alert.init(json:))
        if alerts.count != list.count { logger.error("\(path): \(list.count - alerts.count) alerts could not be read") }
        return (alerts, json["pausedByAlert"]?.boolValue ?? false)
    }
}

public struct AlertFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
