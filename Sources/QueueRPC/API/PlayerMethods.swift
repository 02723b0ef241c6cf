// The player.* methods: their params and results (Protocol/queued.openrpc.json, methods player.*). Every
// transport and settings method answers with the Status after the command (RPCStatus).

import DecodeChoice

extension API {
    public enum PlayerPlay: RPCMethodDefinition {
        public static let name = "player.play"
        public static let zoned = true
        public typealias Result = RPCStatus

        public struct Params: RPCMethodParams, Equatable {
            public var references: [String] { [] }
            public static let order = ["id", "at"]
            /// The item to play from its start; nil resumes (or starts) the current one.
            public var id: Int64?
            /// A synchronized start: the Unix time (seconds, with a fraction) the first picture is shown.
            public var at: Double?

            public init(id: Int64? = nil, at: Double? = nil) {
                self.id = id
                self.at = at
            }
            public init(reading params: ParamReader) throws(RPCError) {
                id = try params.int("id")
                at = try params.double("at")
            }
            public var json: JSONValue? {
                var object = JSONObject()
                object.setIfPresent("id", id.map(JSONValue.int))
                object.setIfPresent("at", at.map(JSONValue.double))
                return object.isEmpty ? nil : .object(object)
            }
        }
    }

    public enum PlayerPause: RPCMethodDefinition {
        public static let name = "player.pause"
        public static let zoned = true
        public typealias Params = NoParams
        public typealias Result = RPCStatus
    }

    public enum PlayerToggle: RPCMethodDefinition {
        public static let name = "player.toggle"
        public static let zoned = true
        public typealias Params = NoParams
        public typealias Result = RPCStatus
    }

    public enum PlayerStop: RPCMethodDefinition {
        public static let name = "player.stop"
        public static let zoned = true
        public typealias Params = NoParams
        public typealias Result = RPCStatus
    }

    public enum PlayerNext: RPCMethodDefinition {
        public static let name = "player.next"
        public static let zoned = true
        public typealias Params = NoParams
        public typealias Result = RPCStatus
    }

    public enum PlayerPrevious: RPCMethodDefinition {
        public static let name = "player.previous"
        public static let zoned = true
        public typealias Params = NoParams
        public typealias Result = RPCStatus
    }

    public enum PlayerSeek: RPCMethodDefinition {
        public static let name = "player.seek"
        public static let zoned = true
        public typealias Result = RPCStatus

        public struct Params: RPCMethodParams, Equatable {
            public var references: [String] { [] }
            public static let order = ["position", "relative"]
            /// Seconds into the item, or from the current position when `relative`.
            public var position: Double
            public var relative: Bool

            public init(position: Double, relative: Bool = false) {
                self.position = position
                self.relative = relative
            }
            public init(reading params: ParamReader) throws(RPCError) {
                position = try params.requiredDouble("position")
                relative = try params.bool("relative") ?? false
            }
            public var json: JSONValue? {
                relative ? ["position": .double(position), "relative": true] : ["position": .double(position)]
            }
        }
    }

    public enum PlayerStatus: RPCMethodDefinition {
        public static let name = "player.status"
        public static let zoned = true
        public typealias Params = NoParams
        public typealias Result = RPCStatus
    }

    public enum PlayerSet: RPCMethodDefinition {
        public static let name = "player.set"
        public static let zoned = true
        public typealias Result = RPCStatus

        /// The settings to change; at least one.
        public struct Params: RPCMethodParams, Equatable {
            public var references: [String] { [] }
            public static let order = ["volume", "muted", "rate", "fit", "fullscreen", "rotate", "hwdec"]
            public static let rates: ClosedRange<Double> = 0.5...2
            /// Degrees clockwise.
            public static let rotations: [Int64] = [0, 90, 180, 270]
            public var volume: Int64?
            public var muted: Bool?
            public var rate: Double?
            public var fit: RPCFit?
            public var fullscreen: Bool?
            /// One of `rotations`.
            public var rotate: Int64?
            /// Hardware video decoding for items opened from now on: `no`, `auto` or a list (`vaapi,nvdec`).
            public var hwdec: String?

