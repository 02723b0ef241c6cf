// Hardware decoding decisions with a fake backend (no GPU here): what `no`, `auto` and a list choose, the
// codecs filter, failures remembered for the daemon's life, and the monitor's rules — three errors in a
// row, a failed copy-back, a refused profile, no first picture in time — each saying where software resumes.

import DecodeChoice
import Testing

struct FakeBackend: HWDecodeBackend {
    var supported: Set<String>
    func supports(_ method: HWMethod, codec: String) -> Bool { supported.contains("\(method.rawValue)/\(codec)") }
}

@Suite struct HWDecodePolicyTests {
    let everything = FakeBackend(
        supported: Set(["vaapi", "nvdec", "v4l2m2m", "drm"].flatMap { m in ["h264", "hevc", "vp9", "av1", "vp8"].map { "\(m)/\($0)" } }))

    @Test func settingsParseAndBadOnesSayWhy() throws {
        #expect(try HWDecodeSetting.methods(parsing: "no") == .no)
        #expect(try HWDecodeSetting.methods(parsing: " AUTO ") == .auto)
        #expect(try HWDecodeSetting.methods(parsing: "vaapi, v4l2m2m,vaapi") == .list([.vaapi, .v4l2m2m]))
        #expect(throws: HWDecodeSetting.ParseError.self) { try HWDecodeSetting.methods(parsing: "cuda") }
        #expect(try HWDecodeSetting.codecs(parsing: "h264, HEVC") == ["h264", "hevc"])
        #expect(throws: HWDecodeSetting.ParseError.self) { try HWDecodeSetting.codecs(parsing: " , ") }
    }

