// Hardware decoding devices through the real FFmpeg on a machine with no GPU and no /dev/dri ("fallback
// tested", not "hardware decoding works"): this FFmpeg offers vaapi and nvdec for H.264 but no drm decoder;
// making their devices fails here with a reason built from FFmpeg's code; each device is tried once per
// daemon, after which `auto` says software with every reason.

import DecodeChoice
import Foundation
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