            public init(
                volume: Int64? = nil, muted: Bool? = nil, rate: Double? = nil, fit: RPCFit? = nil,
                fullscreen: Bool? = nil, rotate: Int64? = nil, hwdec: String? = nil
            ) {
                self.hwdec = hwdec
                self.volume = volume
                self.muted = muted
                self.rate = rate
                self.fit = fit
                self.fullscreen = fullscreen
                self.rotate = rotate
            }
            public init(reading params: ParamReader) throws(RPCError) {
                volume = try params.int("volume", in: 0...100)
                muted = try params.bool("muted")
                rate = try params.double("rate", in: Self.rates)
                fit = try params.enum("fit", RPCFit.self)
                fullscreen = try params.bool("fullscreen")
                rotate = try params.int("rotate")
                hwdec = try params.string("hwdec")
                if let hwdec {
                    do throws(HWDecodeSetting.ParseError) {
                        _ = try HWDecodeSetting.methods(parsing: hwdec)
                    } catch {
                        throw .invalidParams(param: "hwdec", reason: error.description)
                    }
                }
                if let rotate, !Self.rotations.contains(rotate) {
                    throw .invalidParams(
                        param: "rotate",
                        reason: "must be one of \(Self.rotations.map(String.init).joined(separator: ", "))")
                }
                guard
                    volume != nil || muted != nil || rate != nil || fit != nil || fullscreen != nil || rotate != nil
                        || hwdec != nil
                else {
                    throw .invalidParams(
                        param: nil, reason: "give at least one of \(Self.order.joined(separator: ", "))")
                }
            }
            public var json: JSONValue? {
                var object = JSONObject()
                object.setIfPresent("volume", volume.map(JSONValue.int))
                object.setIfPresent("muted", muted.map(JSONValue.bool))
                object.setIfPresent("rate", rate.map(JSONValue.double))
                object.setIfPresent("fit", fit.map { .string($0.rawValue) })
                object.setIfPresent("fullscreen", fullscreen.map(JSONValue.bool))
                object.setIfPresent("rotate", rotate.map(JSONValue.int))
                object.setIfPresent("hwdec", hwdec.map(JSONValue.string))
                return .object(object)
            }
        }
    }

    public enum PlayerScreenshot: RPCMethodDefinition {
        public static let name = "player.screenshot"

        /// The file format asked for.
        public enum Format: String, Sendable, CaseIterable {
            case png, jpeg
        }

        public struct Params: RPCMethodParams, Equatable {
            public var references: [String] { [] }
            public static let order = ["format", "maxWidth"]
            public var format: Format?
            public var maxWidth: Int64?

            public init(format: Format? = nil, maxWidth: Int64? = nil) {
                self.format = format
                self.maxWidth = maxWidth
            }
            public init(reading params: ParamReader) throws(RPCError) {
                format = try params.enum("format", Format.self)
                maxWidth = try params.int("maxWidth", in: 16...16_384)
            }
            public var json: JSONValue? {
                var object: JSONObject = [:]
                if let format { object["format"] = .string(format.rawValue) }
                if let maxWidth { object["maxWidth"] = .int(maxWidth) }
                return object.isEmpty ? nil : .object(object)
            }
        }

        public struct Result: RPCMethodResult, Equatable {
            /// The PNG file, base64 (RFC 4648, with padding); nil when a JPEG was asked for.
            public var png: String?
            /// The JPEG file, base64; nil unless asked for.
            public var jpeg: String?
            /// The size the file shows (absent from daemons before 0.6).
            public var width: Int64?
            public var height: Int64?

            public init(png: String? = nil, jpeg: String? = nil, width: Int64? = nil, height: Int64? = nil) {
                (self.png, self.jpeg, self.width, self.height) = (png, jpeg, width, height)
            }
            public init?(json: JSONValue) {
                let png = json["png"]?.stringValue
                let jpeg = json["jpeg"]?.stringValue
                guard png != nil || jpeg != nil else { return nil }
                self.init(png: png, jpeg: jpeg, width: json["width"]?.intValue, height: json["height"]?.intValue)
            }
            public var json: JSONValue {
                var object: JSONObject = [:]
                if let png { object["png"] = .string(png) }
                if let jpeg { object["jpeg"] = .string(jpeg) }
                if let width { object["width"] = .int(width) }
                if let height { object["height"] = .int(height) }
                return .object(object)
            }
        }
    }
}
