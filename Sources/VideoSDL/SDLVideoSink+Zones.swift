// The compositor's zones. With a layout set, the window shows every zone's picture in its rectangle: the
// main zone's from the sink's own presenter thread (the SDL thread, as before), every other zone's from its
// own engine through a ZoneSurface, which only posts what its presenter asked for into the inbox here. The
// SDL thread takes the inbox at its next draw — the main zone's next picture, or a `pump` that the
// poster woke it for — and draws every zone once (SDL's viewport set to the zone's rectangle, so each is
// drawn exactly as the whole screen would be). A zone's change thus never waits for, or drops a picture
// of, another zone; changes that arrive between two draws are drawn together.

import CSDL2
import Dispatch
import Media
import Overlays
import Playback
import QueueModel
import ScreenLayout
import SystemSupport

/// What a zone's presenter asked for since the compositor last drew (nil fields: unchanged).
struct ZoneUpdate {
    enum Picture {
        case show(VideoFrame)
        case black
    }
    var picture: Picture?
    var veil: PictureVeil??
    var motion: MotionFrame??
    var crossfade: CrossfadeLayer??
    var fit: VideoFit?
    var rotation: VideoRotation?

    /// `later` posted after this: its fields where it has them.
    func merged(with later: ZoneUpdate) -> ZoneUpdate {
        var merged = self
        if let picture = later.picture {
            // A picture shown counts, even if a later one replaces it (the texture is made again).
            merged.picture = picture
        }
        if let veil = later.veil { merged.veil = veil }
        if let motion = later.motion { merged.motion = motion }
        if let crossfade = later.crossfade { merged.crossfade = crossfade }
        if let fit = later.fit { merged.fit = fit }
        if let rotation = later.rotation { merged.rotation = rotation }
        return merged
    }
}

/// Guarded by its lock: what zone surfaces (their presenter threads) and the daemon (a new layout) posted
/// for the SDL thread, and who wakes the SDL thread for it. The wake runs on a queue of its own, never on the
/// poster's thread: it takes the main engine's lock, and a poster may be delivering that engine's events
/// (holding its delivery lock, which comes after the engine lock), or another lock of the daemon's.
final class ZoneInbox: @unchecked Sendable {
    private let lock = ThreadLock()
    private var layout: Layout?
    private var updates: [String: ZoneUpdate] = [:]
    /// The layout last posted (what sizes are answered from).
    private var current = Layout.fullScreen
    private var wake: (@Sendable () -> Void)?
    /// A wake is queued and has not run yet (posts meanwhile need none of their own).
    private var wakeQueued = false
    private let wakeQueue = DispatchQueue(label: "queued.compositor-wake")

    func setWake(_ wake: (@Sendable () -> Void)?) { lock.withLock { self.wake = wake } }

    /// Any thread: `zone`'s update changed by `change`; the SDL thread is woken soon.
    func post(zone: String, _ change: (inout ZoneUpdate) -> Void) {
        let needsWake = lock.withLock {
            change(&updates[zone, default: ZoneUpdate()])
            return queueWakeLocked()
        }
        if needsWake { sendWake() }
    }

    func post(layout: Layout) {
        let needsWake = lock.withLock {
            self.layout = layout
            current = layout
            return queueWakeLocked()
        }
        if needsWake { sendWake() }
    }

    private func queueWakeLocked() -> Bool {
        guard wake != nil, !wakeQueued else { return false }
        wakeQueued = true
        return true
    }

    private func sendWake() {
        wakeQueue.async { [self] in
            let wake = lock.withLock {
                wakeQueued = false
                return self.wake
            }
            wake?()
        }
    }

    var isEmpty: Bool { lock.withLock { layout == nil && updates.isEmpty } }

    var currentLayout: Layout { lock.withLock { current } }

    /// SDL thread: everything posted since the last take.
    func take() -> (layout: Layout?, updates: [String: ZoneUpdate]) {
        lock.withLock {
            defer { (layout, updates) = (nil, [:]) }
            return (layout, updates)
        }
    }
}

extension SDLVideoSink {
    /// Any thread: the zones to draw from the next draw on. Zones that keep their name keep their picture.
    public func setLayout(_ layout: Layout) {
        zoneInbox.post(layout: layout)
    }

    /// Any thread: called after a zone posted a change, to have the SDL thread (the main zone's presenter)
    /// draw it soon; the daemon wakes that presenter with it.
    public func setZoneWake(_ wake: (@Sendable () -> Void)?) {
        zoneInbox.setWake(wake)
    }

    /// A VideoSink for the engine of zone `name`: it draws in that zone's rectangle of this window.
    public func surface(forZone name: String) -> VideoSink {
        ZoneSurface(zone: name, compositor: self)
    }

    /// Whether zones posted changes not drawn yet (the presenter then pumps at once). Any thread.
    public var hasPendingDraw: Bool { !zoneInbox.isEmpty }

    /// Any thread: the size zone `name` is drawn at now (nil: not on the screen).
    func zoneSize(_ name: String) -> PixelSize? {
        guard let output = outputSize else { return nil }
        let layout = zoneInbox.currentLayout
        guard let placed = layout.placed(width: output.width, height: output.height).first(where: { $0.zone.name == name }),
            placed.rect.pixels > 0
        else { return nil }
        return PixelSize(width: placed.rect.width, height: placed.rect.height)
    }

