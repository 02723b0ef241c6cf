// The SDL2 video output. The engine's presenter thread calls open, show, showBlack, pump, setFit,
// setRotation, setFullscreen and close; every SDL call happens on that thread, which owns the window, renderer, texture
// and last frame. Other threads only call `screenshot` (through ScreenshotMailbox) and read `quitRequested`.

import CSDL2
import CScreenPower
import FoundationEssentials
import Glibc
import SystemSupport
import Logging
import Media
import Overlays
import Playback
import QueueModel
import ScreenLayout

public final class SDLVideoSink: VideoSink, @unchecked Sendable {
    /// Set at init; `fit`, `rotation` and `fullscreen` then change on the presenter thread only.
    var config: SDLVideoConfig
    let logger: Logger

    // Owned by the presenter thread (SDL handles, freed in `close`).
    var window: OpaquePointer?
    var renderer: OpaquePointer?
    /// The picture of the whole screen, or of the `main` zone when a layout is set.
    let main: ZonePicture
    /// Presenter thread: set with SDL's software renderer, which draws pictures scaled to their size here.
    var prescaler: PictureScaler?
    /// The layout drawn, and every other zone's picture by name (SDL thread; see SDLVideoSink+Zones).
    var layout = Layout.fullScreen
    var zonePictures: [String: ZonePicture] = [:]
    /// Updates from zones the layout drawn does not name yet (kept until the next layout: a new zone's
    /// engine starts, and posts its first picture, before the layout naming it is posted).
    var heldZoneUpdates: [String: ZoneUpdate] = [:]
    /// How the screen is put to sleep (QD_SCREEN_POWER_*), what turning it off changed, and whether a DRM
    /// screen sleeps now (nothing is presented then). Presenter thread.
    var screenPowerMethod: Int32 = 0
    var screenPowerMemory = qd_screen_power_memory()
    var screenAsleep = false
    /// A window event or a fit change asked for a redraw at the next `pump`.
    var needsRedraw = false
    /// The last SDL failure logged by show/draw, so a failing call logs once, not 60 times a second.
    var lastLoggedFailure: String?
    /// Overlays (presenter thread): what to draw, the item they describe, the painter with its textures
    /// (made at open, dropped before the renderer at close), and what the last draw showed and when.
    var overlays = OverlaySet()
    var overlayItem: PlayingItem?
    var painter: OverlayPainter?
    var drawnLayers: [OverlayLayer] = []
    var lastDrawAt = 0.0
    /// Presenter thread: the renderer's whole output at this draw (a wall's part is cut only from it).
    var wholeOutput = (width: 0, height: 0)
    /// When `show` last put a new picture up (monotonic seconds): while pictures flow, overlays change with them.
    var lastShowAt = -Double.infinity

    let mailbox = ScreenshotMailbox()
    /// What other zones' surfaces posted for the SDL thread (any thread; its own lock).
    let zoneInbox = ZoneInbox()
    private let quitLock = ThreadLock()
    /// Guarded by `quitLock`.
    private var quitFlag = false
    /// The renderer's output size as last drawn (the configured window until then). Written on the
    /// presenter thread, read by the decode threads; guarded by `sizeLock`.
    private var drawnSize: PixelSize?
    private let sizeLock = ThreadLock()

    public var outputSize: PixelSize? {
        sizeLock.withLock { drawnSize }
    }

    /// Told the name of each key pressed in the window (SDL's names: "F1", "Space", "A"), on the presenter
    /// thread (only to hand it on); guarded by `sizeLock`. Set by the daemon for its key triggers.
    private var keyListener: (@Sendable (String) -> Void)?
    public func setKeyListener(_ listener: @escaping @Sendable (String) -> Void) { sizeLock.withLock { keyListener = listener } }
    func keyPressed(_ name: String) { sizeLock.withLock { keyListener }?(name) }

    /// Presenter thread: the output is `size` now.
    func noteOutputSize(_ size: (width: Int, height: Int)) {
        let size = PixelSize(width: size.width, height: size.height)
        sizeLock.withLock { if drawnSize != size { drawnSize = size } }
    }

    /// How long `screenshot` from another thread waits for the presenter thread.
    static let screenshotTimeout = 2.0

    public init(config: SDLVideoConfig, logger: Logger) {
        self.config = config
        self.logger = logger
        main = ZonePicture(fit: config.fit, rotation: config.rotation)
        main.wall = config.wall
        drawnSize = PixelSize(width: config.width, height: config.height)
    }

    /// The window was closed (SDL_QUIT seen by `pump`): the daemon should exit. Any thread.
    public var quitRequested: Bool {
        quitLock.withLock { quitFlag }
    }

    public var closeRequested: Bool { quitRequested }

    func requestQuit() {
        quitLock.withLock { quitFlag = true }
    }

    /// Debug builds: traps when an open sink is driven from a thread other than the one that opened it.
    func assertOnSinkThread(_ function: StaticString = #function) {
        assert(renderer == nil || mailbox.callerIsOwner, "SDLVideoSink.\(function) called off the presenter thread")
    }

