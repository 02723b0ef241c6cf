// The narrow interfaces between the engine and its outputs (after MPD's output Interface.hxx).
// The engine's decode thread writes audio; the engine's presenter thread drives the video sink. Sinks
// implement these in their own modules (AudioPulse, VideoSDL) or here (null and capture outputs for tests).

import Media
import Overlays
import QueueModel

/// Interleaved 32-bit float PCM at a fixed rate and channel count, for the whole life of the sink.
public struct AudioFormat: Sendable, Equatable {
    public var sampleRate: Int
    public var channels: Int
    public init(sampleRate: Int = 48_000, channels: Int = 2) {
        self.sampleRate = sampleRate
        self.channels = channels
    }
}

/// One long-lived audio stream spanning every item: gapless means it is never reopened between items.
///
/// Positions are in frames on the output timeline: frame N is the N-th frame ever accepted by `write`
/// (after a `flush`, the timeline continues from where the listener was).
public protocol AudioSink: AnyObject, Sendable {
    var format: AudioFormat { get }
    /// Queues interleaved samples (`samples.count` is a multiple of `format.channels`), blocking while the
    /// sink's buffer is full. Returns false if it gave up because of `flush`, `close` or a dead server.
    /// Called only from the engine's decode thread.
    func write(_ samples: [Float]) -> Bool
    /// Frames accepted by `write` so far.
    func writtenFrames() -> Int64
    /// Frames the listener has heard so far (device latency subtracted). Never decreases. Any thread.
    func playedFrames() -> Int64
    /// Corks or uncorks the stream without dropping anything, without waiting for the device. Any thread.
    func setPaused(_ paused: Bool)
    /// Drops everything not yet heard; afterwards `writtenFrames() == playedFrames()`. Wakes a blocked `write`.
    /// May wait for the device: decode thread only.
    func flush()
    /// The part of `flush` that never waits for the device, for commands under the engine lock: drops what
    /// is not yet heard, wakes a blocked `write`, holds the heard position. The decode thread's next `flush`
    /// completes it before writing again.
    func requestFlush()
    /// Takes back what was written and not yet heard, from timeline frame `from` on, or from the first
    /// frame the device can still take back if that is later: `lead` seconds past the heard position (the
    /// time the next samples need to reach it). No flush: what is kept plays on, the next `write` lands
    /// right after it, nothing is inserted. Returns the frame the next `write` lands at. Decode thread only
    /// (it is the one writer).
    func retract(from frame: Int64, lead: Double) -> Int64
    /// Makes a `write` blocked now return false at once, keeping what it had accepted (counted by
    /// `writtenFrames`), and a `drain` under way return; drops nothing. A `write` begun later is not
    /// affected. Any thread, never waits.
    func cancelWrite()
    /// Volume 0...1 and mute, applied to what is played from now on, without reopening the stream.
    func setVolume(_ volume: Float, muted: Bool)
    /// Blocks until everything written has been heard (end of the queue), or until `flush`/`close`.
    func drain()
    /// Releases the device; `write` returns false from now on.
    func close()
}

extension AudioSink {
    /// A sink whose `write` never blocks has nothing to cancel.
    public func cancelWrite() {}
    /// A sink that hands everything to its device at once can take nothing back.
    public func retract(from frame: Int64, lead: Double) -> Int64 { writtenFrames() }
}

/// A video output. Every call comes from the engine's presenter thread, which is the output's one
/// UI thread (SDL wants all of its calls on one thread).
public protocol VideoSink: AnyObject, Sendable {
    /// Creates the window or surface. Called once, on the presenter thread, before anything else.
    func open() throws
    /// Puts `frame` on screen now; returns when the picture is presented (after vsync where there is one).
    func show(_ frame: VideoFrame)
    /// Shows black (nothing playing).
    func showBlack()
    /// Handles window-system events and pending requests; called at least every few milliseconds.
    func pump()
    /// Whether something waits to be drawn that only `pump` draws (another zone's picture): the presenter
    /// pumps at once then, not at its usual pace. Any thread.
    var hasPendingDraw: Bool { get }
    /// Changes the scaling mode; takes effect at the next `show`.
    func setFit(_ fit: VideoFit)
    /// Switches fullscreen on or off.
    func setFullscreen(_ fullscreen: Bool)
    /// Turns the picture on the screen (a panel mounted on its side); takes effect at the next `show`.
    func setRotation(_ rotation: VideoRotation)
    /// What is on screen now as a file (nil when nothing is shown). Any thread: the sink marshals the
    /// read-back to its thread and waits for the next `pump`; the encoding runs on the caller's thread.
    func screenshot(_ request: ScreenshotRequest) -> Screenshot?
    /// The layers to draw above the picture from now on, and the item they describe (item-scoped layers,
    /// placeholders; nil when nothing plays). Called before `show` when either changed; a sink redraws
    /// the current picture with them at its next `pump` when no `show` comes first.
    func setOverlays(_ overlays: OverlaySet, playing: PlayingItem?)
    /// Tears the window down. Called on the presenter thread, last.
    func close()
    /// The user closed the window (the daemon should exit). Read on the presenter thread after `pump`.
    var closeRequested: Bool { get }
    /// The size pictures are drawn at now, in pixels (nil: unknown). Any thread: stills are decoded no
    /// bigger than filling it needs.
    var outputSize: PixelSize? { get }
    /// The veil to draw the picture under from the next `show` or `redraw` on (nil: none): a fade's or a
    /// dip's colour over the whole output, under the overlays.
    func setVeil(_ veil: PictureVeil?)
    /// The part of the picture to show from the next `show` or `redraw` on (a moving still; nil: all of it).
    func setMotion(_ frame: MotionFrame?)
    /// The crossfade to draw from the next `show` or `redraw` on (nil: none): the picture shown becomes
    /// the entering play's, seen at `mix`, with the leaving play's picture over it at 1 - `mix`.
    func setCrossfade(_ crossfade: CrossfadeLayer?)
    /// Draws the picture on screen again now (its veil, its view or its crossfade moved).
    func redraw()
    /// Whether the output can put the screen itself to sleep, and how (asked once, after `open`).
    func screenPowerSupport() -> ScreenPowerSupport
    /// Puts the screen to sleep or wakes it, the way `screenPowerSupport` named.
    func setScreenPower(_ on: Bool) -> ScreenPowerOutcome
}

