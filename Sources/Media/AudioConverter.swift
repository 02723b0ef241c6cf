// Converts decoded audio frames of any format, rate and channel layout into interleaved Float32 at the
// output's fixed rate and channel count (libswresample). Rebuilt when the input changes mid-stream, so
// items of different formats share one output stream. Decode thread only.

import CFFmpeg

final class AudioConverter {
    private var swr: OpaquePointer?
    private var inputKey: (format: Int32, rate: Int32, layout: AVChannelLayout)?
    let outputRate: Int
    let outputChannels: Int

    init(outputRate: Int, outputChannels: Int) {
        self.outputRate = outputRate
        self.outputChannels = outputChannels
    }

    deinit { swr_free(&swr) }

    /// Converted samples for `frame` (possibly fewer or more frames than in, when resampling), with
    /// `added` frames more (fewer when negative) spread over them: a live stream's pace (DriftCorrector),
    /// resampled, never a repeated or dropped buffer. 0 leaves the conversion as it is.
    func convert(_ frame: UnsafeMutablePointer<AVFrame>, adding added: Int = 0) throws(MediaError) -> [Float] {
        try configure(for: frame)
        let inCount = frame.pointee.nb_samples
        if added != 0 {
            // Over this frame's output (swresample turns itself into a resampler for it if it was not one).
            let distance = Int(
                (Double(inCount) * Double(outputRate) / Double(max(1, frame.pointee.sample_rate))).rounded())
            try check(swr_set_compensation(swr, Int32(added), Int32(max(1, distance))), "adjust the pace")
        }
        let capacity = Int(swr_get_out_samples(swr, inCount)) + abs(added) + 16
        return try run(capacity: capacity) { out, outCount in
            frame.pointee.extended_data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { input in
                swr_convert(swr, out, outCount, input, inCount)
            }
        }
    }

    /// What the resampler still holds (its filter delay), at the end of a stream.
    func drain() throws(MediaError) -> [Float] {
        guard swr != nil else { return [] }
        let capacity = Int(swr_get_out_samples(swr, 0)) + 16
        return try run(capacity: capacity) { out, outCount in swr_convert(swr, out, outCount, nil, 0) }
    }

    private func run(
        capacity: Int,
        _ body: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, Int32) -> Int32
    ) throws(MediaError) -> [Float] {
        var samples = [Float](repeating: 0, count: capacity * outputChannels)
        let produced = samples.withUnsafeMutableBytes { raw -> Int32 in
            var planes: [UnsafeMutablePointer<UInt8>?] = [raw.baseAddress?.assumingMemoryBound(to: UInt8.self)]
            return planes.withUnsafeMutableBufferPointer { body($0.baseAddress!, Int32(capacity)) }
        }
        try check(produced, "convert audio")
        samples.removeLast((capacity - Int(produced)) * outputChannels)
        return samples
    }

    private func configure(for frame: UnsafeMutablePointer<AVFrame>) throws(MediaError) {
        var layout = frame.pointee.ch_layout
        if layout.order == AV_CHANNEL_ORDER_UNSPEC {
            // Files that don't say which channels they have: assume the usual layout for the count.
            av_channel_layout_default(&layout, layout.nb_channels)
        }
        if let key = inputKey, key.format == frame.pointee.format, key.rate == frame.pointee.sample_rate,
            av_channel_layout_compare(&inputKey!.layout, &layout) == 0
        {
            return
        }
        // As in VideoConverter: no stale key may outlive the context it described.
        swr_free(&swr)
        inputKey = nil
        var outLayout = AVChannelLayout()
        av_channel_layout_default(&outLayout, Int32(outputChannels))
        try check(
            swr_alloc_set_opts2(
                &swr, &outLayout, AV_SAMPLE_FMT_FLT, Int32(outputRate),
                &layout, AVSampleFormat(frame.pointee.format), frame.pointee.sample_rate, 0, nil),
            "configure resampler")
        try check(swr_init(swr), "configure resampler")
        inputKey = (frame.pointee.format, frame.pointee.sample_rate, layout)
    }
}
