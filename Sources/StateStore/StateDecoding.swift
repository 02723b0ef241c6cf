// The fast way back from the state files for what a big queue is made of: snapshot entry lines and the
// journal's item lists (an add or a replace of many items is one record). Parsed with JSONText's
// byte-level parser and mapped by hand: Foundation's JSONDecoder spends ~10 µs an item, ten seconds for a
// million. It accepts only what StateEncoding writes for these shapes and returns nil for anything else
// (a schedule, an unknown member, a value of the wrong kind), and the caller then decodes the line with
// JSONDecoder as before, so both ways agree on every line the fast one takes.

import JSONText
import QueueModel

enum StateDecoding {
    /// A snapshot entry line's QueueEntry, or nil (decode it the slow way).
    static func entry(_ bytes: some Collection<UInt8>) -> QueueEntry? {
        if let scanned = EntryLineScanner.entry(bytes) { return scanned }
        guard let value = try? JSON.parse(bytes), case .object(let object) = value else { return nil }
        return entry(object)
    }

    /// A journal line holding an insert or a replace, or nil (any other record, or a shape not known here).
    static func itemListChange(_ bytes: some Collection<UInt8>) -> PlayQueue.Change? {
        if let scanned = EntryLineScanner.insertion(bytes) { return scanned }
        guard let value = try? JSON.parse(bytes), case .object(let record) = value, record.count == 1,
            case .object(let queue)? = record["queue"], queue.count == 1, case .object(let change)? = queue["_0"],
            change.count == 1
        else { return nil }
        if case .object(let insert)? = change["insert"] {
            guard onlyKeys(insert, ["_0", "at"]), let items = items(insert["_0"]), let at = int(insert["at"]) else {
                return nil
            }
            return .insert(items, at: at)
        }
        if case .object(let replace)? = change["replace"] {
            guard onlyKeys(replace, ["_0", "loops", "rev", "keeping"]), let items = items(replace["_0"]) else {
                return nil
            }
            let loops = replace["loops"].map(int)
            let rev = replace["rev"].map(int)
            let keeping = replace["keeping"].map(int)
            // A member present with a value of the wrong kind: leave the line to JSONDecoder.
            if loops == .some(nil) || rev == .some(nil) || keeping == .some(nil) { return nil }
            return .replace(
                items, loops: loops ?? nil, rev: (rev ?? nil).map(Int64.init), keeping: (keeping ?? nil).map(ItemID.init))
        }
        return nil
    }

    private static func onlyKeys(_ object: JSONObject, _ allowed: Set<String>) -> Bool {
        object.keys.allSatisfy(allowed.contains)
    }

    private static func int(_ value: JSONValue?) -> Int? {
        guard case .int(let number)? = value else { return nil }
        return Int(exactly: number)
    }

    private static func double(_ value: JSONValue?) -> Double?? {
        guard let value else { return .some(nil) }
        switch value {
        case .int(let number): return Double(number)
        case .double(let number): return number
        default: return nil
        }
    }

    private static func string(_ value: JSONValue?) -> String?? {
        guard let value else { return .some(nil) }
        guard case .string(let text) = value else { return nil }
        return text
    }

    private static func items(_ value: JSONValue?) -> [MediaItem]? {
        guard case .array(let values)? = value else { return nil }
        var items: [MediaItem] = []
        items.reserveCapacity(values.count)
        for value in values {
            guard case .object(let object) = value, let item = item(object) else { return nil }
            items.append(item)
        }
        return items
    }

    private static let itemKeys: Set<String> = ["uri", "loops", "start", "end", "duration", "title", "trackEnd", "sha256"]

    private static func item(_ object: JSONObject) -> MediaItem? {
        guard onlyKeys(object, itemKeys), case .string(let uri)? = object["uri"] else { return nil }
        var item = MediaItem(uri: uri)
        if let loops = object["loops"] {
            guard let value = int(loops) else { return nil }
            item.loops = value
        }
        guard let start = double(object["start"]), let end = double(object["end"]),
            let duration = double(object["duration"]), let title = string(object["title"]),
            let trackEnd = string(object["trackEnd"]), let sha256 = string(object["sha256"])
        else { return nil }
        item.start = start
        item.end = end
        item.duration = duration
        item.title = title
        item.sha256 = sha256
        if let trackEnd {
            guard let known = TrackEnd(rawValue: trackEnd) else { return nil }
            item.trackEnd = known
        }
        return item
    }

    private static let entryKeys: Set<String> = ["id", "item", "playsDone", "state", "knownDuration", "knownSize"]

    private static func entry(_ object: JSONObject) -> QueueEntry? {
        guard onlyKeys(object, entryKeys), let id = int(object["id"]), case .object(let itemObject)? = object["item"],
            let item = item(itemObject), let playsDone = int(object["playsDone"]),
            case .object(let stateObject)? = object["state"], stateObject.count == 1,
            let knownDuration = double(object["knownDuration"])
        else { return nil }
        let state: ItemState
        let kind = stateObject.keys[0]
        if kind != "failed" {
            guard case .object(let empty)? = stateObject[kind], empty.isEmpty else { return nil }
        }
        switch kind {
        case "queued": state = .queued
        case "playing": state = .playing
        case "played": state = .played
        case "failed":
            guard case .object(let failed)? = stateObject["failed"], onlyKeys(failed, ["message"]),
                case .string(let message)? = failed["message"]
            else { return nil }
            state = .failed(message: message)
        default: return nil
        }
        var entry = QueueEntry(id: ItemID(id), item: item, playsDone: playsDone, state: state, knownDuration: knownDuration)
        if let size = object["knownSize"] {
            guard case .object(let sizeObject) = size, onlyKeys(sizeObject, ["width", "height"]),
                let width = int(sizeObject["width"]), let height = int(sizeObject["height"])
            else { return nil }
            entry.knownSize = PictureSize(width: width, height: height)
        }
        return entry
    }
}
