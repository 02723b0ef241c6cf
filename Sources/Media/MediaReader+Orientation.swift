// How each picture of an item is to be seen: the video stream's display matrix (a phone held upright), a
// still's EXIF orientation, and the pixels' aspect ratio (anamorphic video; it may change mid-stream).
// Read per picture on the decode thread; the sink applies them when it draws.

import CFFmpeg

extension MediaReader {
    /// The turn a stream's display matrix asks for (upright without one).
    static func orientation(of stream: UnsafeMutablePointer<AVStream>) -> PictureOrientation {
        var size: Int = 0
        guard let data = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size), size >= 36 else {
            return .upright
        }
        return data.withMemoryRebound(to: Int32.self, capacity: 9) { orientation(ofDisplayMatrix: $0) }
    }

    /// A display matrix as a mirror then a turn: a matrix that mirrors (negative determinant) has its mirror
    /// taken out first (its first row negated, saturating: a hostile Int32.min must not trap) so that
    /// what is left is a pure rotation.
    static func orientation(ofDisplayMatrix matrix: UnsafePointer<Int32>) -> PictureOrientation {
        let determinant = Int64(matrix[0]) * Int64(matrix[4]) - Int64(matrix[1]) * Int64(matrix[3])
        guard determinant < 0 else {
            return PictureOrientation(counterClockwiseDegrees: av_display_rotation_get(matrix), mirrored: false)
        }
        var unmirrored = (0..<9).map { matrix[$0] }
        unmirrored[0] = Int32(clamping: -Int64(unmirrored[0]))
        unmirrored[1] = Int32(clamping: -Int64(unmirrored[1]))
        let degrees = unmirrored.withUnsafeBufferPointer { av_display_rotation_get($0.baseAddress) }
        return PictureOrientation(counterClockwiseDegrees: degrees, mirrored: true)
    }

    /// How `frame` of the video stream is seen: a still's EXIF orientation (the JPEG decoder hands it over
    /// as the frame's "Orientation" tag) or else the stream's turn, and its pixels' aspect.
    func look(of frame: UnsafeMutablePointer<AVFrame>, streamOrientation: PictureOrientation, stream: Int) -> (
        orientation: PictureOrientation, sampleAspect: Double
    ) {
        var orientation = streamOrientation
        if let tag = av_dict_get(frame.pointee.metadata, "Orientation", nil, 0),
            let value = String(cString: tag.pointee.value).split(separator: " ").first.flatMap({ Int($0) }),
            let exif = PictureOrientation(exif: value)
        {
            orientation = exif
        }
        if demuxer.live != nil, stream < demuxer.aspectHints.count {
            // A stream's context may have been replaced by its reader thread: the aspects read at open.
            let hints = demuxer.aspectHints[stream]
            return (orientation, Self.sampleAspect(stream: hints.stream, codec: hints.codec, frame: frame))
        }
        return (orientation, Self.sampleAspect(of: demuxer.stream(stream), frame: frame, format: demuxer.format))
    }

    /// The pixels' aspect: the container's (Matroska's display size, which is meant to override the
    /// codec's) through FFmpeg's own guess, as ffplay uses it — except that a frame whose aspect differs
    /// from the one the stream started with (a new sequence header mid-stream) is shown at its own.
    /// Implausible ratios are damage, not anamorphic video: shown square.
    static func sampleAspect(
        of stream: UnsafeMutablePointer<AVStream>, frame: UnsafeMutablePointer<AVFrame>?,
        format: UnsafeMutablePointer<AVFormatContext>
    ) -> Double {
        let ratio = av_guess_sample_aspect_ratio(format, stream, frame)
        return checkedAspect(ratio, frame: frame, initial: stream.pointee.codecpar.pointee.sample_aspect_ratio)
    }

    /// The same from a stream's aspects read at open: FFmpeg's guess (av_guess_sample_aspect_ratio) is the
    /// stream's own when it has one, else the frame's (the codec's without a frame).
    static func sampleAspect(stream: AVRational, codec: AVRational, frame: UnsafeMutablePointer<AVFrame>?) -> Double {
        let valid = { (ratio: AVRational) in ratio.num > 0 && ratio.den > 0 }
        let ratio = valid(stream) ? stream : (frame?.pointee.sample_aspect_ratio ?? codec)
        return checkedAspect(ratio, frame: frame, initial: codec)
    }

    private static func checkedAspect(
        _ guess: AVRational, frame: UnsafeMutablePointer<AVFrame>?, initial: AVRational
    ) -> Double {
        var ratio = guess
        if let frame {
            let own = frame.pointee.sample_aspect_ratio
            if own.num > 0, own.den > 0, initial.num > 0, initial.den > 0, av_cmp_q(own, initial) != 0 { ratio = own }
        }
        guard ratio.num > 0, ratio.den > 0 else { return 1 }
        let aspect = Double(ratio.num) / Double(ratio.den)
        return (0.1...10).contains(aspect) ? aspect : 1
    }
}
