// The methods about the connection and the daemon: event subscriptions, daemon.info, rpc.discover.

import FoundationEssentials
import Glibc
import SystemSupport
import NIOCore
import Playback
import QueueRPC
import SystemClock

extension Dispatcher {
    static func sessionMethods(engine: PlayerEngine, info: DaemonInfo, document: JSONValue) -> [RPCMethod] {
        /// The kinds `session` is subscribed to, in the document's order.
        @Sendable func subscribed(_ session: Session) -> [String] {
            EventName.allCases.filter(session.subscribedEvents.contains).map(\.rawValue)
        }
        return [
            .answering(API.EventsSubscribe.self, .query) { params, session in
                if let interval = params.progressInterval { session.progressInterval = interval }
                if let zones = params.zones { session.subscribedZones = Set(zones) }
                session.subscribedEvents.formUnion(params.events ?? EventName.allCases)
                return .init(events: subscribed(session), progressInterval: session.progressInterval)
            },
            .answering(API.EventsUnsubscribe.self, .query) { params, session in
                session.subscribedEvents.subtract(params.events ?? EventName.allCases)
                return .init(events: subscribed(session))
            },
            .answering(API.DaemonInfo.self, .query) { _, _ in
                .init(
                    version: info.version, pid: Int64(getpid()), socket: info.socket, audio: info.audio,
                    video: info.video, uptime: Monotonic.now() - info.startedAt,
                    hwdec: {
                        var hwdec = info.hwdec
                        if let setting = engine.hwdec?.setting.methods { hwdec.setting = setting.description }
                        return hwdec
                    }(),
                    display: {
                        let power = engine.screenPowerInfo()
                        let commands = engine.screenPowerCommands
                        return .init(
                            method: power.method.rawValue, why: power.why, schedule: info.displaySchedule,
                            offCommand: commands?.off, onCommand: commands?.on,
                            commandTimeout: commands?.timeout ?? 10)
                    }())
            },
            .answering(API.DaemonHealth.self, .query) { _, _ in info.health() },
            .answering(API.DaemonRestart.self, .query) { _, _ in
                guard let restart = info.restart else {
                    throw RPCError.badState("this daemon cannot restart itself")
                }
                restart()
                return .init(pid: Int64(getpid()))
            },
            .answering(API.Discover.self, .query) { _, _ in document },
        ]
    }
}
