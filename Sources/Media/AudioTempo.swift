// Changes playback speed without changing pitch (libavfilter's atempo), on the output format's
// interleaved Float32. Used by the engine's decode thread for items played at a rate other than 1;
// at rate 1 it is not used at all, so normal playback stays bit-exact, and libavfilter is not even loaded
// (FilterLibrary).

import CFFmpeg

public final class AudioTempo {
    private let filters: FilterLibrary
    private var graph: UnsafeMutablePointer<AVFilterGraph>?
    private var source: UnsafeMutablePointer<AVFilterContext>?
    private var sink: UnsafeMutablePointer<AVFilterContext>?
    private let frame: UnsafeMutablePointer<AVFrame>
    private let sampleRate: Int
    private let channels: Int
    private var nextPTS: Int64 = 0
    public let rate: Double

    /// `rate` 0.5...2.0: 2 plays twice as fast.
    public init(rate: Double, sampleRate: Int, channels: Int) throws(MediaError) {
        guard (0.5...2.0).contains(rate) else {
            throw MediaError(operation: "set rate", message: "rate must be between 0.5 and 2.0 (got \(rate))")
        }
        let filters = try FilterLibrary.shared.get()
        guard let frame = av_frame_alloc() else { throw MediaError(operation: "set rate", message: "out of memory") }
        guard let graph = filters.graphAlloc() else {
            var optional: UnsafeMutablePointer<AVFrame>? = frame
            av_frame_free(&optional)
            throw MediaError(operation: "set rate", message: "out of memory")
        }
        // Both stored before anything below can throw: from there on `deinit` alone frees them.
        self.filters = filters
        self.frame = frame
        self.graph = graph
        self.rate = rate
        self.sampleRate = sampleRate
        self.channels = channels
        var layout = AVChannelLayout()
        av_channel_layout_default(&layout, Int32(channels))
        var layoutName = [CChar](repeating: 0, count: 64)
        av_channel_layout_describe(&layout, &layoutName, layoutName.count)
        let layoutText = String(cString: layoutName)
        let sourceArgs =
            "time_base=1/\(sampleRate):sample_rate=\(sampleRate):sample_fmt=flt:channel_layout=\(layoutText)"
        source = try filter(graph, "abuffer", "in", sourceArgs)
        let tempo = try filter(graph, "atempo", "tempo", "tempo=\(rate)")
        let format = try filter(graph, "aformat", "format", "sample_fmts=flt:channel_layouts=\(layoutText)")
        sink = try filter(graph, "abuffersink", "out", nil)
        try check(filters.link(source, 0, tempo, 0), "set rate")
        try check(filters.link(tempo, 0, format, 0), "set rate")
        try check(filters.link(format, 0, sink, 0), "set rate")
        try check(filters.graphConfig(graph, nil), "set rate")
    }

    deinit {
        filters.graphFree(&graph)
        var optional: UnsafeMutablePointer<AVFrame>? = frame
        av_frame_free(&optional)
    }

    private func filter(
        _ graph: UnsafeMutablePointer<AVFilterGraph>, _ name: String, _ label: String, _ args: String?
    ) throws(MediaError) -> UnsafeMutablePointer<AVFilterContext>? {
        var context: UnsafeMutablePointer<AVFilterContext>?
        try check(
            filters.createFilter(&context, filters.filterByName(name), label, args, nil, graph), "set rate")
        return context
    }

    /// Feeds interleaved samples; returns what the filter has ready (possibly nothing yet).
    public func process(_ samples: [Float]) throws(MediaError) -> [Float] {
        let count = samples.count / channels
        guard count > 0 else { return [] }
        frame.pointee.nb_samples = Int32(count)
        frame.pointee.format = AV_SAMPLE_FMT_FLT.rawValue
        frame.pointee.sample_rate = Int32(sampleRate)
        av_channel_layout_default(&frame.pointee.ch_layout, Int32(channels))
        frame.pointee.pts = nextPTS
        nextPTS += Int64(count)
        try check(av_frame_get_buffer(frame, 0), "set rate")
        samples.withUnsafeBytes { bytes in
            frame.planePointers[0]?.update(from: bytes.bindMemory(to: UInt8.self).baseAddress!, count: bytes.count)
        }
        try check(filters.addFrame(source, frame), "set rate")  // takes the frame's references
        return try drainReady()
    }

    /// Ends the stream and returns the filter's remaining output.
    public func finish() throws(MediaError) -> [Float] {
        try check(filters.addFrame(source, nil), "set rate")
        return try drainReady()
    }

    private func drainReady() throws(MediaError) -> [Float] {
        var output: [Float] = []
        while true {
            let result = filters.takeFrame(sink, frame)
            if result == AVCodes.again || result == AVCodes.eof { break }
            try check(result, "set rate")
            let count = Int(frame.pointee.nb_samples) * channels
            if let data = frame.planePointers[0] {
                data.withMemoryRebound(to: Float.self, capacity: count) {
                    output.append(contentsOf: UnsafeBufferPointer(start: $0, count: count))
                }
            }
            av_frame_unref(frame)
        }
        return output
    }
}
