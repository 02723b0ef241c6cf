// Proof of play: one record per play, made from the engine's itemStarted and itemEnded — what played (id,
// play, uri, title, sha256), when it started and ended on the wall clock (UTC, milliseconds), for how long,
// why it ended, and whether it was an interrupt. Advertisers pay by these, so each record carries a `seq`
// that increases and is never reused (PlayLogStore keeps the counter on disk); a consumer de-duplicates by
// it. A play that ended without having started (it failed before its first picture or sample) gets a record
// with no start and 0 seconds. Pure: events in, records out (the `plays.*` methods, `event.played`).

import JSONText

/// What the bridge knows of an item when its play starts (from the queue, or the status for an interrupt).
public struct PlayedItem: Sendable, Equatable {
    public var uri: String
    public var title: String?
    public var sha256: String?

    public init(uri: String, title: String? = nil, sha256: String? = nil) {
        self.uri = uri
        self.title = title
        self.sha256 = sha256
    }
}

public struct PlayRecord: Sendable, Equatable {
    public var seq: Int64
    public var id: Int64
    public var play: Int64
    public var item: PlayedItem?
    /// Wall-clock start and end, milliseconds since the Unix epoch (start nil: it never started).
    public var startMs: Int64?
    public var endMs: Int64
    public var reason: String
    public var error: String?
    public var interrupt: Bool
    /// The zone it played in (nil: main).
    public var zone: String?

    /// Seconds shown or heard (0 when it never started).
    public var seconds: Double { startMs.map { Double(max(0, endMs - $0)) / 1000 } ?? 0 }

    /// The record as `plays.list` and `event.played` carry it (Protocol/queued.openrpc.json, PlayRecord).
    public var json: JSONValue {
        var object: JSONObject = [
            "seq": .int(seq), "id": .int(id), "play": .int(play),
            "uri": item.map { .string($0.uri) } ?? .null, "title": item?.title.map(JSONValue.string) ?? .null,
            "start": startMs.map { .string(Self.utc($0)) } ?? .null, "end": .string(Self.utc(endMs)),
            "seconds": .double(seconds), "reason": .string(reason), "interrupt": .bool(interrupt),
        ]
        if let sha256 = item?.sha256 { object["sha256"] = .string(sha256) }
        if let error { object["error"] = .string(error) }
        if let zone { object["zone"] = .string(zone) }
        return .object(object)
    }

    /// `2026-11-25T21:01:19.123Z`.
    static func utc(_ milliseconds: Int64) -> String {
        let days = Int(floorDivide(milliseconds, 86_400_000))
        let inDay = milliseconds - Int64(days) * 86_400_000
        let (year, month, day) = civil(fromDays: days)
        let hours = inDay / 3_600_000
        let minutes = inDay / 60_000 % 60
        let seconds = inDay / 1000 % 60
        let millis = inDay % 1000
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let three = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
        return "\(year)-\(two(Int64(month)))-\(two(Int64(day)))T\(two(hours)):\(two(minutes)):\(two(seconds)).\(three)Z"
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        value >= 0 ? value / divisor : (value - divisor + 1) / divisor
    }

    /// Howard Hinnant's days-from-civil inverse (proleptic Gregorian), so no Foundation formatter is needed.
    private static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

/// Pairs starts with ends. Owned by the bridge's work queue.
public struct PlayLedger: Sendable {
    private struct Key: Hashable {
        let id: Int64
        let play: Int64
        let interrupt: Bool
    }
    private var started: [Key: (startMs: Int64, item: PlayedItem?)] = [:]

    public init() {}

    /// `event.itemStarted`: `atMs` is when its first picture (or sample) was shown.
    public mutating func started(id: Int64, play: Int64, interrupt: Bool, atMs: Int64, item: PlayedItem?) {
        started[Key(id: id, play: play, interrupt: interrupt)] = (atMs, item)
    }

    /// `event.itemEnded` at `nowMs`: the record, numbered `seq`.
    public mutating func ended(
        id: Int64, play: Int64, interrupt: Bool, reason: String, error: String?, nowMs: Int64, item: PlayedItem?,
        seq: Int64
    ) -> PlayRecord {
        let start = started.removeValue(forKey: Key(id: id, play: play, interrupt: interrupt))
        return PlayRecord(
            seq: seq, id: id, play: play, item: start?.item ?? item, startMs: start?.startMs, endMs: nowMs,
            reason: reason, error: error, interrupt: interrupt)
    }

    /// Plays started and not yet ended (a daemon that restarted forgets them: its plays end unrecorded).
    public var open: Int { started.count }

    public mutating func forgetOpenPlays() { started.removeAll() }
}
