// Settings for the SDL video output, chosen by the daemon (from its options) or by tests, and what a test
// probe receives after each present. Plain values: built on any thread, read by the presenter thread.

import Playback

public struct SDLVideoConfig: Sendable {
    /// SDL video driver to use ("x11", "wayland", "offscreen", "dummy"); nil = SDL's choice from the
    /// environment (`SDL_VIDEODRIVER`). When set it overrides the environment.
    public var driver: String?
    /// SDL render driver ("software", "opengl", "opengles2"); nil = accelerated if available, else software.
    /// When set it overrides `SDL_RENDER_DRIVER` in the environment.
    public var renderDriver: String?
    public var width: Int = 1280
    public var height: Int = 720
    /// Start in desktop fullscreen.
    public var fullscreen: Bool = false
    public var fit: VideoFit = .fit
    /// How the picture is turned on the screen (a portrait panel is a landscape one turned by 90 or 270).
    public var rotation: VideoRotation = .upright
    /// This screen's part of a video wall's picture (nil: the whole picture).
    public var wall: WallPlacement?
    /// Ask the renderer to wait for vertical blank in `present` (ignored by drivers without one).
    public var vsync: Bool = true
    public var title: String = "queued"
    /// For tests: called on the presenter thread after each present with what is on screen. Setting it
    /// costs a full read-back per present, so the daemon leaves it nil.
    public var probe: (@Sendable (PresentedPicture) -> Void)?

    public init(
        driver: String? = nil, renderDriver: String? = nil, width: Int = 1280, height: Int = 720,
        fullscreen: Bool = false, fit: VideoFit = .fit, rotation: VideoRotation = .upright, vsync: Bool = true,
        title: String = "queued", probe: (@Sendable (PresentedPicture) -> Void)? = nil
    ) {
        self.driver = driver
        self.renderDriver = renderDriver
        self.width = width
        self.height = height
        self.fullscreen = fullscreen
        self.fit = fit
        self.rotation = rotation
        self.vsync = vsync
        self.title = title
        self.probe = probe
    }
}

/// One presented picture as the renderer had it, read back just before `SDL_RenderPresent`.
public struct PresentedPicture: Sendable {
    /// CLOCK_MONOTONIC in nanoseconds, taken right after `SDL_RenderPresent` returned.
    public var presentedAtNanos: UInt64
    /// Renderer output size in pixels (the window's drawable size).
    public var width: Int
    public var height: Int
    /// `width * height * 4` bytes, R,G,B,A, top row first.
    public var rgba: [UInt8]

    public init(presentedAtNanos: UInt64, width: Int, height: Int, rgba: [UInt8]) {
        self.presentedAtNanos = presentedAtNanos
        self.width = width
        self.height = height
        self.rgba = rgba
    }

    /// The (r, g, b) at a pixel; for tests.
    public func rgb(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8) {
        let index = (y * width + x) * 4
        return (rgba[index], rgba[index + 1], rgba[index + 2])
    }
}
