// The state files' JSON, written by hand. Why not Foundation's JSONEncoder: the writer thread encodes
// every change the daemon acknowledges, and with JSONEncoder that thread alone took a whole core at 12k
// edits/s (contrib/bench/state: 80 µs per record, most of it generic Codable machinery), competing with
// the event loop on a 2-core screen box. These values are streamed member by member into JSONText's
// JSONWriter (no JSONValue tree: a reply waits for its record, so the writer's time per record is time a
// pipelining client waits).
//
// The shapes are exactly those of the types' Codable conformances (synthesized: an enum case is
// `{"case":{"_0":…,"label":…}}`, a nil optional is left out), so JSONDecoder reads what is written here,
// files written before this existed stay readable, and StateEncodingTests decode every shape back.

import Overlays
import Playback
import QueueModel
import JSONText

enum StateEncoding {
    /// The JSON text of one value, for tests.
    static func bytes(_ encode: (inout JSONWriter) -> Void) -> [UInt8] {
        var json = JSONWriter()
        encode(&json)
        return json.bytes
    }

    static func write(_ record: StateRecord, to json: inout JSONWriter, vault: CredentialVault? = nil) {
        switch record {
        case .queue(let change):
            enumCase("queue", to: &json) { json in
                json.key("_0")
                write(change, to: &json, vault: vault)
            }
        case .player(let player):
            enumCase("player", to: &json) { json in
                json.key("_0")
                write(player, to: &json)
            }
        }
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

    static func write(_ change: PlayQueue.Change, to json: inout JSONWriter, vault: CredentialVault? = nil) {
        switch change {
        case .insert(let items, let index):
            enumCase("insert", to: &json) { json in
                json.key("_0")
                json.beginArray()
                for item in items { write(item, to: &json, vault: vault) }
                json.endArray()
                json.member("at", index)
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
                json.member("_0", id.rawValue)
                json.member("to", index)
            }
        case .clear:
            enumCase("clear", to: &json) { _ in }
        case .replace(let items, let loops, let rev, let kept):
            enumCase("replace", to: &json) { json in
                json.key("_0")
                json.beginArray()
                for item in items { write(item, to: &json, vault: vault) }
                json.endArray()
                json.member("loops", loops)
                json.member("rev", rev.map { Int($0) })
                json.member("keeping", kept?.rawValue)
            }
        case .replaceItem(let id, let item):
            enumCase("replaceItem", to: &json) { json in
                json.member("_0", id.rawValue)
                json.key("_1")
                write(item, to: &json, vault: vault)
            }
        case .setLoops(let loops):
            enumCase("setLoops", to: &json) { json in
                json.member("_0", loops)
            }
        case .setKnownDuration(let id, let duration):
            enumCase("setKnownDuration", to: &json) { json in
                json.member("_0", id.rawValue)
                json.member("_1", duration)
            }
        case .setKnownSize(let id, let size):
            enumCase("setKnownSize", to: &json) { json in
                json.member("_0", id.rawValue)
                json.key("_1")
                write(size, to: &json)
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
                json.member("_1", reason.rawValue)
                json.member("error", error)
            }
        }
    }

    static func write(_ header: SnapshotHeader, to json: inout JSONWriter, vault: CredentialVault? = nil) {
        json.beginObject()
        json.member("format", header.format)
        json.member("generation", header.generation)
        json.key("queue")
        write(header.queue, to: &json, vault: vault)
        json.member("entryCount", header.entryCount)
        json.key("player")
        write(header.player, to: &json)
        json.endObject()
    }

    // Members in declaration order; a nil optional is left out, as synthesized `encodeIfPresent` does.

    static func write(_ queue: PlayQueue.Snapshot, to json: inout JSONWriter, vault: CredentialVault? = nil) {
        json.beginObject()
        json.key("entries")
        json.beginArray()
        for entry in queue.entries { write(entry, to: &json, vault: vault) }
        json.endArray()
        json.member("version", queue.version)
        json.member("loops", queue.loops)
        if let current = queue.current {
            json.key("current")
            write(current, to: &json)
        }
        json.member("nextID", queue.nextID)
        json.member("lastPass", queue.lastPass)
        if let vacancy = queue.removedCurrentPlace {
            json.key("vacancy")
            json.beginObject()
            json.member("id", vacancy.id.rawValue)
            json.member("gap", vacancy.gap)
            json.endObject()
        }
        json.member("leaving", queue.leaving?.rawValue)
        json.member("appliedRev", queue.appliedRev.map { Int($0) })
        json.endObject()
    }

    static func write(_ entry: QueueEntry, to json: inout JSONWriter, vault: CredentialVault? = nil) {
        json.beginObject()
        json.member("id", entry.id.rawValue)
        json.key("item")
        write(entry.item, to: &json, vault: vault)
        json.member("playsDone", entry.playsDone)
        json.key("state")
        switch entry.state {
        case .queued: enumCase("queued", to: &json) { _ in }
        case .playing: enumCase("playing", to: &json) { _ in }
        case .played: enumCase("played", to: &json) { _ in }
        case .failed(let message):
            enumCase("failed", to: &json) { json in
                json.member("message", message)
            }
        }
        json.member("knownDuration", entry.knownDuration)
        if let size = entry.knownSize {
            json.key("knownSize")
            write(size, to: &json)
        }
        json.endObject()
    }

    static func write(_ size: PictureSize, to json: inout JSONWriter) {
        json.beginObject()
        json.member("width", size.width)
        json.member("height", size.height)
        json.endObject()
    }

    static func write(_ item: MediaItem, to json: inout JSONWriter, vault: CredentialVault? = nil) {
        json.beginObject()
        json.member("uri", vault?.sealed(item.uri) ?? item.uri)
        json.member("loops", item.loops)
        json.member("start", item.start)
        json.member("end", item.end)
        json.member("duration", item.duration)
        json.member("title", item.title)
        json.member("trackEnd", item.trackEnd?.rawValue)
        json.member("sha256", item.sha256)
        if let schedule = item.schedule {
            json.key("schedule")
            write(schedule, to: &json)
        }
        if let transition = item.transition {
            // As MediaItem's Codable reads it (lines with one go to the general decoder).
            json.key("transition")
            json.beginObject()
            json.member("kind", transition.kind.rawValue)
            json.member("duration", transition.duration)
            json.key("color")
            json.beginObject()
            json.member("red", Int(transition.color.red))
            json.member("green", Int(transition.color.green))
            json.member("blue", Int(transition.color.blue))
            json.endObject()
            json.endObject()
        }
        if let onStall = item.onStall {
            // Only when set: a line with it goes to the general decoder (MediaItem's Codable).
            json.member("onStall", onStall.rawValue)
        }
        if let program = item.program {
            // Only when set, like onStall.
            json.member("program", program)
        }
        if let latency = item.latency {
            json.member("latency", latency)  // only when set, like onStall
        }
        if let web = item.web {
            // Only when set, like onStall; as WebItem's Codable reads it.
            json.key("web")
            json.beginObject()
            json.member("reload", web.reload?.rawValue)
            json.member("zoom", web.zoom)
            if let viewport = web.viewport {
                json.key("viewport")
                write(viewport, to: &json)
            }
            json.member("interval", web.interval)
            json.member("loadTimeout", web.loadTimeout)
            json.endObject()
        }
        if let motion = item.motion {
            json.key("motion")
            json.beginObject()
            let frames: [(StaticString, MotionFrame)] = [("from", motion.from), ("to", motion.to)]
            for (name, frame) in frames {
                json.key(name)
                json.beginObject()
                json.member("x", frame.x)
                json.member("y", frame.y)
                json.member("width", frame.width)
                json.member("height", frame.height)
                json.endObject()
            }
            json.endObject()
        }
        json.endObject()
    }

    static func write(_ schedule: ItemSchedule, to json: inout JSONWriter) {
        json.beginObject()
        if let days = schedule.sortedDays {
            json.key("days")
            json.beginArray()
            for day in days { json.value(day.rawValue) }
            json.endArray()
        }
        json.member("from", schedule.from?.description)
        json.member("until", schedule.until?.description)
        json.member("start", schedule.start?.description)
        json.member("end", schedule.end?.description)
        json.endObject()
    }

    static func write(_ player: PlayerSnapshot, to json: inout JSONWriter) {
        json.beginObject()
        json.member("state", player.state.rawValue)
        if let current = player.current {
            json.key("current")
            write(current, to: &json)
        }
        json.member("position", player.position)
        json.member("volume", player.volume)
        json.member("muted", player.muted)
        json.member("rate", player.rate)
        json.member("fit", player.fit.rawValue)
        json.member("rotate", player.rotation.rawValue)
        json.key("overlays")
        write(player.overlays, to: &json)
        if let display = player.display {
            json.key("display")
            json.beginObject()
            json.member("on", display.on)
            if let until = display.until { json.member("until", until) }
            json.endObject()
        }
        json.endObject()
    }

    static func write(_ set: OverlaySet, to json: inout JSONWriter) {
        json.beginObject()
        json.key("overlays")
        json.beginArray()
        for overlay in set.overlays { write(overlay, to: &json) }
        json.endArray()
        json.member("nextID", set.nextID)
        json.endObject()
    }

    static func write(_ overlay: Overlay, to json: inout JSONWriter) {
        json.beginObject()
        json.member("id", overlay.id)
        json.key("content")
        switch overlay.content {
        case .text(let text):
            enumCase("text", to: &json) { json in
                json.member("_0", text)
            }
        case .image(let path):
            enumCase("image", to: &json) { json in
                json.member("path", path)
            }
        case .clock(let format):
            enumCase("clock", to: &json) { json in
                json.member("format", format)
            }
        case .ticker(let text, let speed):
            enumCase("ticker", to: &json) { json in
                json.member("text", text)
                json.member("speed", speed)
            }
        }
        json.key("style")
        write(overlay.style, to: &json)
        json.member("anchor", overlay.anchor.rawValue)
        json.key("x")
        write(overlay.x, to: &json)
        json.key("y")
        write(overlay.y, to: &json)
        json.member("opacity", overlay.opacity)
        json.member("visible", overlay.visible)
        json.key("scope")
        switch overlay.scope {
        case .global: enumCase("global", to: &json) { _ in }
        case .item(let id):
            enumCase("item", to: &json) { json in
                json.member("_0", id)
            }
        }
        json.member("z", overlay.z)
        json.member("zone", overlay.zone)
        json.endObject()
    }

    static func write(_ style: OverlayStyle, to json: inout JSONWriter) {
        json.beginObject()
        json.member("font", style.font)
        json.member("size", style.size)
        json.key("color")
        write(style.color, to: &json)
        if let background = style.background {
            json.key("background")
            write(background, to: &json)
        }
        json.member("padding", style.padding)
        json.endObject()
    }

    static func write(_ color: OverlayColor, to json: inout JSONWriter) {
        json.beginObject()
        json.member("red", Int(color.red))
        json.member("green", Int(color.green))
        json.member("blue", Int(color.blue))
        json.member("alpha", Int(color.alpha))
        json.endObject()
    }

    static func write(_ length: OverlayLength, to json: inout JSONWriter) {
        switch length {
        case .pixels(let value):
            enumCase("pixels", to: &json) { json in
                json.member("_0", value)
            }
        case .percent(let value):
            enumCase("percent", to: &json) { json in
                json.member("_0", value)
            }
        }
    }

    static func write(_ cursor: Cursor, to json: inout JSONWriter) {
        json.beginObject()
        json.member("id", cursor.id.rawValue)
        json.member("play", cursor.play)
        json.member("pass", cursor.pass)
        json.endObject()
    }
}
