// A video output that shows nothing: pictures are still decoded and scheduled (so `--video null` costs
// what decoding costs, like mpv's --vo=null), for benchmarks, soak runs and tests.

import Media

public final class NullVideoSink: VideoSink, @unchecked Sendable {
    public init() {}
    public func open() throws {}
    public func show(_ frame: VideoFrame) {}
    public func showBlack() {}
    public func pump() {}
    public func setFit(_ fit: VideoFit) {}
    public func setFullscreen(_ fullscreen: Bool) {}
    public func setRotation(_ rotation: VideoRotation) {}
    public func screenshot(_ request: ScreenshotRequest) -> Screenshot? { nil }
    public func close() {}
}
