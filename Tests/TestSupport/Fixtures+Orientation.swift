// Pictures that say how they are to be seen, as phones and broadcast recordings make them: a clip whose
// MP4 track carries a display matrix (turn to view), JPEGs with each EXIF orientation, anamorphic PAL clips
// and one whose pixel aspect changes mid-stream. Every picture is grey with its top-left quarter red, so a
// test can tell where the file's top-left corner is seen. ffmpeg 5.1 writes neither a rotation nor EXIF:
// the matrix is written into the MP4's track header and the EXIF segment into the JPEG by the code below.

import Foundation

extension Fixtures {
    /// The marked picture's colours (full-range RGB as written): the background and the top-left quarter.
    public static let markedBackground = (r: 128, g: 128, b: 128)
    public static let markedCorner = (r: 230, g: 30, b: 30)

    static func markedSource(width: Int, height: Int, seconds: Double = 1) -> String {
        "color=c=0x808080:s=\(width)x\(height):r=25:d=\(seconds),"
            + "drawbox=x=0:y=0:w=\(width / 2):h=\(height / 2):color=0xE61E1E@1:t=fill"
    }

    /// A 1 s H.264 MP4 of the marked picture at `width`x`height` whose track says "turn `clockwise`
    /// degrees to view" (0, 90, 180, 270), as a phone held upright writes it.
    public static func turnedClip(clockwise: Int, width: Int = 320, height: Int = 180) throws -> String {
        let plain = try make(
            "marked-\(width)x\(height).mp4",
            ["-f", "lavfi", "-i", markedSource(width: width, height: height)] + VideoCodec.h264.codecArguments
                + fastStart)
        let path = "\(directory)/marked-\(width)x\(height)-turn\(clockwise).mp4"
        if FileManager.default.fileExists(atPath: path) { return path }
        guard var bytes = FileManager.default.contents(atPath: plain).map(Array.init) else {
            throw TestSupportError.io("cannot read \(plain)")
        }
        try MP4TrackMatrix.setRotation(clockwise: clockwise, in: &bytes)
        try atomicallyWrite(Data(bytes), to: path)
        return path
    }

    /// A JPEG of the marked picture with an EXIF segment holding `Orientation` = `exif` (1…8).
    public static func orientedJPEG(exif: Int, width: Int = 320, height: Int = 180) throws -> String {
        let plain = try make(
            "marked-\(width)x\(height).jpg",
            ["-f", "lavfi", "-i", markedSource(width: width, height: height), "-frames:v", "1", "-q:v", "2",
             "-update", "1"])
        let path = "\(directory)/marked-\(width)x\(height)-exif\(exif).jpg"
        if FileManager.default.fileExists(atPath: path) { return path }
        guard let jpeg = FileManager.default.contents(atPath: plain).map(Array.init), jpeg.starts(with: [0xFF, 0xD8])
        else { throw TestSupportError.io("not a JPEG: \(plain)") }
        // APP1 "Exif\0\0" + a little-endian TIFF header + one IFD with one entry: 0x0112 SHORT 1 = exif.
        var tiff: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00, 0x01, 0x00]
        tiff += [0x12, 0x01, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00, UInt8(exif), 0x00, 0x00, 0x00]
        tiff += [0x00, 0x00, 0x00, 0x00]
        let payload: [UInt8] = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        try atomicallyWrite(Data(jpeg[0..<2] + segment + jpeg[2...]), to: path)
        return path
    }

    /// A 1 s 720x576 H.264 clip of the marked picture whose pixels are `sar` wide (16:15 PAL 4:3, 64:45
    /// PAL 16:9), in Matroska.
    public static func anamorphicClip(sar: (Int, Int)) throws -> String {
        try make(
            "marked-720x576-sar\(sar.0)x\(sar.1).mkv",
            ["-f", "lavfi", "-i", markedSource(width: 720, height: 576) + ",setsar=\(sar.0)/\(sar.1)"]
                + VideoCodec.h264.codecArguments)
    }

    /// 1 s of 720x576 with square pixels, then 1 s with 64:45 pixels, in one MPEG-TS stream (the aspect
    /// changes at the second sequence header, as a broadcast recording's does at an advert): two TS files
    /// made one after the other on the clock, joined byte for byte.
    public static func aspectChangingClip() throws -> String {
        let square = try make(
            "marked-720x576-sar1.ts",
            ["-f", "lavfi", "-i", markedSource(width: 720, height: 576) + ",setsar=1/1"]
                + VideoCodec.h264.codecArguments)
        let wide = try make(
            "marked-720x576-sar64x45-at1s.ts",
            ["-f", "lavfi", "-i", markedSource(width: 720, height: 576) + ",setsar=64/45"]
                + VideoCodec.h264.codecArguments + ["-output_ts_offset", "1"])
        let joined = "\(directory)/marked-720x576-aspect-change-\(stableHash(square + wide)).ts"
        if FileManager.default.fileExists(atPath: joined) { return joined }
        guard let first = FileManager.default.contents(atPath: square),
            let second = FileManager.default.contents(atPath: wide)
        else { throw TestSupportError.io("cannot read the two halves") }
        try atomicallyWrite(first + second, to: joined)
        return joined
    }
}

/// Writes a turn into an MP4's video track header (tkhd's matrix), where phones write it.
enum MP4TrackMatrix {
    static func setRotation(clockwise degrees: Int, in bytes: inout [UInt8]) throws {
        let fixed: (Double) -> UInt32 = { UInt32(bitPattern: Int32(($0 * 65536).rounded())) }
        let angle = Double(degrees) * .pi / 180
        let (cosine, sine) = (cos(angle).rounded(), sin(angle).rounded())
        // QuickTime's matrix maps (x, y) to (a·x + c·y + tx, b·x + d·y + ty); a clockwise turn on screen
        // (y down) is a = cos, b = sin, c = −sin, d = cos. The translation is not read for the turn.
        let matrix: [UInt32] = [
            fixed(cosine), fixed(sine), 0, fixed(-sine), fixed(cosine), 0, 0, 0, 0x4000_0000,
        ]
        guard let moov = box("moov", in: bytes, range: 0..<bytes.count),
            let trak = box("trak", in: bytes, range: moov),
            let tkhd = box("tkhd", in: bytes, range: trak)
        else { throw TestSupportError.io("no moov/trak/tkhd in the MP4") }
        let version = bytes[tkhd.lowerBound]
        let offset = tkhd.lowerBound + 4 + (version == 1 ? 32 : 20) + 8 + 8
        for (index, value) in matrix.enumerated() {
            for byte in 0..<4 { bytes[offset + index * 4 + byte] = UInt8((value >> (24 - 8 * UInt32(byte))) & 0xFF) }
        }
    }

    /// The payload range of the first box of `type` directly inside `range`.
    static func box(_ type: String, in bytes: [UInt8], range: Range<Int>) -> Range<Int>? {
        var at = range.lowerBound
        while at + 8 <= range.upperBound {
            let size = bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
            let name = String(decoding: bytes[at + 4..<at + 8], as: UTF8.self)
            guard size >= 8, at + size <= range.upperBound else { return nil }
            if name == type { return (at + 8)..<(at + size) }
            at += size
        }
        return nil
    }
}
