// Hardware decoding devices through the real FFmpeg on a machine with no GPU and no /dev/dri ("fallback
// tested", not "hardware decoding works"): this FFmpeg offers vaapi and nvdec for H.264 but no drm decoder;
// making their devices fails here with a reason built from FFmpeg's code; each device is tried once per
// daemon, after which `auto` says software with every reason.

import DecodeChoice
import Foundation
import TestSupport
import Testing

@testable import Media

@Suite struct HWDevicesTests {
    @Test func thisFFmpegOffersVaapiAndNvdecForH264AndNoDRMDecoder() {
        let backend = FFmpegHWBackend()
        #expect(backend.supports(.vaapi, codec: "h264"))
        #expect(backend.supports(.nvdec, codec: "hevc"))
        #expect(!backend.supports(.drm, codec: "h264"), "stock FFmpeg has no decoder with a DRM configuration")
        #expect(!backend.supports(.vaapi, codec: "no-such-codec"))
        #expect(backend.offered().contains(.vaapi))
    }

    /// On a machine with a GPU the devices would be made: there, contrib/bench/hwdec is the check.
    @Test(.enabled(if: !FileManager.default.fileExists(atPath: "/dev/dri")))
    func withoutADeviceAutoFallsBackToSoftwareOnceWithTheReasons() throws {
        let registry = HWDecodeRegistry(setting: HWDecodeSetting(methods: .auto))
        let first = registry.device(for: "h264")
        #expect(first.method == nil && first.device == nil)
        let reason = try #require(first.reason)
        #expect(reason.contains("nvdec: cannot create a device") && reason.contains("vaapi: cannot create a device"), "\(reason)")
        #expect(reason.contains("drm: no h264 decoder"), "\(reason)")
        #expect(registry.attempts(.vaapi) == 1 && registry.attempts(.nvdec) == 1)
        // Remembered: the next item asks again and no device is tried again.
        let second = registry.device(for: "hevc")
        #expect(second.method == nil && second.reason?.contains("vaapi: cannot create a device") == true)
        #expect(registry.attempts(.vaapi) == 1 && registry.attempts(.nvdec) == 1)
        // A codec not listed never tries anything.
        let listed = HWDecodeRegistry(setting: HWDecodeSetting(methods: .list([.vaapi]), codecs: ["hevc"]))
        #expect(listed.device(for: "h264").reason?.contains("not among the hwdec codecs") == true)
        #expect(listed.attempts(.vaapi) == 0)
    }
}

extension HWDevicesTests {
    /// An H.264 clip opened with `auto` here: software, saying why, and its pictures are the software
    /// decoder's, picture for picture.
    @Test(.enabled(if: !FileManager.default.fileExists(atPath: "/dev/dri")))
    func aClipOpenedWithAutoDecodesInSoftwareAndSaysWhy() throws {
        let clip = try Fixtures.make(
            "hwdec-h264.mp4",
            ["-f", "lavfi", "-i", "testsrc2=s=320x240:r=25:d=1", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"])
        var options = MediaReaderOptions()
        options.hwdec = HWDecodeRegistry(setting: HWDecodeSetting(methods: .auto))
        let auto = try MediaReader(path: clip, options: options)
        let decoding = try #require(auto.videoDecoding)
        #expect(decoding.codec == "h264" && decoding.hwdec == nil)
        #expect(decoding.fallback?.contains("vaapi: cannot create a device") == true, "\(decoding)")
        let software = try MediaReader(path: clip)
        #expect(software.videoDecoding == VideoDecoding(codec: "h264", hwdec: nil, fallback: nil))
        var pictures = 0
        while let a = try auto.readVideo(), let b = try software.readVideo() {
            let same = a.pts == b.pts && a.width == b.width && a.height == b.height
            #expect(same && a.layout == b.layout)
            pictures += 1
        }
        #expect(pictures == 25)
    }
}
