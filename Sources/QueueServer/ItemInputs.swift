// Turns the `items` of queue.add / queue.insert into MediaItems: bare strings or objects, URIs limited to
// local files (absolute paths or file:// URLs — never FFmpeg pseudo-protocols like concat: or pipe:),
// and .m3u/.m3u8 playlists expanded to their entries with EXTINF titles.
import Foundation
import QueueModel
import QueueRPC

enum ItemInputs {
    static let allowedKeys: Set<String> = ["uri", "loops", "start", "end", "duration", "title", "trackEnd"]

    static func parse(_ values: [JSONValue], param: String = "items") throws(RPCError) -> [MediaItem] {
        guard !values.isEmpty else { throw .invalidParams(param: param, reason: "must not be empty") }
        var items: [MediaItem] = []
        items.reserveCapacity(values.count)
        for (index, value) in values.enumerated() {
            let name = "\(param)[\(index)]"
            var item = try parseOne(value, name: name)
            let path = try localPath(of: item.uri)
            item.uri = path
            let lowered = path.lowercased()
            if lowered.hasSuffix(".m3u") || lowered.hasSuffix(".m3u8") {
                items += try expandPlaylist(path, template: item)
                continue
            }
            do {
                try item.validate()
            } catch {
                throw .invalidParams(param: name, reason: String(describing: error))
            }
            items.append(item)
        }
        return items
    }

    private static func parseOne(_ value: JSONValue, name: String) throws(RPCError) -> MediaItem {
        if let uri = value.stringValue { return MediaItem(uri: uri) }
        guard let object = value.objectValue else {
            throw .invalidParams(param: name, reason: "must be a string or an object with a uri")
        }
        if let unknown = object.keys.first(where: { !allowedKeys.contains($0) }) {
            throw .invalidParams(param: "\(name).\(unknown)", reason: "unknown field")
        }
        guard let uri = object["uri"]?.stringValue else {
            throw .invalidParams(param: "\(name).uri", reason: "is required (a string)")
        }
        var item = MediaItem(uri: uri)
        func number(_ key: String) throws(RPCError) -> Double? {
            guard let value = object[key], !value.isNull else { return nil }
            guard let number = value.doubleValue, number.isFinite else {
                throw .invalidParams(param: "\(name).\(key)", reason: "must be a number")
            }
            return number
        }
        if let loops = object["loops"], !loops.isNull {
            guard let count = loops.intValue, count >= 0, count <= Int64(Int32.max) else {
                throw .invalidParams(param: "\(name).loops", reason: "must be an integer >= 0 (0 = forever)")
            }
            item.loops = Int(count)
        }
        item.start = try number("start")
        item.end = try number("end")
        item.duration = try number("duration")
        item.trackEnd = try trackEnd(object["trackEnd"], param: "\(name).trackEnd")
        if let title = object["title"], !title.isNull {
            guard let text = title.stringValue else {
                throw .invalidParams(param: "\(name).title", reason: "must be a string")
            }
            item.title = text
        }
        return item
    }

    /// The local path a URI names, or "URI not allowed".
    /// A `trackEnd` value: "auto", "shortest", "longest", or null/absent for the daemon's default.
    static func trackEnd(_ value: JSONValue?, param: String) throws(RPCError) -> TrackEnd? {
        guard let value, !value.isNull else { return nil }
        guard let text = value.stringValue, let choice = TrackEnd(rawValue: text) else {
            throw .invalidParams(param: param, reason: "must be one of auto, shortest, longest")
        }
        return choice
    }

    /// One `#…` line of a playlist: the options it sets for the next entry.
    private static func applyTag(_ line: String, to entry: inout MediaItem, at place: String) throws(RPCError) {
        if line.hasPrefix("#EXTINF:") {
            if let comma = line.firstIndex(of: ",") {
                let title = line[line.index(after: comma)...].trimmingCharacters(in: .whitespaces)
                if !title.isEmpty { entry.title = title }
            }
            return
        }
        let option: Substring
        if line.hasPrefix("#EXTVLCOPT:") {
            option = line.dropFirst("#EXTVLCOPT:".count)
        } else if line.hasPrefix("#EXTQUEUED:") {
            option = line.dropFirst("#EXTQUEUED:".count)
        } else {
            return
        }
        guard let equals = option.firstIndex(of: "=") else { return }
        let key = option[..<equals].trimmingCharacters(in: .whitespaces)
        let value = option[option.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        func number() throws(RPCError) -> Double {
            guard let number = Double(value), number.isFinite else {
                throw .invalidParams(param: "items", reason: "\(place): \(key) must be a number (got \(value))")
            }
            return number
        }
        switch key {
        case "start-time": entry.start = try number()
        case "stop-time": entry.end = try number()
        case "loops":
            guard let loops = Int(value), loops >= 0 else {
                throw .invalidParams(param: "items", reason: "\(place): loops must be an integer >= 0 (got \(value))")
            }
            entry.loops = loops
        case "track-end":
            guard let trackEnd = TrackEnd(rawValue: value) else {
                throw .invalidParams(param: "items", reason: "\(place): track-end must be auto, shortest or longest")
            }
            entry.trackEnd = trackEnd
        default: break  // VLC's other options
        }
    }

    static func localPath(of uri: String) throws(RPCError) -> String {
        if uri.hasPrefix("/") { return uri }
        if uri.lowercased().hasPrefix("file://") {
            let rest = uri.dropFirst("file://".count)
            // file:///path, or file://localhost/path
            let path =
                rest.hasPrefix("/")
                ? String(rest) : rest.hasPrefix("localhost/") ? String(rest.dropFirst("localhost".count)) : ""
            guard !path.isEmpty, let decoded = path.removingPercentEncoding else {
                throw .uriNotAllowed(uri, reason: "only local file:// URLs (file:///path) are allowed")
            }
            return decoded
        }
        if uri.isEmpty { throw .uriNotAllowed(uri, reason: "the URI is empty") }
        if let colon = uri.firstIndex(of: ":"), !uri[..<colon].contains("/") {
            throw .uriNotAllowed(
                uri, reason: "only absolute file paths and file:// URLs are allowed, not \(uri[..<colon]):")
        }
        throw .uriNotAllowed(uri, reason: "relative paths are not allowed: pass an absolute path")
    }

    /// An M3U playlist's entries, in order; entries inherit the playlist item's options, and the tags before
    /// an entry override them: `#EXTINF` (title), `#EXTVLCOPT:start-time=`/`stop-time=` (window) and
    /// `#EXTQUEUED:loops=`/`track-end=` (what `queuectl save` writes). Unknown tags are skipped.
    static func expandPlaylist(_ path: String, template: MediaItem) throws(RPCError) -> [MediaItem] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .mediaError("cannot read playlist \(path)")
        }
        let text = String(decoding: data, as: UTF8.self)
        let directory = (path as NSString).deletingLastPathComponent
        var items: [MediaItem] = []
        var entry = template
        for (number, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated()
        {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            if line.hasPrefix("#") {
                try applyTag(line, to: &entry, at: "\(path):\(number + 1)")
                continue
            }
            let isRelative = !line.hasPrefix("/") && !line.contains(":")
            entry.uri = try localPath(of: isRelative ? directory + "/" + line : line)
            do {
                try entry.validate()
            } catch {
                throw .invalidParams(param: "items", reason: "\(path):\(number + 1): \(error)")
            }
            items.append(entry)
            entry = template
        }
        guard !items.isEmpty else { throw .mediaError("playlist \(path) has no entries") }
        return items
    }
}
