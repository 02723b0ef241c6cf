// What the engine reads a play from: FFmpeg's MediaReader for files and streams, or a web page's reader
// (WebPages) whose pictures come from a web engine. Owned and used by the engine's decode thread only, like
// MediaReader; the members with defaults below are what a reader without a file or a stream has nothing for.

public protocol ItemReader: AnyObject {
    var hasAudio: Bool { get }
    var hasVideo: Bool { get }
    var isStill: Bool { get }
    /// Whether the item is a stream FFmpeg reads itself (no seeking; drops reconnect).
    var isStream: Bool { get }
    var isLiveStream: Bool { get }
    /// The item's length as known before playing it through.
    var duration: Double? { get }
    /// Where the item ends as known now.
    var knownEnd: Double? { get }
    /// Where the item's picture ends.
    var videoEnd: Double? { get }
    var displaySize: (width: Int, height: Int)? { get }
    var videoDecoding: VideoDecoding? { get }
    /// The page a web item shows (nil for everything else).
    var webPage: WebPageStatus? { get }
    func readAudio() throws(MediaError) -> [Float]?
    func readVideo() throws(MediaError) -> VideoFrame?
    func seek(to seconds: Double) throws(MediaError)
    func takeDecodingChange() -> VideoDecoding?
    func continueStream(at position: Double)
    func readAhead()
    func adopt(isCancelled: @escaping @Sendable () -> Bool)
    func closeStream()
}

extension ItemReader {
    public var isStream: Bool { false }
    public var isLiveStream: Bool { false }
    public var videoDecoding: VideoDecoding? { nil }
    public var webPage: WebPageStatus? { nil }
    public func takeDecodingChange() -> VideoDecoding? { nil }
    public func continueStream(at position: Double) {}
    public func readAhead() {}
    public func adopt(isCancelled: @escaping @Sendable () -> Bool) {}
    public func closeStream() {}
}

/// A web item's page as its play was prepared: `player.status` and `itemStarted` say it.
public struct WebPageStatus: Sendable, Equatable {
    public var loaded: Bool
    public var url: String
    public var title: String?
    public init(loaded: Bool, url: String, title: String?) {
        self.loaded = loaded
        self.url = url
        self.title = title
    }
}

extension MediaReader: ItemReader {}