    @Test func noIsSoftwareAndAutoTriesOnlyTheSafeMethodsInOrder() {
        let failures = HWDecodeFailures()
        #expect(HWDecodePolicy.choose(codec: "h264", setting: .init(methods: .no), backend: everything, failures: failures)
            == .software(reason: "hwdec is off"))
        #expect(HWDecodePolicy.choose(codec: "h264", setting: .init(methods: .auto), backend: everything, failures: failures)
            == .hardware(.nvdec, then: [.vaapi, .drm]), "v4l2m2m only when named")
        #expect(
            HWDecodePolicy.choose(codec: "hevc", setting: .init(methods: .list([.v4l2m2m, .vaapi])), backend: everything, failures: failures)
                == .hardware(.v4l2m2m, then: [.vaapi]))
    }

    @Test func aCodecNotListedOrNotSupportedIsSoftwareWithTheReason() {
        let failures = HWDecodeFailures()
        let vp8 = HWDecodePolicy.choose(codec: "vp8", setting: .init(methods: .auto), backend: everything, failures: failures)
        #expect(vp8.method == nil && "\(vp8)".contains("not among the hwdec codecs"))
        let onlyVaapiH264 = FakeBackend(supported: ["vaapi/h264"])
        let hevc = HWDecodePolicy.choose(codec: "hevc", setting: .init(methods: .auto), backend: onlyVaapiH264, failures: failures)
        #expect(hevc == .software(reason: "nvdec: no hevc decoder for it in this FFmpeg; vaapi: no hevc decoder for it in this FFmpeg; drm: no hevc decoder for it in this FFmpeg"))
    }

    @Test func failuresAreRememberedPerDeviceAndPerCodec() {
        var failures = HWDecodeFailures()
        failures.deviceFailed(.nvdec, reason: "cannot create device: Operation not permitted (-1)")
        #expect(HWDecodePolicy.choose(codec: "h264", setting: .init(methods: .auto), backend: everything, failures: failures)
            == .hardware(.vaapi, then: [.drm]))
        failures.failed(.vaapi, codec: "hevc", reason: "refused Main 10 3840x2160")
        #expect(HWDecodePolicy.choose(codec: "hevc", setting: .init(methods: .auto), backend: everything, failures: failures)
            == .hardware(.drm, then: []))
        #expect(HWDecodePolicy.choose(codec: "h264", setting: .init(methods: .list([.vaapi])), backend: everything, failures: failures)
            == .hardware(.vaapi, then: []), "vaapi failed only for hevc")
        failures.deviceFailed(.vaapi, reason: "no device")
        let none = HWDecodePolicy.choose(codec: "h264", setting: .init(methods: .list([.nvdec, .vaapi])), backend: everything, failures: failures)
        #expect(none == .software(reason: "nvdec: cannot create device: Operation not permitted (-1); vaapi: no device"))
    }

    @Test func autoNeverUsesAnEmulatedVAAPIDriverButNamingVaapiDoes() {
        #expect(HWDecodePolicy.emulation(vaapiVendor: "Intel iHD driver for Intel(R) Gen Graphics - 23.1.1 ()") == nil)
        #expect(HWDecodePolicy.emulation(vaapiVendor: "Mesa Gallium driver 22.3.6 for AMD Radeon Vega 8") == nil)
        let vdpau = HWDecodePolicy.emulation(vaapiVendor: "Splitted-Desktop Systems VDPAU backend for VA-API - 0.7.4")
        #expect(vdpau?.contains("VA-API over VDPAU") == true)
        #expect(HWDecodePolicy.emulation(vaapiVendor: "VA-API NVDEC driver [direct backend]")?.contains("over NVDEC") == true)

        var failures = HWDecodeFailures()
        failures.deviceFailed(.nvdec, reason: "no CUDA")
        failures.deviceEmulated(.vaapi, reason: vdpau ?? "")
        let auto = HWDecodePolicy.choose(
            codec: "h264", setting: .init(methods: .auto), backend: everything, failures: failures)
        #expect(auto == .hardware(.drm, then: []), "auto passes over the emulated vaapi")
        let onlyVaapi = FakeBackend(supported: ["vaapi/h264", "nvdec/h264"])
        let none = HWDecodePolicy.choose(
            codec: "h264", setting: .init(methods: .auto), backend: onlyVaapi, failures: failures)
        #expect("\(none)".contains("vaapi: an emulated driver (VA-API over VDPAU"), "and says why: \(none)")
        #expect(
            HWDecodePolicy.choose(
                codec: "h264", setting: .init(methods: .list([.vaapi])), backend: everything, failures: failures)
                == .hardware(.vaapi, then: []), "an operator who names vaapi gets it")
    }

    @Test func threeErrorsInARowGiveUpAndAPictureBetweenThemResetsTheCount() {
        var monitor = HWDecodeMonitor(method: .vaapi, started: 0)
        #expect(monitor.take(.decodeError("e1"), now: 0.1) == .none)
        #expect(monitor.take(.decodeError("e2"), now: 0.2) == .none)
        #expect(monitor.take(.picture, now: 0.3) == .none)
        #expect(monitor.take(.decodeError("e3"), now: 0.4) == .none)
        #expect(monitor.take(.decodeError("e4"), now: 0.5) == .none)
        #expect(monitor.take(.decodeError("e5"), now: 0.6)
            == .software(reason: "vaapi: 3 decode errors in a row (last: e5)", from: .nextKeyframe), "pictures were shown")
        #expect(monitor.take(.decodeError("e6"), now: 0.7) == .none, "once given up, nothing more")
    }

    @Test func beforeTheFirstPictureSoftwareReplaysThePacketsSent() {
        var errors = HWDecodeMonitor(method: .nvdec, started: 10)
        _ = errors.take(.decodeError("a"), now: 10.1)
        _ = errors.take(.decodeError("b"), now: 10.2)
        #expect(errors.take(.decodeError("c"), now: 10.3) == .software(reason: "nvdec: 3 decode errors in a row (last: c)", from: .replayPackets))
        var slow = HWDecodeMonitor(method: .v4l2m2m, started: 10, firstPictureTimeout: 2)
        #expect(slow.take(.tick, now: 11.9) == .none)
        #expect(slow.take(.tick, now: 12.0) == .software(reason: "v4l2m2m: no first picture within 2 s", from: .replayPackets))
        var shown = HWDecodeMonitor(method: .vaapi, started: 10)
        _ = shown.take(.picture, now: 10.5)
        #expect(shown.take(.tick, now: 99) == .none, "the timeout is for the first picture only")
    }

    @Test func aRefusedProfileGoesOnInTheSameDecoderAndAFailedCopyBackGivesUp() {
        var refused = HWDecodeMonitor(method: .vaapi, started: 0)
        #expect(refused.take(.formatRefused("Main 10 3840x2160"), now: 0) == .software(reason: "vaapi refused Main 10 3840x2160", from: .sameDecoder))
        var copy = HWDecodeMonitor(method: .vaapi, started: 0)
        _ = copy.take(.picture, now: 0.1)
        #expect(copy.take(.transferFailed("ENOMEM"), now: 0.2) == .software(reason: "vaapi: copying a picture back failed: ENOMEM", from: .nextKeyframe))
    }
}
