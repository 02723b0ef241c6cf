// One stream's way into its decoder: the packets the demuxer read for it, waiting their turn.
// Decode thread only, like the MediaReader that owns it.

import DequeModule

final class TrackInput {
    let index: Int
    /// Replaced once if a hardware decode gives up while the item plays (`replaceDecoder`).
    private(set) var decoder: Decoder
    var packets = Deque<Packet>()
    var sentEndOfStream = false
    /// Packets are dropped until a keyframe: a software decoder took over mid-stream.
    var skippingToKeyframe = false

    init(index: Int, decoder: Decoder) {
        self.index = index
        self.decoder = decoder
    }

    /// Forgets everything queued (a seek).
    func restart() {
        packets.removeAll()
        decoder.flush()
        sentEndOfStream = false
        skippingToKeyframe = false
    }

    /// `replacement` decodes from here on: first the `replay` packets (sent to the old decoder, which gave no
    /// picture of them), then what is queued; or, with `skipToKeyframe`, from the next keyframe.
    func replaceDecoder(_ replacement: Decoder, replay: [Packet], skipToKeyframe: Bool) {
        decoder = replacement
        packets.insert(contentsOf: replay, at: 0)
        skippingToKeyframe = skipToKeyframe
        sentEndOfStream = false
    }
}
