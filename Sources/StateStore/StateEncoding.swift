// The state files' JSON, written by hand. Why not Foundation's JSONEncoder: the writer thread encodes
// every change the daemon acknowledges, and with JSONEncoder that thread alone took a whole core at 12k
// edits/s (contrib/bench/state: 80 µs per record, most of it generic Codable machinery), competing with
// the event loop on a 2-core screen box. These values are streamed member by member into QueueRPC's
// JSONWriter (no JSONValue tree: a reply waits for its record, so the writer's time per record is time a
// pipelining client waits).
//
// The shapes are exactly those of the types' Codable conformances (synthesized: an enum case is
// `{"case":{"_0":…,"label":…}}`, a nil optional is left out), so JSONDecoder reads what is written here,
// files written before this existed stay readable, and StateEncodingTests decode every shape back.
import Overlays
import Playback
import QueueModel
import QueueRPC

enum StateEncoding {
    /// The JSON text of one value, for tests.
    static func bytes(_ encode: (inout JSONWriter) -> Void) -> [UInt8] {
        var json = JSONWriter()
        encode(&json)
        return json.bytes
    }

    static func write(_ record: StateRecord, to json: inout JSONWriter) {
        json.beginObject()
        switch record {
        case .queue(let change):
            json.key("queue")
            json.beginObject()
            json.key("_0")
            write(change, to: &json)
        case .player(let player):
            json.key("player")
            json.beginObject()
            json.key("_0")
            write(player, to: &json)
        }
        json.endObject()
        json.endObject()
    }

    /// `{"<name>":{…members…}}`: an enum case with its associated values.
    private static func enumCase(_ name: StaticString, to json: inout JSONWriter, _ members: (inout JSONWriter) -> Void) {
        json.beginObject()
        json.key(name)
        json.beginObject()
        members(&json)
        json.endObject()
        json.endObject()
    }

    static func write(_ change: PlayQueue.Change, to json: inout JSONWriter) {
        switch change {
        case .insert(let items, let index):
            enumCase("insert", to: &json) { json in
                json.key("_0")
                json.beginArray()
                for item in items { write(item, to: &json) }
                json.endArray()
                json.key("at")
                json.value(index)
            }
        case .remove(let ids):
            enumCase("remove", to: &json) { json in
                json.key("_0")
                json.beginArray()
                for id in ids { json.value(id.rawValue) }
                json.endArray()
            }
        case .move(let id, let index):
            enumCase("move", to: &json) { json in
                json.key("_0")
                json.value(id.rawValue)
                json.key("to")
                json.value(index)
            }
        case .clear:
            enumCase("clear", to: &json) { _ in }
        case .replaceItem(let id, let item):
            enumCase("replaceItem", to: &json) { json in
                json.key("_0")
                json.value(id.rawValue)
                json.key("_1")
                write(item, to: &json)
            }
        case .setLoops(let loops):
            enumCase("setLoops", to: &json) { json in
                json.key("_0")
                json.value(loops)
            }
        case .setKnownDuration(let id, let duration):
            enumCase("setKnownDuration", to: &json) { json in
                json.key("_0")
                json.value(id.rawValue)
                json.key("_1")
                json.value(duration)
            }
        case .begin(let cursor):
            enumCase("begin", to: &json) { json in
                json.key("_0")
                write(cursor, to: &json)
            }
        case .finish(let cursor, let reason, let error):
            enumCase("finish", to: &json) { json in
                json.key("_0")
                write(cursor, to: &json)
                json.key("_1")
                json.value(reason.rawValue)
                if let error {
                    json.key("error")
                    json.value(error)
                }
            }
        }
    }

    static func write(_ header: SnapshotHeader, to json: inout JSONWriter) {
        json.beginObject()
        json.key("format")
        json.value(header.format)
        json.key("generation")
        json.value(header.generation)
        json.key("queue")
        write(header.queue, to: &json)
        json.key("entryCount")
        json.value(header.entryCount)
        json.key("player")
        write(header.player, to: &json)
        json.endObject()
    }

    // Members in declaration order; a nil optional is left out, as synthesized `encodeIfPresent` does.

    static func write(_ queue: PlayQueue.Snapshot, to json: inout JSONWriter) {
        json.beginObject()
        json.key("entries")
        json.beginArray()
        for entry in queue.entries { write(entry, to: &json) }
        json.endArray()
        json.key("version")
        json.value(queue.version)
        json.key("loops")
        json.value(queue.loops)
        if let current = queue.current {
            json.key("current")
            write(current, to: &json)
        }
        json.key("nextID")
        json.value(queue.nextID)
        if let lastPass = queue.lastPass {
            json.key("lastPass")
            json.value(lastPass)
        }
        if let vacancy = queue.removedCurrentPlace {
            json.key("vacancy")
            json.beginObject()
            json.key("id")
            json.value(vacancy.id.rawValue)
            json.key("gap")
            json.value(vacancy.gap)
            json.endObject()
        }
        json.endObject()
    }

    static func write(_ entry: QueueEntry, to json: inout JSONWriter) {
        json.beginObject()
        json.key("id")
        json.value(entry.id.rawValue)
        json.key("item")
        write(entry.item, to: &json)
        json.key("playsDone")
        json.value(entry.playsDone)
        json.key("state")
        switch entry.state {
        case .queued: enumCase("queued", to: &json) { _ in }
        case .playing: enumCase("playing", to: &json) { _ in }
        case .played: enumCase("played", to: &json) { _ in }
        case .failed(let message):
            enumCase("failed", to: &json) { json in
                json.key("message")
                json.value(message)
            }
        }
        if let duration = entry.knownDuration {
            json.key("knownDuration")
            json.value(duration)
        }
        json.endObject()
    }

