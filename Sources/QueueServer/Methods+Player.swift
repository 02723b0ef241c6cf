// player.* methods: transport, settings and the screenshot. Each answers with the Status after the
// change (the screenshot with a PNG, produced off the event loop). Params and results are QueueRPC's
// API definitions; this file only carries them out on the engine.

import Dispatch
import DecodeChoice
import FoundationEssentials
import Glibc
import SystemSupport
import NIOCore
import Playback
import QueueModel
import QueueRPC
import SystemClock

extension Dispatcher {
    static func playerMethods(_ engine: PlayerEngine) -> [RPCMethod] {
        /// A command without params that answers with the Status after it.
        func transport<Method: RPCMethodDefinition>(
            _ method: Method.Type, _ kind: RPCMethod.Kind, _ action: @escaping @Sendable () throws -> Void
        ) -> RPCMethod where Method.Params == NoParams, Method.Result == RPCStatus {
            .answering(method, kind) { _, _ in
                try action()
                return Wire.status(engine.status())
            }
        }
        return [
            .answering(API.PlayerPlay.self, .change) { params, _ in
                let id = params.id.map { ItemID(Int($0)) }
                if let at = params.at {
                    // A day ahead at most: further is a mistake (milliseconds for seconds), not a plan.
                    guard at.isFinite, at <= Monotonic.wallClock() + 86_400 else {
                        throw RPCError.invalidParams(param: "at", reason: "must be a Unix time at most a day from now")
                    }
                    try engine.play(id: id, at: at)
                } else {
                    try engine.play(id: id)
                }
                return Wire.status(engine.status())
            },
            transport(API.PlayerPause.self, .change) { engine.pause() },
            transport(API.PlayerToggle.self, .change) { try engine.toggle() },
            transport(API.PlayerStop.self, .change) { engine.stop() },
            transport(API.PlayerNext.self, .change) { try engine.next() },
            transport(API.PlayerPrevious.self, .change) { try engine.previous() },
            .answering(API.PlayerSeek.self, .change) { params, _ in
                try engine.seek(to: params.position, relative: params.relative)
                return Wire.status(engine.status())
            },
            transport(API.PlayerStatus.self, .query) {},
            .answering(API.PlayerSet.self, .change) { params, _ in
                try applySettings(params, to: engine)
                return Wire.status(engine.status())
            },
            .answering(API.DisplayPower.self, .change) { params, _ in
                engine.setScreenPower(ScreenPowerRequest(rawValue: params.power.rawValue) ?? .auto)
                return Wire.status(engine.status())
            },
            .answeringLater(API.PlayerScreenshot.self) { params, loop in
                let promise = loop.makePromise(of: API.PlayerScreenshot.Result.self)
                let request = ScreenshotRequest(
                    format: params.format == .jpeg ? .jpeg : .png, maxWidth: params.maxWidth.map { Int($0) })
                DispatchQueue.global().async {
                    do {
                        let shot = try engine.screenshot(request)
                        let text = Data(shot.bytes).base64EncodedString()
                        promise.succeed(
                            .init(
                                png: shot.format == .png ? text : nil, jpeg: shot.format == .jpeg ? text : nil,
                                width: Int64(shot.width), height: Int64(shot.height)))
                    } catch {
                        promise.fail(error)
                    }
                }
                return promise.futureResult
            },
        ]
    }
}

extension Dispatcher {
    /// Carries out player.set's settings (state.apply's too); the params have been checked by their reading.
    static func applySettings(_ params: API.PlayerSet.Params, to engine: PlayerEngine) throws {
        if let rate = params.rate { try engine.setRate(rate) }
        if params.volume != nil || params.muted != nil {
            engine.setVolume(params.volume.map { Int($0) }, muted: params.muted)
        }
        if let fit = params.fit { engine.setFit(VideoFit(rawValue: fit.rawValue) ?? .fit) }
        if let fullscreen = params.fullscreen { engine.setFullscreen(fullscreen) }
        if let rotate = params.rotate, let rotation = VideoRotation(rawValue: Int(rotate)) {
            engine.setRotation(rotation)
        }
        if let hwdec = params.hwdec, let registry = engine.hwdec,
            let methods = try? HWDecodeSetting.methods(parsing: hwdec)
        {
            // From the next item opened (the one prepared ahead may already have its decoder).
            registry.setting = HWDecodeSetting(methods: methods, codecs: registry.setting.codecs)
        }
    }
}
