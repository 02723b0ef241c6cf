// Plays already-converted output sound (interleaved Float32 at the output's rate) a little faster or slower:
// libswresample at the same rate in and out, with a compensation spread over each chunk — the same soft
// resampling a live stream's pace uses (AudioConverter), for a sync group's rate trim (at most ±0.5 %,
// inaudible; never a dropped or repeated buffer). One per output; its owner's writing thread only.

import CFFmpeg

public final class PaceResampler {
    private var swr: OpaquePointer?
    public let sampleRate: Int
    public let channels: Int

    public init(sampleRate: Int, channels: Int) {
        (self.sampleRate, self.channels) = (sampleRate, channels)
    }

    deinit { swr_free(&swr) }

    /// `samples` played with `added` frames more (fewer when negative) spread over them. What the filter
    /// holds back comes out with the next chunk (see `heldFrames`).
    public func resample(_ samples: [Float], adding added: Int) throws(MediaError) -> [Float] {
        try configure()
        let inCount = Int32(samples.count / channels)
        if added != 0 {
            try check(swr_set_compensation(swr, Int32(added), max(1, inCount)), "trim the pace")
        }
        let capacity = Int(swr_get_out_samples(swr, inCount)) + abs(added) + 16
        var output = [Float](repeating: 0, count: capacity * channels)
        let produced = samples.withUnsafeBytes { input -> Int32 in
            output.withUnsafeMutableBytes { out -> Int32 in
                var outPlanes: [UnsafeMutablePointer<UInt8>?] = [out.baseAddress?.assumingMemoryBound(to: UInt8.self)]
                var inPlanes: [UnsafePointer<UInt8>?] = [input.baseAddress?.assumingMemoryBound(to: UInt8.self)]
                return outPlanes.withUnsafeMutableBufferPointer { outs in
                    inPlanes.withUnsafeMutableBufferPointer { ins in
                        swr_convert(swr, outs.baseAddress, Int32(capacity), ins.baseAddress, inCount)
                    }
                }
            }
        }
        try check(produced, "trim the pace")
        output.removeLast((capacity - Int(produced)) * channels)
        return output
    }

    /// What the filter still holds, given out (the end of the sound: nothing follows).
    public func flush() throws(MediaError) -> [Float] {
        guard let swr else { return [] }
        let capacity = Int(swr_get_out_samples(swr, 0)) + 16
        var output = [Float](repeating: 0, count: capacity * channels)
        let produced = output.withUnsafeMutableBytes { out -> Int32 in
            var outPlanes: [UnsafeMutablePointer<UInt8>?] = [out.baseAddress?.assumingMemoryBound(to: UInt8.self)]
            return outPlanes.withUnsafeMutableBufferPointer { swr_convert(swr, $0.baseAddress, Int32(capacity), nil, 0) }
        }
        try check(produced, "trim the pace")
        output.removeLast((capacity - Int(produced)) * channels)
        return output
    }

    /// Frames taken in and not given out yet (the filter's delay), in output frames.
    public var heldFrames: Int {
        guard let swr else { return 0 }
        return Int(swr_get_delay(swr, Int64(sampleRate)))
    }

    /// Forgets what it holds (the output was flushed or taken back): the next chunk starts afresh.
    public func reset() { swr_free(&swr) }

    private func configure() throws(MediaError) {
        guard swr == nil else { return }
        var outLayout = AVChannelLayout()
        var inLayout = AVChannelLayout()
        av_channel_layout_default(&outLayout, Int32(channels))
        av_channel_layout_default(&inLayout, Int32(channels))
        try check(
            swr_alloc_set_opts2(
                &swr, &outLayout, AV_SAMPLE_FMT_FLT, Int32(sampleRate), &inLayout, AV_SAMPLE_FMT_FLT, Int32(sampleRate), 0, nil),
            "configure the pace")
        // Compensation needs the resampler even at equal rates.
        av_opt_set_int(UnsafeMutableRawPointer(swr), "force_resampling", 1, 0)
        try check(swr_init(swr), "configure the pace")
    }
}
