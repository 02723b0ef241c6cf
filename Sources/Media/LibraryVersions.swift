// The FFmpeg libraries linked at run time (which may differ from the headers built against), for
// `queued --version` and bug reports.

import CFFmpeg

public enum FFmpegVersions {
    /// "libavformat 59.27.100, libavcodec 59.37.100, libavutil 57.28.100, libswresample 4.7.100, libswscale 6.7.100"
    public static var summary: String {
        [
            ("libavformat", avformat_version()), ("libavcodec", avcodec_version()), ("libavutil", avutil_version()),
            ("libswresample", swresample_version()), ("libswscale", swscale_version()),
        ].map { "\($0.0) \($0.1 >> 16).\(($0.1 >> 8) & 0xFF).\($0.1 & 0xFF)" }.joined(separator: ", ")
    }
}
