// A web item's play as the engine reads it: no sound, and pictures that are the page's latest frame each
// time one is asked for, on a grid of 1/fps while the page changes and of `idleStep` while it does not (a
// page standing still costs a picture a quarter second, and the sink uploads nothing for it). The engine
// asks as its picture queue drains, so what the page paints is seen a queue's length later.
// Decode thread only, like every ItemReader.

import Media
import QueueModel

final class WebPageReader: ItemReader {
    let page: WebPage
    private let renderer: WebRenderer
    private let end: Double
    private let frameStep: Double
    private let interval: Double?
    /// Item time of the next picture.
    private var time: Double
    private var lastSequence = -1
    /// The status as the play was prepared.
    let webPage: WebPageStatus?

    static let idleStep = 0.25

    init(page: WebPage, renderer: WebRenderer, duration: Double, position: Double, framesPerSecond: Double, interval: Double?) {
        self.page = page
        self.renderer = renderer
        end = duration
        frameStep = 1 / max(1, framesPerSecond)
        self.interval = interval
        time = max(0, position)
        webPage = page.status
    }

    // The play's count on the page was taken when it was opened (WebRenderer.open): given back here.
    deinit { renderer.playEnded(page) }

    var hasAudio: Bool { false }
    var hasVideo: Bool { true }
    var isStill: Bool { false }
    var duration: Double? { end }
    var knownEnd: Double? { end }
    var videoEnd: Double? { end }
    var displaySize: (width: Int, height: Int)? { (page.size.width, page.size.height) }

    func readAudio() throws(MediaError) -> [Float]? { nil }

    func readVideo() throws(MediaError) -> VideoFrame? {
        guard time < end - 1e-6 else { return nil }
        if let interval, page.sinceLoad >= interval { renderer.reload(page) }
        let (frame, sequence) = try page.current().get()
        let step = sequence != lastSequence ? frameStep : Self.idleStep
        lastSequence = sequence
        let length = min(step, end - time)
        guard let picture = frame.restamped(pts: time, duration: length) else {
            throw MediaError(operation: "web page", path: page.shownURL, message: "out of memory")
        }
        time += length
        return picture
    }

    func seek(to seconds: Double) throws(MediaError) { time = max(0, min(seconds, end)) }
}
