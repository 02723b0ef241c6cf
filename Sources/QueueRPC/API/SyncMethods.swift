// sync.* methods: what a sync group's program (queued-sync) needs of its daemon — the play heard and when,
// on the clock the group's exchanges use (sync.clock), the sound's pace trimmed (sync.trim), a play placed
// to be heard from a position at an instant (sync.align) — and what it tells back for `queuectl sync status`
// and the metrics (sync.report, sync.status).

import JSONText

extension API {
    public enum SyncClock: RPCMethodDefinition {
        public static let name = "sync.clock"
        public typealias Params = NoParams

        public struct Result: RPCMethodResult, Equatable {
            /// The clock's reading when the answer was made (seconds, the daemon's monotonic clock).
            public var now: Double
            public var state: String
            /// The play being heard (nil: none).
            public var heard: SyncHeard?
            public var trimPPM: Double
            public var queueVersion: Int64
            public init(now: Double, state: String, heard: SyncHeard?, trimPPM: Double, queueVersion: Int64) {
                (self.now, self.state, self.heard, self.trimPPM, self.queueVersion) = (now, state, heard, trimPPM, queueVersion)
            }
            public init?(json: JSONValue) {
                guard let now = json["now"]?.doubleValue, let state = json["state"]?.stringValue else { return nil }
                (self.now, self.state) = (now, state)
                heard = json["heard"].flatMap(SyncHeard.init(json:))
                trimPPM = json["trimPPM"]?.doubleValue ?? 0
                queueVersion = json["queueVersion"]?.intValue ?? 0
            }
            public var json: JSONValue {
                [
                    "now": .double(now), "state": .string(state), "heard": heard?.json ?? .null,
                    "trimPPM": .double(trimPPM), "queueVersion": .int(queueVersion),
                ]
            }
        }
    }

    /// A play heard at an instant: item `id` (at `index` in the queue), its `play`-th play, at `position`
    /// seconds of it, heard at `at` (the sync clock).
    public struct SyncHeard: Sendable, Equatable {
        public var id: Int64
        public var index: Int64
        public var play: Int64
        public var position: Double
        public var at: Double
        public var duration: Double?
        public var uri: String
        public init(id: Int64, index: Int64, play: Int64, position: Double, at: Double, duration: Double?, uri: String) {
            (self.id, self.index, self.play, self.position, self.at, self.duration) = (id, index, play, position, at, duration)
            self.uri = uri
        }
        public init?(json: JSONValue) {
            guard let id = json["id"]?.intValue, let play = json["play"]?.intValue, let position = json["position"]?.doubleValue,
                let at = json["at"]?.doubleValue
            else { return nil }
            (self.id, self.play, self.position, self.at) = (id, play, position, at)
            index = json["index"]?.intValue ?? 0
            duration = json["duration"]?.doubleValue
            uri = json["uri"]?.stringValue ?? ""
        }
        public var json: JSONValue {
            [
                "id": .int(id), "index": .int(index), "play": .int(play), "position": .double(position), "at": .double(at),
                "duration": duration.map(JSONValue.double) ?? .null, "uri": .string(uri),
            ]
        }
    }

    public enum SyncTrim: RPCMethodDefinition {
        public static let name = "sync.trim"

        public struct Params: RPCMethodParams, Equatable {
            public var references: [String] { [] }
            public static let order = ["ppm"]
            public var ppm: Double
            public init(ppm: Double) { self.ppm = ppm }
            public init(reading params: ParamReader) throws(RPCError) {
                guard let ppm = try params.double("ppm", in: -5000...5000) else {
                    throw .invalidParams(param: "ppm", reason: "required: parts per million, -5000 to 5000")
                }
                self.ppm = ppm
            }
            public var json: JSONValue? { ["ppm": .double(ppm)] }
        }

        public struct Result: RPCMethodResult, Equatable {
            public var trimPPM: Double
            public init(trimPPM: Double) { self.trimPPM = trimPPM }
            public init?(json: JSONValue) {
                guard let trim = json["trimPPM"]?.doubleValue else { return nil }
                trimPPM = trim
            }
            public var json: JSONValue { ["trimPPM": .double(trimPPM)] }
        }
    }

    public enum SyncAlign: RPCMethodDefinition {
        public static let name = "sync.align"
        public typealias Result = RPCStatus

        public struct Params: RPCMethodParams, Equatable {
            public var references: [String] { [] }
            public static let order = ["id", "play", "position", "at"]
            public var id: Int64
            public var play: Int64
            public var position: Double
            /// The sync clock's seconds (sync.clock's `now`), at most 10 s ahead.
            public var at: Double
            public init(id: Int64, play: Int64, position: Double, at: Double) {
                (self.id, self.play, self.position, self.at) = (id, play, position, at)
            }
            public init(reading params: ParamReader) throws(RPCError) {
                id = try params.requiredInt("id")
                play = try params.int("play", in: 1...Int64(Int32.max)) ?? 1
                guard let position = try params.double("position", in: 0...1e9) else {
                    throw .invalidParams(param: "position", reason: "required: seconds into the item")
                }
                self.position = position
                at = try params.requiredDouble("at")
                guard at.isFinite else { throw .invalidParams(param: "at", reason: "must be a finite number") }
            }
            public var json: JSONValue? {
                ["id": .int(id), "play": .int(play), "position": .double(position), "at": .double(at)]
            }
        }
    }