    /// SDL thread: applies what was posted (a layout, zones' pictures and settings) to the zones' pictures.
    func takeZoneUpdates() {
        let (newLayout, updates) = zoneInbox.take()
        if let newLayout {
            let old = layout
            layout = newLayout
            for name in zonePictures.keys where newLayout.zone(named: name) == nil {
                zonePictures[name] = nil  // its textures go with it (deinit, on this thread)
            }
            for zone in newLayout.zones {
                let picture = picture(of: zone.name)
                picture.background = zone.background.map {
                    (UInt8(($0 >> 16) & 0xFF), UInt8(($0 >> 8) & 0xFF), UInt8($0 & 0xFF))
                }
                // The layout's fit when the zone is new or the layout changed it (`player.set` may have since).
                let before = old.zone(named: zone.name)
                // Not main's: its fit is the screen's own (`player.set`, `--fit`), kept through layouts.
                if zone.name != Layout.mainZone, newLayout != .fullScreen, before == nil || before?.fit != zone.fit || old == .fullScreen {
                    picture.fit = VideoFit(rawValue: zone.fit.rawValue) ?? .fit
                }
            }
        }
        if newLayout != nil {
            // What zones made just before the layout that names them posted it (their engines start first);
            // the rest wait on (a takeover's layout may come between), a few at most.
            for (name, update) in heldZoneUpdates where layout.zone(named: name) != nil {
                apply(update, to: picture(of: name))
                heldZoneUpdates[name] = nil
            }
            if heldZoneUpdates.count > 32 { heldZoneUpdates = [:] }
        }
        for (name, update) in updates {
            guard name == Layout.mainZone || layout.zone(named: name) != nil else {
                heldZoneUpdates[name] = heldZoneUpdates[name].map { $0.merged(with: update) } ?? update
                continue
            }
            apply(update, to: picture(of: name))
        }
    }

    /// The picture of zone `name` (made when first needed).
    private func picture(of name: String) -> ZonePicture {
        if name == Layout.mainZone { return main }
        if let picture = zonePictures[name] { return picture }
        let picture = ZonePicture(fit: .fit, rotation: .upright)
        zonePictures[name] = picture
        return picture
    }

    private func apply(_ update: ZoneUpdate, to picture: ZonePicture) {
        if let fit = update.fit { picture.fit = fit }
        if let rotation = update.rotation { picture.rotation = rotation }
        if let veil = update.veil { picture.veil = veil }
        if let motion = update.motion { picture.motion = motion }
        if let crossfade = update.crossfade { picture.setCrossfade(crossfade) }
        switch update.picture {
        case .show(let frame):
            picture.take(frame)
        case .black:
            picture.lastFrame = nil
        case nil:
            break
        }
    }

    /// Every zone with a rectangle, bottom first, each in SDL's viewport set to its rectangle.
    func drawZones(_ renderer: OpaquePointer, output: (width: Int, height: Int)) {
        for placed in layout.placed(width: output.width, height: output.height) where placed.rect.pixels > 0 {
            let picture = placed.zone.name == Layout.mainZone ? main : zonePictures[placed.zone.name]
            var viewport = SDL_Rect(
                x: Int32(placed.rect.x), y: Int32(placed.rect.y), w: Int32(placed.rect.width),
                h: Int32(placed.rect.height))
            SDL_RenderSetViewport(renderer, &viewport)
            let background = picture?.background ?? (0, 0, 0)
            SDL_SetRenderDrawColor(renderer, background.red, background.green, background.blue, 255)
            SDL_RenderFillRect(renderer, nil)
            if let picture {
                drawZone(picture, renderer, output: (placed.rect.width, placed.rect.height))
            }
            // The zone's own layers, anchored to it and turned with its pictures.
            let layers = drawnLayers.filter { $0.zone == placed.zone.name }
            if !layers.isEmpty {
                painter?.draw(
                    layers, renderer: renderer, output: (placed.rect.width, placed.rect.height),
                    rotation: picture?.rotation ?? .upright, now: lastDrawAt, alive: drawnLayers)
            }
        }
        SDL_RenderSetViewport(renderer, nil)
    }
}

/// The video output of one zone's engine: whatever its presenter asks for is posted to the compositor
/// (the window's SDLVideoSink), which draws it in the zone's rectangle. Its calls never touch SDL and
/// never wait; the zone's presenter paces its pictures by its own clock, as on a screen of its own.
final class ZoneSurface: VideoSink, @unchecked Sendable {
    let zone: String
    private let compositor: SDLVideoSink

    init(zone: String, compositor: SDLVideoSink) {
        self.zone = zone
        self.compositor = compositor
    }

    private func post(_ change: (inout ZoneUpdate) -> Void) { compositor.zoneInbox.post(zone: zone, change) }

    func open() throws {}
    func show(_ frame: VideoFrame) { post { $0.picture = .show(frame) } }
    func showBlack() { post { $0.picture = .black } }
    func pump() {}
    func setFit(_ fit: VideoFit) { post { $0.fit = fit } }
    /// The window belongs to the main zone.
    func setFullscreen(_ fullscreen: Bool) {}
    func setRotation(_ rotation: VideoRotation) { post { $0.rotation = rotation } }
    /// The whole screen, as every zone is part of it.
    func screenshot(_ request: ScreenshotRequest) -> Screenshot? { compositor.screenshot(request) }
    func setVeil(_ veil: PictureVeil?) { post { $0.veil = .some(veil) } }
    func setMotion(_ frame: MotionFrame?) { post { $0.motion = .some(frame) } }
    func setCrossfade(_ crossfade: CrossfadeLayer?) { post { $0.crossfade = .some(crossfade) } }
    /// Any post makes the compositor draw every zone again.
    func redraw() { post { _ in } }
    func close() { post { $0.picture = .black } }
    var outputSize: PixelSize? { compositor.zoneSize(zone) }
    func screenPowerSupport() -> ScreenPowerSupport { .unsupported("the screen's power belongs to the main zone") }
    func setScreenPower(_ on: Bool) -> ScreenPowerOutcome { .failed("the screen's power belongs to the main zone") }
}