    static func write(_ item: MediaItem, to json: inout JSONWriter) {
        json.beginObject()
        json.key("uri")
        json.value(item.uri)
        json.key("loops")
        json.value(item.loops)
        optional("start", item.start, to: &json)
        optional("end", item.end, to: &json)
        optional("duration", item.duration, to: &json)
        if let title = item.title {
            json.key("title")
            json.value(title)
        }
        if let trackEnd = item.trackEnd {
            json.key("trackEnd")
            json.value(trackEnd.rawValue)
        }
        if let sha256 = item.sha256 {
            json.key("sha256")
            json.value(sha256)
        }
        if let schedule = item.schedule {
            json.key("schedule")
            write(schedule, to: &json)
        }
        json.endObject()
    }

    private static func optional(_ name: StaticString, _ number: Double?, to json: inout JSONWriter) {
        guard let number else { return }
        json.key(name)
        json.value(number)
    }

    private static func optional(_ name: StaticString, _ text: String?, to json: inout JSONWriter) {
        guard let text else { return }
        json.key(name)
        json.value(text)
    }

    static func write(_ schedule: ItemSchedule, to json: inout JSONWriter) {
        json.beginObject()
        if let days = schedule.sortedDays {
            json.key("days")
            json.beginArray()
            for day in days { json.value(day.rawValue) }
            json.endArray()
        }
        optional("from", schedule.from?.description, to: &json)
        optional("until", schedule.until?.description, to: &json)
        optional("start", schedule.start?.description, to: &json)
        optional("end", schedule.end?.description, to: &json)
        json.endObject()
    }

    static func write(_ player: PlayerSnapshot, to json: inout JSONWriter) {
        json.beginObject()
        json.key("state")
        json.value(player.state.rawValue)
        if let current = player.current {
            json.key("current")
            write(current, to: &json)
        }
        json.key("position")
        json.value(player.position)
        json.key("volume")
        json.value(player.volume)
        json.key("muted")
        json.value(player.muted)
        json.key("rate")
        json.value(player.rate)
        json.key("fit")
        json.value(player.fit.rawValue)
        json.key("rotate")
        json.value(player.rotation.rawValue)
        json.key("overlays")
        write(player.overlays, to: &json)
        json.endObject()
    }

    static func write(_ set: OverlaySet, to json: inout JSONWriter) {
        json.beginObject()
        json.key("overlays")
        json.beginArray()
        for overlay in set.overlays { write(overlay, to: &json) }
        json.endArray()
        json.key("nextID")
        json.value(set.nextID)
        json.endObject()
    }

    static func write(_ overlay: Overlay, to json: inout JSONWriter) {
        json.beginObject()
        json.key("id")
        json.value(overlay.id)
        json.key("content")
        switch overlay.content {
        case .text(let text):
            enumCase("text", to: &json) { json in
                json.key("_0")
                json.value(text)
            }
        case .image(let path):
            enumCase("image", to: &json) { json in
                json.key("path")
                json.value(path)
            }
        case .clock(let format):
            enumCase("clock", to: &json) { json in
                json.key("format")
                json.value(format)
            }
        case .ticker(let text, let speed):
            enumCase("ticker", to: &json) { json in
                json.key("text")
                json.value(text)
                json.key("speed")
                json.value(speed)
            }
        }
        json.key("style")
        write(overlay.style, to: &json)
        json.key("anchor")
        json.value(overlay.anchor.rawValue)
        json.key("x")
        write(overlay.x, to: &json)
        json.key("y")
        write(overlay.y, to: &json)
        json.key("opacity")
        json.value(overlay.opacity)
        json.key("visible")
        json.value(overlay.visible)
        json.key("scope")
        switch overlay.scope {
        case .global: enumCase("global", to: &json) { _ in }
        case .item(let id):
            enumCase("item", to: &json) { json in
                json.key("_0")
                json.value(id)
            }
        }
        json.key("z")
        json.value(overlay.z)
        json.endObject()
    }

    static func write(_ style: OverlayStyle, to json: inout JSONWriter) {
        json.beginObject()
        json.key("font")
        json.value(style.font)
        json.key("size")
        json.value(style.size)
        json.key("color")
        write(style.color, to: &json)
        if let background = style.background {
            json.key("background")
            write(background, to: &json)
        }
        json.key("padding")
        json.value(style.padding)
        json.endObject()
    }

    static func write(_ color: OverlayColor, to json: inout JSONWriter) {
        json.beginObject()
        json.key("red")
        json.value(Int(color.red))
        json.key("green")
        json.value(Int(color.green))
        json.key("blue")
        json.value(Int(color.blue))
        json.key("alpha")
        json.value(Int(color.alpha))
        json.endObject()
    }

    static func write(_ length: OverlayLength, to json: inout JSONWriter) {
        switch length {
        case .pixels(let value):
            enumCase("pixels", to: &json) { json in
                json.key("_0")
                json.value(value)
            }
        case .percent(let value):
            enumCase("percent", to: &json) { json in
                json.key("_0")
                json.value(value)
            }
        }
    }

    static func write(_ cursor: Cursor, to json: inout JSONWriter) {
        json.beginObject()
        json.key("id")
        json.value(cursor.id.rawValue)
        json.key("play")
        json.value(cursor.play)
        json.key("pass")
        json.value(cursor.pass)
        json.endObject()
    }
}