    public enum SyncReport: RPCMethodDefinition {
        public static let name = "sync.report"

        public struct Params: RPCMethodParams, Equatable {
            public var references: [String] { [] }
            public static let order = ["report"]
            public var report: SyncGroupReport
            public init(report: SyncGroupReport) { self.report = report }
            public init(reading params: ParamReader) throws(RPCError) {
                guard let raw = params.raw("report"), let report = SyncGroupReport(json: raw), report.isReasonable else {
                    throw .invalidParams(param: "report", reason: "required: {group, me, leader, members: [...]} (at most 256 members)")
                }
                self.report = report
            }
            public var json: JSONValue? { ["report": report.json] }
        }

        public struct Result: RPCMethodResult, Equatable {
            public init() {}
            public init?(json: JSONValue) {}
            public var json: JSONValue { ["kept": .bool(true)] }
        }
    }

    public enum SyncStatus: RPCMethodDefinition {
        public static let name = "sync.status"
        public typealias Params = NoParams

        public struct Result: RPCMethodResult, Equatable {
            public var report: SyncGroupReport
            /// Seconds since the sync program told it.
            public var age: Double
            public init(report: SyncGroupReport, age: Double) { (self.report, self.age) = (report, age) }
            public init?(json: JSONValue) {
                guard let report = SyncGroupReport(json: json) else { return nil }
                self.report = report
                age = json["age"]?.doubleValue ?? 0
            }
            public var json: JSONValue {
                var object = report.json.objectValue ?? JSONObject()
                object["age"] = .double(age)
                return .object(object)
            }
        }
    }

    /// What a member of a sync group knows of the group: who leads, and each member's distance to the leader.
    public struct SyncGroupReport: Sendable, Equatable {
        public var group: String
        public var me: String
        public var leader: String?
        public var members: [SyncMemberReport]
        public init(group: String, me: String, leader: String?, members: [SyncMemberReport]) {
            (self.group, self.me, self.leader, self.members) = (group, me, leader, members)
        }
        public init?(json: JSONValue) {
            guard let group = json["group"]?.stringValue, let me = json["me"]?.stringValue,
                let members = json["members"]?.arrayValue
            else { return nil }
            (self.group, self.me) = (group, me)
            leader = json["leader"]?.stringValue
            self.members = members.compactMap(SyncMemberReport.init(json:))
        }
        var isReasonable: Bool {
            group.utf8.count <= 128 && me.utf8.count <= 128 && (leader?.utf8.count ?? 0) <= 128 && members.count <= 256
                && members.allSatisfy { $0.id.utf8.count <= 128 }
        }
        public var json: JSONValue {
            [
                "group": .string(group), "me": .string(me), "leader": leader.map(JSONValue.string) ?? .null,
                "members": .array(members.map(\.json)),
            ]
        }
    }

    /// One member as its own sync program measured it: its media clock's offset to the leader's over the
    /// last minute (milliseconds; positive: ahead), its clock's drift to the leader's, the trim in force,
    /// and the corrections made.
    public struct SyncMemberReport: Sendable, Equatable {
        public var id: String
        public var role: String
        public var offsetP50: Double?
        public var offsetP99: Double?
        public var driftPPM: Double?
        public var trimPPM: Double?
        public var realignments: Int64
        public var seenAgo: Double
        public init(
            id: String, role: String, offsetP50: Double?, offsetP99: Double?, driftPPM: Double?, trimPPM: Double?,
            realignments: Int64, seenAgo: Double
        ) {
            (self.id, self.role, self.offsetP50, self.offsetP99) = (id, role, offsetP50, offsetP99)
            (self.driftPPM, self.trimPPM, self.realignments, self.seenAgo) = (driftPPM, trimPPM, realignments, seenAgo)
        }
        public init?(json: JSONValue) {
            guard let id = json["id"]?.stringValue, let role = json["role"]?.stringValue else { return nil }
            (self.id, self.role) = (id, role)
            offsetP50 = json["offsetP50"]?.doubleValue
            offsetP99 = json["offsetP99"]?.doubleValue
            driftPPM = json["driftPPM"]?.doubleValue
            trimPPM = json["trimPPM"]?.doubleValue
            realignments = json["realignments"]?.intValue ?? 0
            seenAgo = json["seenAgo"]?.doubleValue ?? 0
        }
        public var json: JSONValue {
            func number(_ value: Double?) -> JSONValue { value.map(JSONValue.double) ?? .null }
            return [
                "id": .string(id), "role": .string(role), "offsetP50": number(offsetP50), "offsetP99": number(offsetP99),
                "driftPPM": number(driftPPM), "trimPPM": number(trimPPM), "realignments": .int(realignments),
                "seenAgo": .double(seenAgo),
            ]
        }
    }
}
