// Our own reading of the server's clock, from the timing info libpulse delivers (latency-update callback,
// mainloop thread, lock held). It bounds pa_stream_get_time, whose smoother (libpulse 16, "smoother 2")
// runs on from the moment the stream is created even while the server says it is not playing yet: on a
// null sink idling with a long block, that made the reported time race up to 0.8 s ahead of the audio.

struct ServerClock {
    let sampleRate: Int
    /// Server frame heard at `anchorTime` (read index minus the sink's latency); nil until the first update.
    private var anchorFrames: Double?
    /// pa_rtclock_now() microseconds of that reading.
    private var anchorTime: UInt64 = 0
    /// Whether the server said it was playing (if not, the position stands still).
    private var running = false

    init(sampleRate: Int) {
        self.sampleRate = sampleRate
    }

    /// A fresh timing info arrived at `now`; it was current `transportUsec` earlier.
    mutating func update(
        readIndexFrames: Int64, sinkLatencyUsec: UInt64, transportUsec: UInt64, playing: Bool,
        now: UInt64
    ) {
        anchorFrames = Double(readIndexFrames) - Double(sinkLatencyUsec) * Double(sampleRate) / 1e6
        anchorTime = now - min(now, transportUsec)
        running = playing
    }

    /// The heard position in server frames at `now`, extrapolated at the nominal rate while playing.
    func estimate(at now: UInt64) -> Int64? {
        guard let anchorFrames else { return nil }
        let elapsed = running && now > anchorTime ? Double(now - anchorTime) * Double(sampleRate) / 1e6 : 0
        let frames = (anchorFrames + elapsed).rounded(.down)
        // A garbage timing report must not trap the conversion: no reading then.
        guard frames.magnitude < 0x1p62 else { return nil }
        return Int64(frames)
    }
}
