// One stream's way into its decoder: the packets the demuxer read for it, waiting their turn.
// Decode thread only, like the MediaReader that owns it.

import DequeModule

final class TrackInput {
    let index: Int
    let decoder: Decoder
    var packets = Deque<Packet>()
    var sentEndOfStream = false

    init(index: Int, decoder: Decoder) {
        self.index = index
        self.decoder = decoder
    }

    /// Forgets everything queued (a seek).
    func restart() {
        packets.removeAll()
        decoder.flush()
        sentEndOfStream = false
    }
}
