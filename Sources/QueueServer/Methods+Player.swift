import Dispatch
import Foundation
import NIOCore
import Playback
import QueueModel
import QueueRPC
// player.* methods: transport, settings and the screenshot. Each answers with the status after the
// change (the screenshot with a PNG, produced off the event loop).
import SystemClock

extension Dispatcher {
    static func playerMethods(_ engine: PlayerEngine) -> [String: RPCMethod] {
        func transport(_ action: @escaping @Sendable () throws -> Void) -> RPCMethod {
            RPCMethod(params: []) { _, _, _ in
                try action()
                return .now(Wire.status(engine.status()))
            }
        }
        return [
            "player.play": RPCMethod(params: ["id"]) { params, _, _ in
                try engine.play(id: try params.int("id").map { ItemID(Int($0)) })
                return .now(Wire.status(engine.status()))
            },
            "player.pause": transport { engine.pause() },
            "player.toggle": transport { try engine.toggle() },
            "player.stop": transport { engine.stop() },
            "player.next": transport { try engine.next() },
            "player.previous": transport { try engine.previous() },
            "player.seek": RPCMethod(params: ["position", "relative"]) { params, _, _ in
                try engine.seek(
                    to: try params.requiredDouble("position"), relative: try params.bool("relative") ?? false)
                return .now(Wire.status(engine.status()))
            },
            "player.status": transport {},
            "player.set": RPCMethod(params: ["volume", "muted", "rate", "fit", "fullscreen"]) { params, _, _ in
                let volume = try params.int("volume", in: 0...100)
                let muted = try params.bool("muted")
                let rate = try params.double("rate")
                let fit = try params.enum("fit", VideoFit.self)
                let fullscreen = try params.bool("fullscreen")
                guard volume != nil || muted != nil || rate != nil || fit != nil || fullscreen != nil else {
                    throw RPCError.invalidParams(
                        param: nil, reason: "give at least one of volume, muted, rate, fit, fullscreen")
                }
                if let rate {
                    guard (0.5...2.0).contains(rate) else {
                        throw RPCError.invalidParams(param: "rate", reason: "must be between 0.5 and 2")
                    }
                    try engine.setRate(rate)
                }
                if volume != nil || muted != nil { engine.setVolume(volume.map { Int($0) }, muted: muted) }
                if let fit { engine.setFit(fit) }
                if let fullscreen { engine.setFullscreen(fullscreen) }
                return .now(Wire.status(engine.status()))
            },
            "player.screenshot": RPCMethod(params: []) { _, _, loop in
                let promise = loop.makePromise(of: JSONValue.self)
                DispatchQueue.global().async {
                    do {
                        let png = try engine.screenshot()
                        promise.succeed(.object(["png": .string(Data(png).base64EncodedString())]))
                    } catch {
                        promise.fail(error)
                    }
                }
                return .later(promise.futureResult)
            },
        ]
    }

    static func sessionMethods(engine: PlayerEngine, info: DaemonInfo, document: JSONValue) -> [String: RPCMethod] {
        [
            "events.subscribe": RPCMethod(params: ["events", "progressInterval"]) { params, session, _ in
                let names = try eventNames(params) ?? EventName.allCases
                if let interval = try params.double("progressInterval") {
                    guard interval >= 0.05 else {
                        throw RPCError.invalidParams(param: "progressInterval", reason: "must be >= 0.05 seconds")
                    }
                    session.progressInterval = interval
                }
                session.subscribedEvents.formUnion(names)
                return .now(
                    .object([
                        "events": .array(
                            EventName.allCases.filter(session.subscribedEvents.contains).map { .string($0.rawValue) }),
                        "progressInterval": .double(session.progressInterval),
                    ]))
            },
            "events.unsubscribe": RPCMethod(params: ["events"]) { params, session, _ in
                let names = try eventNames(params) ?? EventName.allCases
                session.subscribedEvents.subtract(names)
                return .now(
                    .object([
                        "events": .array(
                            EventName.allCases.filter(session.subscribedEvents.contains).map { .string($0.rawValue) })
                    ]))
            },
            "daemon.info": RPCMethod(params: []) { _, _, _ in
                let uptime = Monotonic.now() - info.startedAt
                return .now(
                    .object([
                        "version": .string(info.version), "pid": .int(Int64(getpid())), "socket": .string(info.socket),
                        "audio": .string(info.audio), "video": .string(info.video), "uptime": .double(uptime),
                    ]))
            },
            "rpc.discover": RPCMethod(params: []) { _, _, _ in .now(document) },
        ]
    }

    private static func eventNames(_ params: ParamReader) throws(RPCError) -> [EventName]? {
        guard let names = try params.stringArray("events") else { return nil }
        return try names.map { name throws(RPCError) -> EventName in
            guard let event = EventName(rawValue: name) else {
                throw RPCError.invalidParams(
                    param: "events",
                    reason:
                        "unknown event \(name); known: \(EventName.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return event
        }
    }
}
