// Hardware decoding devices as FFmpeg makes them (issue 27): which methods this FFmpeg offers for which
// codec (a decoder with a hardware configuration for that device type, or a `<codec>_v4l2m2m` wrapper
// decoder), one device per method made once per daemon and shared by every decoder, and a failure to make
// one remembered with its reason (FFmpeg says why only at verbose log level, so the reason is built here
// from the return code). DecodeChoice decides; this carries it out.
// Threads: any (the prefetch thread opens items); the registry's state is behind its mutex, and a device
// is made outside it (it may take a while) by the one thread that claimed it.

import CFFmpeg
import DecodeChoice
import Glibc
import Synchronization

/// An FFmpeg hardware device context (`AVBufferRef` of an `AVHWDeviceContext`), owned: unreferenced in deinit.
public final class HWDevice: @unchecked Sendable {
    public let method: HWMethod
    let buffer: UnsafeMutablePointer<AVBufferRef>

    init(method: HWMethod, buffer: UnsafeMutablePointer<AVBufferRef>) {
        self.method = method
        self.buffer = buffer
    }

    deinit {
        var optional: UnsafeMutablePointer<AVBufferRef>? = buffer
        av_buffer_unref(&optional)
    }

    /// FFmpeg's device type for `method`; nil for v4l2m2m, whose wrapper decoders need no device.
    static func deviceType(_ method: HWMethod) -> AVHWDeviceType? {
        switch method {
        case .vaapi: AV_HWDEVICE_TYPE_VAAPI
        case .nvdec: AV_HWDEVICE_TYPE_CUDA
        case .drm: AV_HWDEVICE_TYPE_DRM
        case .v4l2m2m: nil
        }
    }

    /// Makes the default device of `method`, or says why it cannot.
    static func make(_ method: HWMethod) -> Result<HWDevice, MediaError> {
        guard let type = deviceType(method) else {
            return .failure(MediaError(operation: "hwdec", message: "\(method.rawValue) needs no device"))
        }
        var buffer: UnsafeMutablePointer<AVBufferRef>?
        let code = av_hwdevice_ctx_create(&buffer, type, nil, nil, 0)
        guard code >= 0, let buffer else {
            return .failure(
                MediaError(
                    code: code, operation: "hwdec",
                    message: "cannot create a device: \(MediaError.text(for: code)) (\(code))"))
        }
        return .success(HWDevice(method: method, buffer: buffer))
    }

    /// A VA-API device's driver, as `vaQueryVendorString` gives it ("Intel iHD driver…", "Splitted-Desktop
    /// Systems VDPAU backend for VA-API…"); nil for other methods. libva is in the process already
    /// (libavutil links it), so it is looked up there: no libva headers needed. The VADisplay is the first
    /// field of FFmpeg's AVVAAPIDeviceContext (libavutil/hwcontext_vaapi.h).
    var vaapiVendor: String? {
        guard method == .vaapi, let data = buffer.pointee.data else { return nil }
        let device = UnsafeMutableRawPointer(data).assumingMemoryBound(to: AVHWDeviceContext.self)
        guard let hardwareContext = device.pointee.hwctx,
            let display = hardwareContext.load(as: UnsafeMutableRawPointer?.self),
            let symbol = dlsym(nil, "vaQueryVendorString")
        else { return nil }
        typealias QueryVendor = @convention(c) (UnsafeMutableRawPointer?) -> UnsafePointer<CChar>?
        return unsafeBitCast(symbol, to: QueryVendor.self)(display).map { String(cString: $0) }
    }
}

/// What this FFmpeg build can decode in hardware, from its own tables.
public struct FFmpegHWBackend: HWDecodeBackend, Sendable {
    public init() {}

    /// The device types this libavutil was built with.
    static func deviceTypes() -> Set<UInt32> {
        var types: Set<UInt32> = []
        var type = av_hwdevice_iterate_types(AV_HWDEVICE_TYPE_NONE)
        while type != AV_HWDEVICE_TYPE_NONE {
            types.insert(type.rawValue)
            type = av_hwdevice_iterate_types(type)
        }
        return types
    }

