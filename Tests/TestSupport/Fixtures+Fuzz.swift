// Seeds for the media fuzz test and the damaged files of the repro cases, all made here from our own
// fixtures (a fresh clone has nothing else). Seeds are short and small so thousands of damaged copies
// play in a few minutes; together they cover every kind of item queued plays.

import Foundation

public struct FuzzSeed: Sendable {
    /// What it is, for the report: "mp4-aac", "png"…
    public let kind: String
    public let path: String
}

extension Fixtures {
    /// One short, small file of each kind: MP4 (H.264 + AAC), Matroska (MPEG-4 + FLAC), MP3, WebM (VP8 +
    /// Opus), PNG, JPEG, video-only Matroska (H.264) and MP4 (MPEG-4), FLAC alone.
    public static func fuzzSeeds() throws -> [FuzzSeed] {
        let picture = "testsrc2=s=160x120:r=25:d=0.4"
        let sound = "sine=f=660:r=48000:d=0.4"
        func clip(_ name: String, video: [String]?, audio: [String]?, extra: [String] = []) throws -> FuzzSeed {
            var inputs: [String] = []
            var maps: [String] = []
            if video != nil {
                inputs += ["-f", "lavfi", "-i", picture]
                maps += ["-map", "0:v"]
            }
            if audio != nil {
                inputs += ["-f", "lavfi", "-i", sound]
                maps += ["-map", "\(video == nil ? 0 : 1):a", "-ac", "2"]
            }
            let kind = (name as NSString).deletingPathExtension
            return FuzzSeed(
                kind: kind, path: try make("fuzz-" + name, inputs + maps + (video ?? []) + (audio ?? []) + extra))
        }
        let h264 = ["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-g", "5"]
        let mpeg4 = ["-c:v", "mpeg4", "-q:v", "4", "-g", "5"]
        return [
            try clip("mp4-aac.mp4", video: h264, audio: ["-c:a", "aac", "-b:a", "96k"], extra: fastStart),
            try clip("mkv-flac.mkv", video: mpeg4, audio: ["-c:a", "flac"]),
            try clip("mp3.mp3", video: nil, audio: ["-c:a", "libmp3lame", "-b:a", "96k"]),
            try clip(
                "webm-opus.webm", video: ["-c:v", "libvpx", "-b:v", "300k", "-g", "5"],
                audio: ["-c:a", "libopus", "-b:a", "64k"]),
            FuzzSeed(kind: "png", path: try still(hue: .green, width: 160, height: 120, format: .png)),
            FuzzSeed(kind: "jpeg", path: try still(hue: .blue, width: 160, height: 120, format: .jpeg)),
            try clip("mkv-video-only.mkv", video: h264, audio: nil),
            try clip("mp4-video-only.mp4", video: mpeg4, audio: nil, extra: fastStart),
            try clip("flac.flac", video: nil, audio: ["-c:a", "flac"]),
        ]
    }

    /// A valid PNG whose compressed picture data (the IDAT chunk's payload) is overwritten: it opens and
    /// probes as a PNG, and the decoder gets no picture out of it (zlib fails), like a half-copied image.
    public static func damagedPNG() throws -> String {
        let source = try still(hue: .red, width: 160, height: 120, format: .png)
        guard var bytes = FileManager.default.contents(atPath: source).map(Array.init) else {
            throw TestSupportError.io("cannot read \(source)")
        }
        guard let idat = bytes.firstRange(of: Array("IDAT".utf8)) else {
            throw TestSupportError.io("\(source) has no IDAT chunk")
        }
        let length =
            Int(bytes[idat.lowerBound - 4]) << 24 | Int(bytes[idat.lowerBound - 3]) << 16
            | Int(bytes[idat.lowerBound - 2]) << 8 | Int(bytes[idat.lowerBound - 1])
        // Keep the zlib header (2 bytes) so the decoder starts inflating, then junk.
        let payload = (idat.upperBound + 2)..<min(bytes.count, idat.upperBound + length)
        for index in payload { bytes[index] = UInt8(truncatingIfNeeded: index &* 131 &+ 7) }
        let path = "\(directory)/damaged-idat.png"
        try atomicallyWrite(Data(bytes), to: path)
        return path
    }

    /// A video-only Matroska file whose stream info cannot be read (the crash of the fuzz report): its H.264
    /// track lost its CodecPrivate (the element id is changed, so the demuxer skips it) and its packets are
    /// length-prefixed, so FFmpeg's extradata extraction fails ("No start code is found") and
    /// avformat_find_stream_info returns an error after the input was opened.
    public static func unreadableStreamInfoMKV() throws -> String {
        guard let source = try fuzzSeeds().first(where: { $0.kind == "mkv-video-only" })?.path,
            var bytes = FileManager.default.contents(atPath: source).map(Array.init)
        else { throw TestSupportError.io("no video-only Matroska seed") }
        guard let codecPrivate = bytes.firstRange(of: [0x63, 0xA2]) else {
            throw TestSupportError.io("\(source) has no CodecPrivate element")
        }
        bytes[codecPrivate.lowerBound + 1] = 0xA3
        let path = "\(directory)/no-codec-private.mkv"
        try atomicallyWrite(Data(bytes), to: path)
        return path
    }
}