extension VideoSink {
    public var closeRequested: Bool { false }
    public var hasPendingDraw: Bool { false }
    public var outputSize: PixelSize? { nil }
    /// A sink that draws no veils ignores them.
    public func setVeil(_ veil: PictureVeil?) {}
    public func setMotion(_ frame: MotionFrame?) {}
    public func setCrossfade(_ crossfade: CrossfadeLayer?) {}
    public func redraw() {}
    public func screenPowerSupport() -> ScreenPowerSupport {
        .unsupported("the video output has no way to put the screen to sleep")
    }
    public func setScreenPower(_ on: Bool) -> ScreenPowerOutcome {
        .failed("the video output has no way to put the screen to sleep")
    }
    /// A sink that draws no overlays ignores them.
    public func setOverlays(_ overlays: OverlaySet, playing: PlayingItem?) {}
}

/// A crossfade as the video sink draws it: the entering play's picture (the one shown) at `mix`, plus the
/// leaving play's last picture, seen through its own `motion`, at 1 - `mix`. Without a leaving picture (a
/// play with sound only before it) the entering picture rises from black.
public struct CrossfadeLayer: Sendable, Equatable {
    public var leaving: VideoFrame?
    public var motion: MotionFrame?
    public var mix: Double

    public init(leaving: VideoFrame?, motion: MotionFrame?, mix: Double) {
        self.leaving = leaving
        self.motion = motion
        self.mix = mix
    }

    public static func == (left: CrossfadeLayer, right: CrossfadeLayer) -> Bool {
        left.leaving === right.leaving && left.motion == right.motion && left.mix == right.mix
    }
}

/// How a picture is fitted into the window.
public enum VideoFit: String, Sendable, Codable, CaseIterable {
    case fit  // letterbox: whole picture, black bars
    case fill  // crop: fills the window, edges cut
    case stretch  // fills the window, aspect ratio ignored
}

/// How far the picture is turned clockwise on the screen, for panels mounted on their side (portrait) or
/// upside down. The fit is computed on the turned picture; screenshots show it turned.
public enum VideoRotation: Int, Sendable, Codable, CaseIterable {
    case upright = 0
    case clockwise90 = 90
    case upsideDown = 180
    case clockwise270 = 270

    /// Whether the picture's width and height swap places on the screen.
    public var isQuarterTurn: Bool { self == .clockwise90 || self == .clockwise270 }
}

/// Video settings changed by the control side, waiting for the presenter thread (the only one that may
/// talk to the video sink). Nil fields are unchanged.
struct DisplayChange: Sendable, Equatable {
    var fit: VideoFit?
    var fullscreen: Bool?
    var rotation: VideoRotation?

    var isEmpty: Bool { self == DisplayChange() }
}

/// How a screenshot is wanted: its file format, and a width it is scaled down to (a thumbnail).
public struct ScreenshotRequest: Sendable, Equatable {
    public var format: PictureFormat
    public var maxWidth: Int?

    public init(format: PictureFormat = .png, maxWidth: Int? = nil) {
        self.format = format
        self.maxWidth = maxWidth
    }
}

/// A screenshot's file and the size it shows.
public struct Screenshot: Sendable, Equatable {
    public var bytes: [UInt8]
    public var format: PictureFormat
    public var width: Int
    public var height: Int

    public init(bytes: [UInt8], format: PictureFormat, width: Int, height: Int) {
        (self.bytes, self.format, self.width, self.height) = (bytes, format, width, height)
    }
}

extension VideoSink {
    /// A full-size PNG of what is on screen now.
    public func screenshot() -> [UInt8]? { screenshot(ScreenshotRequest())?.bytes }
}