    public func supports(_ method: HWMethod, codec: String) -> Bool {
        guard let type = HWDevice.deviceType(method) else {
            return avcodec_find_decoder_by_name(codec + "_v4l2m2m") != nil
        }
        guard Self.deviceTypes().contains(type.rawValue), let decoder = avcodec_find_decoder_by_name(codec) else {
            return false
        }
        var index: Int32 = 0
        while let config = avcodec_get_hw_config(decoder, index) {
            if config.pointee.device_type == type
                && config.pointee.methods & Int32(AV_CODEC_HW_CONFIG_METHOD_HW_DEVICE_CTX) != 0
            {
                return true
            }
            index += 1
        }
        return false
    }

    /// The methods that can decode at least one of `codecs` here (what `daemon.info` lists).
    public func offered(for codecs: Set<String> = HWDecodeSetting.defaultCodecs) -> [HWMethod] {
        HWMethod.allCases.filter { method in codecs.contains { supports(method, codec: $0) } }
    }
}

/// The daemon's devices and what failed, for its whole life.
public final class HWDecodeRegistry: Sendable {
    private struct State {
        var setting: HWDecodeSetting
        var devices: [HWMethod: HWDevice] = [:]
        var failures = HWDecodeFailures()
        /// Methods a thread is making a device for (others wait for the outcome by trying again later).
        var making: Set<HWMethod> = []
        var attempts: [HWMethod: Int] = [:]
    }

    let backend: FFmpegHWBackend
    private let state: Mutex<State>

    public init(setting: HWDecodeSetting, backend: FFmpegHWBackend = FFmpegHWBackend()) {
        state = Mutex(State(setting: setting))
        self.backend = backend
    }

    /// What items opened from now on get (`--hwdec`, `player.set {hwdec}`).
    public var setting: HWDecodeSetting {
        get { state.withLock { $0.setting } }
        set { state.withLock { $0.setting = newValue } }
    }

    public var failures: HWDecodeFailures { state.withLock { $0.failures } }

    /// How many times a device of `method` was tried (at most once per daemon).
    public func attempts(_ method: HWMethod) -> Int { state.withLock { $0.attempts[method] ?? 0 } }

    /// Remembers that `method` failed on `codec` (a refused profile, errors, no first picture).
    public func failed(_ method: HWMethod, codec: String, reason: String) {
        state.withLock { $0.failures.failed(method, codec: codec, reason: reason) }
    }

    /// The device to decode `codec` with: the first method of the policy's choice whose device exists or can
    /// be made now; nil with the reasons when software it is. v4l2m2m comes back without a device.
    public func device(for codec: String) -> (method: HWMethod?, device: HWDevice?, reason: String?) {
        var reasons: [String] = []
        while true {
            let (setting, failures) = state.withLock { ($0.setting, $0.failures) }
            let choice = HWDecodePolicy.choose(codec: codec, setting: setting, backend: backend, failures: failures)
            guard case .hardware(let method, _) = choice else {
                if case .software(let reason) = choice { reasons.append(reason) }
                return (nil, nil, reasons.joined(separator: "; "))
            }
            if method == .v4l2m2m { return (method, nil, nil) }
            let claim: HWDevice?? = state.withLock { state in
                if let device = state.devices[method] { return .some(device) }
                if state.making.contains(method) { return .some(nil) }
                state.making.insert(method)
                state.attempts[method, default: 0] += 1
                return nil
            }
            switch claim {
            case .some(.some(let device)): return (method, device, nil)
            case .some(.none): return (nil, nil, "\(method.rawValue): its device is being made; software this time")
            case .none:
                let made = HWDevice.make(method)
                let emulation = (try? made.get())?.vaapiVendor.flatMap { HWDecodePolicy.emulation(vaapiVendor: $0) }
                state.withLock { state in
                    state.making.remove(method)
                    switch made {
                    case .success(let device): state.devices[method] = device
                    case .failure(let error): state.failures.deviceFailed(method, reason: error.message)
                    }
                    if let emulation { state.failures.deviceEmulated(method, reason: emulation) }
                }
                // The policy decides again with what was learnt: a device made is found above (an emulated one
                // is kept, for a list that names it), one that failed or only emulates under `auto` is passed over.
            }
        }
    }
}
