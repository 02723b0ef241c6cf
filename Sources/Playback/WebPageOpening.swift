// What the engine asks of whoever renders web pages (the daemon's WebRenderer): a web item's play, opened
// with its page loaded and painted. Decode and prefetch threads call it; it blocks until the page is ready.

import Media
import QueueModel

public protocol WebPageOpening: Sendable {
    /// The page of `item` for a play shown at `output` (the zone's or the screen's size; nil: no picture),
    /// starting `position` seconds in. Throws with the reason when the page cannot be shown (no web engine,
    /// a load that failed or timed out, an HTTP error); `isCancelled` ends the wait early.
    func open(
        _ item: MediaItem, output: PixelSize?, position: Double, isCancelled: @escaping @Sendable () -> Bool
    ) throws(MediaError) -> any ItemReader
}
