// A live stream's pace (DriftCorrector) as the reader applies it: the latency measured as sound or pictures
// are decoded (what the pump received and the decode thread has not taken, plus what the outputs hold), the
// sound resampled by the pace, the pictures placed by the same map. Decode thread only, like MediaReader.

extension MediaReader {
    /// Measures the latency with the stream decoded up to stream time `time` (seconds from the item's
    /// origin), lets the corrector decide, and tells the engine: the latency every 2 s, a new pace at once.
    func steer(at time: Double) {
        guard var corrector = drift, let received = demuxer.pump?.received else { return }
        let latency = max(0, (received - origin) - time + (options.outputDelay?() ?? 0))
        let changed = corrector.observe(latency: latency, at: time)
        drift = corrector
        let news = options.sourceLimits.onStreamNews
        if let pace = changed {
            news?(.paced(pace, latency: corrector.smoothed ?? latency, target: corrector.target ?? latency))
        }
        if changed != nil || time - (lastLatencyNews ?? -.infinity) >= 2 || time < (lastLatencyNews ?? 0) {
            lastLatencyNews = time
            news?(.latency(corrector.smoothed ?? latency, pace: corrector.pace))
        }
    }

    /// Frames to add to (negative: take from) a chunk of `frames` output frames so the sound follows the
    /// pace; the fraction left over is carried to the next chunk, so no rounding accumulates.
    func compensation(forFrames frames: Double) -> Int {
        guard let drift, drift.pace != 1 || driftCarry != 0 else { return 0 }
        let exact = frames * (1 / drift.pace - 1) + driftCarry
        let whole = exact.rounded()
        driftCarry = exact - whole
        return Int(whole)
    }

    /// Item time of a picture at stream time `time` (itself without a corrector).
    func mappedTime(_ time: Double) -> Double { drift?.itemTime(ofStream: time) ?? time }
}
