// Which decoder an item's video gets: hardware (which method) or software, and why — decided from the
// operator's setting (`--hwdec no|auto|LIST`, `--hwdec-codecs`), what this FFmpeg and machine offer, and what
// already failed while the daemon runs. Pure: no FFmpeg, no device; the Media module asks and carries out.
// `auto` tries only the methods known to be safe (as mpv's whitelist: nvdec, vaapi, drm); v4l2m2m is used
// only when named, because its decoders hung on some boards (Anthias' Pi reports).

/// A hardware decoding method, as the command line names it.
public enum HWMethod: String, CaseIterable, Sendable, Hashable {
    case vaapi, nvdec, v4l2m2m, drm

    /// What `auto` may try, in order.
    public static let safeForAuto: [HWMethod] = [.nvdec, .vaapi, .drm]
}

/// The operator's choice.
public struct HWDecodeSetting: Sendable, Equatable {
    public enum Methods: Sendable, Equatable, CustomStringConvertible {
        case no
        case auto
        case list([HWMethod])

        /// As the command line says it: `no`, `auto`, `vaapi,nvdec`.
        public var description: String {
            switch self {
            case .no: "no"
            case .auto: "auto"
            case .list(let methods): methods.map(\.rawValue).joined(separator: ",")
            }
        }
    }
    public var methods: Methods
    /// Codecs (FFmpeg names) that may be decoded in hardware.
    public var codecs: Set<String>

    public static let defaultCodecs: Set<String> = ["h264", "hevc", "vp9", "av1"]

    public init(methods: Methods = .no, codecs: Set<String> = defaultCodecs) {
        self.methods = methods
        self.codecs = codecs
    }

    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// `no`, `auto`, or a comma-separated list of methods (`vaapi,nvdec`), tried in that order.
    public static func methods(parsing text: String) throws(ParseError) -> Methods {
        let trimmed = text.trimmingWhitespace.lowercased()
        if trimmed == "no" || trimmed.isEmpty { return .no }
        if trimmed == "auto" { return .auto }
        var list: [HWMethod] = []
        for name in trimmed.split(separator: ",").map({ String($0).trimmingWhitespace }) {
            guard let method = HWMethod(rawValue: name) else {
                throw ParseError(
                    description: "unknown hwdec method \(name) (no, auto, or a list of "
                        + HWMethod.allCases.map(\.rawValue).joined(separator: ", ") + ")")
            }
            if !list.contains(method) { list.append(method) }
        }
        return .list(list)
    }

    /// A comma-separated list of codec names.
    public static func codecs(parsing text: String) throws(ParseError) -> Set<String> {
        let names = text.split(separator: ",").map { String($0).trimmingWhitespace.lowercased() }.filter { !$0.isEmpty }
        guard !names.isEmpty, names.allSatisfy({ $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } }) else {
            throw ParseError(description: "--hwdec-codecs takes codec names such as h264,hevc,vp9,av1")
        }
        return Set(names)
    }
}

/// What the machine and this FFmpeg can do, as far as the choice needs (the Media module answers from
/// FFmpeg; tests give a fake).
public protocol HWDecodeBackend {
    /// Whether `method` can decode `codec` with this FFmpeg (a decoder with that hardware config exists).
    func supports(_ method: HWMethod, codec: String) -> Bool
}

/// The decision for one item's video.
public enum HWDecodeChoice: Sendable, Equatable {
    /// Try `method`; if it fails, the next of `then` (each already checked as possible), else software.
    case hardware(HWMethod, then: [HWMethod])
    /// Software, and why (said in the log and the status).
    case software(reason: String)

    public var method: HWMethod? {
        if case .hardware(let method, _) = self { method } else { nil }
    }
}

/// Failures remembered while the daemon runs: a method whose device could not be made fails for every codec;
/// a method that failed on a codec (refused profile, errors, no first picture) fails for that codec.
public struct HWDecodeFailures: Sendable, Equatable {
    public private(set) var devices: [HWMethod: String] = [:]
    public private(set) var codecs: [String: String] = [:]
    /// Devices that work but only emulate their method (a VA-API driver over VDPAU or NVDEC, which mpv's
    /// `auto` refuses too): `auto` skips them, a list that names the method uses them.
    public private(set) var emulated: [HWMethod: String] = [:]

    public init() {}

    private static func key(_ method: HWMethod, _ codec: String) -> String { method.rawValue + "/" + codec }

    public mutating func deviceFailed(_ method: HWMethod, reason: String) { devices[method] = reason }
    public mutating func deviceEmulated(_ method: HWMethod, reason: String) { emulated[method] = reason }
    public mutating func failed(_ method: HWMethod, codec: String, reason: String) {
        codecs[Self.key(method, codec)] = reason
    }

    /// Why `method` must not be tried for `codec`, or nil.
    public func reason(_ method: HWMethod, codec: String) -> String? {
        devices[method] ?? codecs[Self.key(method, codec)]
    }
}

public enum HWDecodePolicy {
    /// The methods to try for `codec`, in order, or software with the reason.
    public static func choose(
        codec: String, setting: HWDecodeSetting, backend: some HWDecodeBackend, failures: HWDecodeFailures
    ) -> HWDecodeChoice {
        let candidates: [HWMethod]
        switch setting.methods {
        case .no: return .software(reason: "hwdec is off")
        case .auto: candidates = HWMethod.safeForAuto
        case .list(let list): candidates = list
        }
        guard setting.codecs.contains(codec) else {
            return .software(reason: "\(codec) is not among the hwdec codecs (\(setting.codecs.sorted().joined(separator: ",")))")
        }
        var skipped: [String] = []
        var usable: [HWMethod] = []
        for method in candidates {
            if setting.methods == .auto, let reason = failures.emulated[method] {
                skipped.append("\(method.rawValue): \(reason)")
            } else if let reason = failures.reason(method, codec: codec) {
                skipped.append("\(method.rawValue): \(reason)")
            } else if !backend.supports(method, codec: codec) {
                skipped.append("\(method.rawValue): no \(codec) decoder for it in this FFmpeg")
            } else {
                usable.append(method)
            }
        }
        guard let first = usable.first else {
            return .software(reason: skipped.isEmpty ? "no hwdec method" : skipped.joined(separator: "; "))
        }
        return .hardware(first, then: Array(usable.dropFirst()))
    }
}

extension HWDecodePolicy {
    /// Why a VA-API device whose driver says `vendor` only emulates VA-API, or nil for a native driver: the
    /// VDPAU and NVDEC back-ends translate VA-API onto another API, with known faults (as mpv's
    /// `is_emulated` in video/vaapi.c finds them, by the vendor string).
    public static func emulation(vaapiVendor vendor: String) -> String? {
        for (marker, name) in [("VDPAU backend", "VDPAU"), ("NVDEC driver", "NVDEC")] where vendor.contains(marker) {
            return "an emulated driver (VA-API over \(name): \(vendor)); auto does not use it, naming vaapi does"
        }
        return nil
    }
}

extension String {
    var trimmingWhitespace: String {
        var text = Substring(self)
        while text.first?.isWhitespace == true { text.removeFirst() }
        while text.last?.isWhitespace == true { text.removeLast() }
        return String(text)
    }
}
