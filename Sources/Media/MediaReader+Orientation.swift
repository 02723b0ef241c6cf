// How each picture of an item is to be seen: the video stream's display matrix (a phone held upright), a
// still's EXIF orientation, and the sample aspect ratio of stream and frame (anamorphic video; it may
// change mid-stream). Read per picture on the decode thread; the sink applies them when it draws.
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
    /// taken out first (its first row negated) so that what is left is a pure rotation.
    static func orientation(ofDisplayMatrix matrix: UnsafePointer<Int32>) -> PictureOrientation {
        let determinant = Int64(matrix[0]) * Int64(matrix[4]) - Int64(matrix[1]) * Int64(matrix[3])
        guard determinant < 0 else {
            return PictureOrientation(counterClockwiseDegrees: av_display_rotation_get(matrix), mirrored: false)
        }
        var unmirrored = (0..<9).map { matrix[$0] }
        unmirrored[0] = -unmirrored[0]
        unmirrored[1] = -unmirrored[1]
        let degrees = unmirrored.withUnsafeBufferPointer { av_display_rotation_get($0.baseAddress) }
        return PictureOrientation(counterClockwiseDegrees: degrees, mirrored: true)
    }

    /// How `frame` of the video stream is seen: a still's EXIF orientation (the JPEG decoder hands it over
    /// as the frame's "Orientation" tag) or else the stream's turn; the pixels' aspect from the frame, else
    /// the stream, else the codec (FFmpeg's own guess, as ffplay uses).
    func look(of frame: UnsafeMutablePointer<AVFrame>, streamOrientation: PictureOrientation, stream: Int) -> (
        orientation: PictureOrientation, sampleAspect: Double
    ) {
        var orientation = streamOrientation
        if let tag = av_dict_get(frame.pointee.metadata, "Orientation", nil, 0),
            let value = Int(String(cString: tag.pointee.value).trimmingSpaces),
            let exif = PictureOrientation(exif: value)
        {
            orientation = exif
        }
        let ratio = av_guess_sample_aspect_ratio(demuxer.format, demuxer.stream(stream), frame)
        let aspect = ratio.num > 0 && ratio.den > 0 ? Double(ratio.num) / Double(ratio.den) : 1
        // Implausible ratios are damage, not anamorphic video: shown square.
        return (orientation, (0.1...10).contains(aspect) ? aspect : 1)
    }
}

extension String {
    fileprivate var trimmingSpaces: Substring {
        let start = firstIndex { $0 != " " } ?? endIndex
        let end = lastIndex { $0 != " " }.map { index(after: $0) } ?? endIndex
        return start < end ? self[start..<end] : ""
    }
}