    // MARK: - Lifecycle (presenter thread)

    public func open() throws {
        guard window == nil else { return }
        // SDL would otherwise turn SIGINT/SIGTERM into SDL_QUIT events and the daemon's own graceful
        // shutdown would never see them.
        SDL_SetHintWithPriority(SDL_HINT_NO_SIGNAL_HANDLERS, "1", SDL_HINT_OVERRIDE)
        if let driver = config.driver {
            // OVERRIDE: an explicit choice beats SDL_VIDEODRIVER in the environment.
            SDL_SetHintWithPriority(SDL_HINT_VIDEODRIVER, driver, SDL_HINT_OVERRIDE)
        } else {
            SDL_ResetHint(SDL_HINT_VIDEODRIVER)  // back to the environment, whatever an earlier open set
        }
        if let renderDriver = config.renderDriver {
            SDL_SetHintWithPriority(SDL_HINT_RENDER_DRIVER, renderDriver, SDL_HINT_OVERRIDE)
        } else {
            SDL_ResetHint(SDL_HINT_RENDER_DRIVER)
        }
        SDL_SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "linear")
        // VideoFrame carries no colour matrix yet: guess like mpv does, BT.601 for SD, BT.709 for HD.
        SDL_SetYUVConversionMode(SDL_YUV_CONVERSION_AUTOMATIC)
        try SDLVideoError.check(SDL_InitSubSystem(SDL_INIT_VIDEO), "SDL_InitSubSystem(video)")
        do {
            try createWindowAndRenderer()
        } catch {
            destroyHandles()
            SDL_QuitSubSystem(SDL_INIT_VIDEO)
            throw error
        }
        painter = OverlayPainter(logger: logger)
        mailbox.open(owner: pthread_self())
        clearToBlack()
        SDL_RenderPresent(renderer)
    }

    private func createWindowAndRenderer() throws {
        var flags = SDL_WINDOW_SHOWN.rawValue | SDL_WINDOW_RESIZABLE.rawValue
        if config.fullscreen { flags |= SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue }
        let centered = qd_sdl_windowpos_centered()
        guard
            let window = SDL_CreateWindow(
                config.title, centered, centered, Int32(clamping: config.width), Int32(clamping: config.height), flags)
        else { throw SDLVideoError.current("SDL_CreateWindow") }
        self.window = window

        let renderer = try createRenderer(for: window)
        self.renderer = renderer
        prescaler = Self.rendererName(renderer) == "software" ? PictureScaler() : nil

        var info = SDL_RendererInfo()
        _ = SDL_GetRendererInfo(renderer, &info)
        let driver = SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? "?"
        logger.info(
            "video output open",
            metadata: [
                "sdl.driver": "\(driver)",
                "sdl.renderer": "\(info.name.map { String(cString: $0) } ?? "?")",
                "sdl.vsync": "\(vsyncDescription(info))",
                "window": "\(config.width)x\(config.height)\(config.fullscreen ? " fullscreen" : "")",
            ])
    }

    public func close() {
        assertOnSinkThread()
        mailbox.close()
        guard window != nil else { return }
        destroyHandles()
        main.lastFrame = nil
        SDL_QuitSubSystem(SDL_INIT_VIDEO)
        logger.info("video output closed")
    }

    private func destroyHandles() {
        painter = nil  // its textures belong to the renderer
        prescaler = nil
        drawnLayers = []
        // Textures before their renderer.
        main.releaseTextures()
        for picture in zonePictures.values { picture.releaseTextures() }
        if let renderer { SDL_DestroyRenderer(renderer) }
        if let window { SDL_DestroyWindow(window) }
        renderer = nil
        window = nil
    }

    // MARK: - Settings (presenter thread)

    /// Applies to the next `show`, and redraws the current picture at the next `pump` (useful when paused).
    public func setFit(_ fit: VideoFit) {
        assertOnSinkThread()
        guard fit != config.fit else { return }
        config.fit = fit
        main.fit = fit
        needsRedraw = true
    }

    /// Like `setFit`: the next `show`, and a redraw of the current picture at the next `pump`.
    public func setRotation(_ rotation: VideoRotation) {
        assertOnSinkThread()
        guard rotation != config.rotation else { return }
        config.rotation = rotation
        main.rotation = rotation
        needsRedraw = true
    }

    public func setFullscreen(_ fullscreen: Bool) {
        assertOnSinkThread()
        guard let window, fullscreen != config.fullscreen else { return }
        let flags = fullscreen ? SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue : 0
        if SDL_SetWindowFullscreen(window, flags) < 0 {
            logger.warning("cannot change fullscreen", metadata: ["sdl.error": "\(sdlErrorText())"])
            return
        }
        config.fullscreen = fullscreen
        needsRedraw = true
    }
}

extension SDLVideoSink {
    /// The main picture's texture as made, and how many pictures it scaled (for tests).
    var textureShape: TextureShape? { main.textureShape }
    var scaledPictures: Int { main.scaledPictures }
}
