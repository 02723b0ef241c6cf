// The state files' JSON, written by hand. Why not Foundation's JSONEncoder: the writer thread encodes
// every change the daemon acknowledges, and with JSONEncoder that thread alone took a whole core at 12k
// edits/s (contrib/bench/state: 80 µs per record, most of it generic Codable machinery), competing with
// the event loop on a 2-core screen box. These values go through QueueRPC's JSONValue and byte-level
// writer instead (the control socket's, ~1 µs per small object).
//
// The shapes are exactly those of the types' Codable conformances (synthesized: an enum case is
// `{"case":{"_0":…,"label":…}}`, a nil optional is left out), so JSONDecoder reads what is written here,
// files written before this existed stay readable, and StateEncodingTests decode every shape back.
import Overlays
import Playback
import QueueModel
import QueueRPC

enum StateEncoding {
    static func json(_ record: StateRecord) -> JSONValue {
        switch record {
        case .queue(let change): ["queue": ["_0": json(change)]]
        case .player(let player): ["player": ["_0": json(player)]]
        }
    }

    static func json(_ change: PlayQueue.Change) -> JSONValue {
        switch change {
        case .insert(let items, let index):
            return ["insert": ["_0": .array(items.map(json)), "at": int(index)]]
        case .remove(let ids):
            return ["remove": ["_0": .array(ids.map(json))]]
        case .move(let id, let index):
            return ["move": ["_0": json(id), "to": int(index)]]
        case .clear:
            return ["clear": [:]]
        case .replaceItem(let id, let item):
            return ["replaceItem": ["_0": json(id), "_1": json(item)]]
        case .setLoops(let loops):
            return ["setLoops": ["_0": int(loops)]]
        case .setKnownDuration(let id, let duration):
            return ["setKnownDuration": ["_0": json(id), "_1": .double(duration)]]
        case .begin(let cursor):
            return ["begin": ["_0": json(cursor)]]
        case .finish(let cursor, let reason, let error):
            var members: JSONObject = ["_0": json(cursor), "_1": .string(reason.rawValue)]
            members["error"] = error.map(JSONValue.string)
            return ["finish": .object(members)]
        }
    }

    static func json(_ header: SnapshotHeader) -> JSONValue {
        [
            "format": int(header.format), "generation": .int(Int64(bitPattern: header.generation)),
            "queue": json(header.queue), "entryCount": int(header.entryCount), "player": json(header.player),
        ]
    }

    // Objects with optional members are built member by member, in declaration order: assigning nil to a
    // JSONObject leaves the member out, as synthesized `encodeIfPresent` does.

    static func json(_ queue: PlayQueue.Snapshot) -> JSONValue {
        var object = JSONObject()
        object["entries"] = .array(queue.entries.map(json))
        object["version"] = .int(Int64(bitPattern: queue.version))
        object["loops"] = int(queue.loops)
        object["current"] = queue.current.map(json)
        object["nextID"] = int(queue.nextID)
        object["lastPass"] = queue.lastPass.map(int)
        object["vacancy"] = queue.removedCurrentPlace.map { ["id": json($0.id), "gap": int($0.gap)] }
        return .object(object)
    }

    static func json(_ entry: QueueEntry) -> JSONValue {
        var object = JSONObject()
        object["id"] = json(entry.id)
        object["item"] = json(entry.item)
        object["playsDone"] = int(entry.playsDone)
        object["state"] = json(entry.state)
        object["knownDuration"] = entry.knownDuration.map(JSONValue.double)
        return .object(object)
    }

    static func json(_ item: MediaItem) -> JSONValue {
        var object = JSONObject()
        object["uri"] = .string(item.uri)
        object["loops"] = int(item.loops)
        object["start"] = item.start.map(JSONValue.double)
        object["end"] = item.end.map(JSONValue.double)
        object["duration"] = item.duration.map(JSONValue.double)
        object["title"] = item.title.map(JSONValue.string)
        object["trackEnd"] = item.trackEnd.map { .string($0.rawValue) }
        object["sha256"] = item.sha256.map(JSONValue.string)
        object["schedule"] = item.schedule.map(json)
        return .object(object)
    }

    static func json(_ schedule: ItemSchedule) -> JSONValue {
        var object = JSONObject()
        object["days"] = schedule.sortedDays.map { .array($0.map { .string($0.rawValue) }) }
        object["from"] = schedule.from.map { .string($0.description) }
        object["until"] = schedule.until.map { .string($0.description) }
        object["start"] = schedule.start.map { .string($0.description) }
        object["end"] = schedule.end.map { .string($0.description) }
        return .object(object)
    }

    static func json(_ state: ItemState) -> JSONValue {
        switch state {
        case .queued: ["queued": [:]]
        case .playing: ["playing": [:]]
        case .played: ["played": [:]]
        case .failed(let message): ["failed": ["message": .string(message)]]
        }
    }

    static func json(_ player: PlayerSnapshot) -> JSONValue {
        var object = JSONObject()
        object["state"] = .string(player.state.rawValue)
        object["current"] = player.current.map(json)
        object["position"] = .double(player.position)
        object["volume"] = int(player.volume)
        object["muted"] = .bool(player.muted)
        object["rate"] = .double(player.rate)
        object["fit"] = .string(player.fit.rawValue)
        object["rotate"] = int(player.rotation.rawValue)
        object["overlays"] = json(player.overlays)
        return .object(object)
    }

    static func json(_ set: OverlaySet) -> JSONValue {
        ["overlays": .array(set.overlays.map(json)), "nextID": int(set.nextID)]
    }

    static func json(_ overlay: Overlay) -> JSONValue {
        [
            "id": int(overlay.id), "content": json(overlay.content), "style": json(overlay.style),
            "anchor": .string(overlay.anchor.rawValue), "x": json(overlay.x), "y": json(overlay.y),
            "opacity": .double(overlay.opacity), "visible": .bool(overlay.visible), "scope": json(overlay.scope),
            "z": int(overlay.z),
        ]
    }

    static func json(_ content: OverlayContent) -> JSONValue {
        switch content {
        case .text(let text): ["text": ["_0": .string(text)]]
        case .image(let path): ["image": ["path": .string(path)]]
        case .clock(let format): ["clock": ["format": .string(format)]]
        case .ticker(let text, let speed): ["ticker": ["text": .string(text), "speed": .double(speed)]]
        }
    }

    static func json(_ style: OverlayStyle) -> JSONValue {
        var object = JSONObject()
        object["font"] = .string(style.font)
        object["size"] = int(style.size)
        object["color"] = json(style.color)
        object["background"] = style.background.map(json)
        object["padding"] = int(style.padding)
        return .object(object)
    }

    static func json(_ color: OverlayColor) -> JSONValue {
        [
            "red": int(Int(color.red)), "green": int(Int(color.green)), "blue": int(Int(color.blue)),
            "alpha": int(Int(color.alpha)),
        ]
    }

    static func json(_ length: OverlayLength) -> JSONValue {
        switch length {
        case .pixels(let value): ["pixels": ["_0": .double(value)]]
        case .percent(let value): ["percent": ["_0": .double(value)]]
        }
    }

    static func json(_ scope: OverlayScope) -> JSONValue {
        switch scope {
        case .global: ["global": [:]]
        case .item(let id): ["item": ["_0": int(id)]]
        }
    }

    static func json(_ cursor: Cursor) -> JSONValue {
        ["id": json(cursor.id), "play": int(cursor.play), "pass": int(cursor.pass)]
    }

    static func json(_ id: ItemID) -> JSONValue { int(id.rawValue) }

    private static func int(_ value: Int) -> JSONValue { .int(Int64(value)) }
}
