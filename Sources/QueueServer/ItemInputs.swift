// Turns the `items` of queue.add / queue.insert — and the daemon's command-line arguments, through the
// same code — into MediaItems: bare strings or objects, URIs limited to local files (absolute paths or
// file:// URLs — never FFmpeg pseudo-protocols like concat: or pipe:) and http(s) URLs (played through the
// daemon's cache, never by FFmpeg); local directories expand to their media files in natural order and
// .m3u/.m3u8 playlists to their entries with EXTINF titles.

import FoundationEssentials
import Glibc
import SystemSupport
import Media
import MediaPaths
import QueueModel
import QueueRPC

public enum ItemInputs {
    /// The queue entries `inputs` stand for: each checked and its uri made a local path; a directory
    /// expands to its media files, a playlist to its entries. Errors name the entry ("items[2]").
    /// `param`: how errors name the input at an index (queue.interrupt's one input is "item").
    /// `confinement`: what the caller may name (a confined connection, see session.confine): every local path,
    /// a playlist's entries and a directory's files included, is judged on its real path before it is queued.
    public static func mediaItems(
        _ inputs: [RPCItemInput], confinement: FolderConfinement? = nil, param: (Int) -> String = { "items[\($0)]" }
    ) throws(RPCError) -> [MediaItem] {
        var items: [MediaItem] = []
        items.reserveCapacity(inputs.count)
        for (index, input) in inputs.enumerated() {
            var item = try mediaItem(input, place: param(index))
            try confine(item.uri, confinement)
            if let url = try networkURL(item.uri) {
                item.uri = url
            } else {
                item.uri = try localPath(of: item.uri)
                let lowered = item.uri.lowercased()
                if lowered.hasSuffix(".m3u") || lowered.hasSuffix(".m3u8") {
                    items += try expandPlaylist(item.uri, template: item, confinement: confinement)
                    continue
                }
                if isDirectory(item.uri) {
                    items += try expandDirectory(item.uri, template: item, confinement: confinement)
                    continue
                }
            }
            do {
                try item.validate()
            } catch {
                throw .invalidParams(param: param(index), reason: String(describing: error))
            }
            items.append(item)
        }
        return items
    }

    private static func mediaItem(_ input: RPCItemInput, place: String) throws(RPCError) -> MediaItem {
        var item = MediaItem(uri: input.uri)
        if let loops = input.loops { item.loops = Int(loops) }
        item.title = input.title
        item.start = input.start
        item.end = input.end
        item.duration = input.duration
        item.trackEnd = input.trackEnd.map(TrackEnd.init)
        item.sha256 = input.sha256
        item.schedule = try input.schedule.map { schedule throws(RPCError) in
            try ScheduleInput.itemSchedule(schedule, param: "\(place).schedule")
        }
        item.transition = input.transition.map(Self.transition)
        item.motion = input.motion.map(Self.motion)
        item.onStall = input.onStall.flatMap(StreamStall.init(rawValue:))
        item.program = input.program.map { Int($0) }
        item.latency = input.latency
        item.web = input.web.map(Self.webItem)
        return item
    }

    /// The wire's web options as the model's.
    public static func webItem(_ input: RPCWebOptions) -> WebItem {
        WebItem(
            reload: input.reload.flatMap(WebItem.Reload.init(rawValue:)), zoom: input.zoom,
            viewport: input.viewport.map { PictureSize(width: Int($0.width), height: Int($0.height)) },
            interval: input.interval, loadTimeout: input.loadTimeout)
    }

    /// The model's web options as the wire's.
    public static func wire(_ web: WebItem) -> RPCWebOptions {
        RPCWebOptions(
            reload: web.reload?.rawValue, zoom: web.zoom,
            viewport: web.viewport.map { (Int64($0.width), Int64($0.height)) }, interval: web.interval,
            loadTimeout: web.loadTimeout)
    }

    /// The wire's motion as the model's (its frames' fit in the picture is the model's check).
    public static func motion(_ input: RPCMotion) -> ItemMotion {
        guard let from = input.from, let to = input.to else { return .auto }
        func frame(_ frame: RPCMotion.Frame) -> MotionFrame {
            MotionFrame(x: frame.x, y: frame.y, width: frame.width, height: frame.height)
        }
        return ItemMotion(from: frame(from), to: frame(to))
    }

    /// The model's motion on the wire ("auto" when it is the automatic one).
    public static func wire(_ motion: ItemMotion) -> RPCMotion {
        guard motion != .auto else { return .auto }
        func frame(_ frame: MotionFrame) -> RPCMotion.Frame {
            RPCMotion.Frame(x: frame.x, y: frame.y, width: frame.width, height: frame.height)
        }
        return RPCMotion(from: frame(motion.from), to: frame(motion.to))
    }

    /// The wire's transition as the model's (RPCTransition checked the type, duration and colour).
    public static func transition(_ input: RPCTransition) -> ItemTransition {
        ItemTransition(
            kind: ItemTransition.Kind(rawValue: input.type) ?? .cut, duration: input.duration ?? 1,
            color: input.color.flatMap(TransitionColor.init(hex:)))
    }

    /// The model's transition on the wire.
    public static func wire(_ transition: ItemTransition) -> RPCTransition {
        switch transition.kind {
        case .cut: RPCTransition(type: "cut")
        case .fade: RPCTransition(type: "fade", duration: transition.duration)
        case .crossfade: RPCTransition(type: "crossfade", duration: transition.duration)
        case .dip: RPCTransition(type: "dip", duration: transition.duration, color: transition.color.hex)
        }
    }

    /// One `#…` line of a playlist: the options it sets for the next entry.
    private static func applyTag(_ line: String, to entry: inout MediaItem, at place: String) throws(RPCError) {
        if line.hasPrefix("#EXTINF:") {
            if let comma = line.firstIndex(of: ",") {
                let title = line[line.index(after: comma)...].trimmingSpaces()
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
        let key = option[..<equals].trimmingSpaces()
        let value = option[option.index(after: equals)...].trimmingSpaces()
        func number() throws(RPCError) -> Double {
            guard let number = Double(value), number.isFinite else {
                throw .invalidParams(param: "items", reason: "\(place): \(key) must be a number (got \(value))")
            }
            return number
        }
        switch key {
        case "start-time": entry.start = try number()
        case "stop-time": entry.end = try number()
        case "duration": entry.duration = try number()  // a still's display time, a stream's play time
        case "on-stall":
            guard let choice = StreamStall(rawValue: value) else {
                throw .invalidParams(param: "items", reason: "\(place): on-stall must be hold, black or skip")
            }
            entry.onStall = choice
        case "program":
            guard let number = Int(value), (0...65535).contains(number) else {
                throw .invalidParams(param: "items", reason: "\(place): program must be an MPEG-TS program number, 0 to 65535")
            }
            entry.program = number
        case "type":
            guard value == "web" || value == "media" else {
                throw .invalidParams(param: "items", reason: "\(place): type must be web or media")
            }
            entry.web = value == "web" ? (entry.web ?? WebItem()) : nil
        case "reload", "zoom", "interval", "load-timeout", "viewport":
            var web = entry.web ?? WebItem()
            switch key {
            case "reload":
                guard let choice = WebItem.Reload(rawValue: value) else {
                    throw .invalidParams(param: "items", reason: "\(place): reload must be each-play or keep")
                }
                web.reload = choice
            case "zoom": web.zoom = try number()
            case "interval": web.interval = try number()
            case "load-timeout": web.loadTimeout = try number()
            default:
                let sides = value.split(separator: "x").compactMap { Int($0) }
                guard sides.count == 2 else {
                    throw .invalidParams(param: "items", reason: "\(place): viewport must look like 1920x1080")
                }
                web.viewport = PictureSize(width: sides[0], height: sides[1])
            }
            entry.web = web
        case "latency":
            let seconds = try number()
            guard MediaItem.latencies.contains(seconds) else {
                throw .invalidParams(param: "items", reason: "\(place): latency must be between 0.2 and 30 seconds")
            }
            entry.latency = seconds
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
        case "sha256":
            guard MediaItem.isDigest(value.lowercased()) else {
                throw .invalidParams(param: "items", reason: "\(place): sha256 must be 64 hex digits")
            }
            entry.sha256 = value.lowercased()
        case "transition":
            guard let transition = RPCTransition(text: value), transition.isValid else {
                throw .invalidParams(
                    param: "items", reason: "\(place): transition must be cut, fade:SECONDS, dip:SECONDS:#rrggbb or crossfade:SECONDS (0.1-5 s)")
            }
            entry.transition = Self.transition(transition)
        case "motion":
            guard let motion = RPCMotion(text: value) else {
                throw .invalidParams(param: "items", reason: "\(place): motion must be auto or x,y,w,h>x,y,w,h (fractions 0-1)")
            }
            entry.motion = Self.motion(motion)
        case "schedule":
            guard let schedule = RPCSchedule(playlistText: value) else {
                throw .invalidParams(
                    param: "items", reason: "\(place): schedule must be days=…;from=HH:MM;until=HH:MM;start=…;end=…")
            }
            entry.schedule = try ScheduleInput.itemSchedule(schedule, param: "\(place): schedule")
        default: break  // VLC's other options
        }
    }

    private static func isDirectory(_ path: String) -> Bool {
        var isDirectory = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory
    }

    /// A directory's media files (not its playlists, not hidden ones, not recursively), in natural order,
    /// each with the directory item's options.
    static func expandDirectory(
        _ path: String, template: MediaItem, confinement: FolderConfinement? = nil
    ) throws(RPCError) -> [MediaItem] {
        let files: [String]
        do {
            files = try MediaPaths.mediaFiles(in: path)
        } catch {
            throw .mediaError(error.description)
        }
        guard !files.isEmpty else { throw .mediaError(MediaPathError.noMediaFiles(directory: path).description) }
        // A symlink inside an allowed folder may point anywhere: each file is judged on its own real path.
        for file in files { try confine(file, confinement) }
        return files.map { file in
            var item = template
            item.uri = file
            return item
        }
    }

    /// `uri` when it is an http(s) URL or a stream queued can play (nil: not a network URI). HLS and DASH
    /// (.m3u8, .mpd over http(s)) are streams, read by FFmpeg, never cached.
    static func networkURL(_ uri: String) throws(RPCError) -> String? {
        if let kind = StreamKind(uri: uri) { return try streamURL(uri, kind: kind) }
        guard isNetworkURI(uri) else { return nil }
        guard let url = URL(string: uri), let host = url.host, !host.isEmpty else {
            throw .uriNotAllowed(uri, reason: "not a valid http(s) URL")
        }
        let path = url.path.lowercased()
        if path.hasSuffix(".m3u8") || path.hasSuffix(".m3u") || path.hasSuffix(".mpd") {
            throw .uriNotAllowed(
                uri, reason: "HLS and DASH streams (.m3u8, .mpd) are not supported; queue the media files")
        }
        return uri
    }

    /// A stream's URL as queued: a host (or, for udp/rtp, at least a port: `udp://@:5000` listens), and no
    /// spaces or control characters (FFmpeg would read them as its own syntax).
    static func streamURL(_ uri: String, kind: StreamKind) throws(RPCError) -> String {
        guard uri.utf8.allSatisfy({ $0 > 0x20 && $0 != 0x7F }) else {
            throw .uriNotAllowed(StreamKind.redacted(uri), reason: "a stream URL may not contain spaces or control characters")
        }
        let afterScheme = uri.drop { $0 != ":" }.dropFirst()
        guard afterScheme.hasPrefix("//"), afterScheme.dropFirst(2).prefix(while: { $0 != "/" && $0 != "?" }).count > 0
        else {
            throw .uriNotAllowed(StreamKind.redacted(uri), reason: "not a valid \(kind.rawValue) URL (scheme://host:port/…)")
        }
        if let refusal = kind.queryRefusal(uri) { throw .uriNotAllowed(StreamKind.redacted(uri), reason: refusal) }
        return uri
    }

    /// The local path a URI names (MediaPaths' ItemURI, the reading the caller policy shares), or "URI not allowed".
    static func localPath(of uri: String) throws(RPCError) -> String {
        do {
            return try ItemURI.localPath(of: uri)
        } catch {
            throw .uriNotAllowed(uri, reason: error.reason)
        }
    }

    /// Refuses `uri` when a confined caller may not name it.
    static func confine(_ uri: String, _ confinement: FolderConfinement?) throws(RPCError) {
        guard let confinement, let refusal = confinement.refusal(uri: uri) else { return }
        throw .uriNotAllowed(uri, reason: refusal)
    }

    /// An M3U playlist's entries, in order; entries inherit the playlist item's options, and the tags before
    /// an entry override them: `#EXTINF` (title), `#EXTVLCOPT:start-time=`/`stop-time=` (window) and
    /// `#EXTQUEUED:loops=`/`track-end=`/`sha256=`/`schedule=` (what `queuectl save` writes) and `duration=`
    /// (seconds: a still's display time, a stream's play time). Unknown tags are skipped.
    /// A confined caller's playlist may name only what the caller could name itself: each entry is judged as
    /// the caller's own item would be.
    static func expandPlaylist(
        _ path: String, template: MediaItem, confinement: FolderConfinement? = nil
    ) throws(RPCError) -> [MediaItem] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .mediaError("cannot read playlist \(path)")
        }
        let text = String(decoding: data, as: UTF8.self)
        let directory = PathText.deletingLastComponent(path)
        var items: [MediaItem] = []
        var entry = template
        for (number, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated()
        {
            let line = rawLine.trimmingSpaces()
            if line.isEmpty { continue }
            if line.hasPrefix("#") {
                try applyTag(line, to: &entry, at: "\(path):\(number + 1)")
                continue
            }
            let isRelative = !line.hasPrefix("/") && !line.contains(":")
            try confine(isRelative ? directory + "/" + line : line, confinement)
            if let url = try networkURL(line) {
                entry.uri = url
            } else {
                entry.uri = try localPath(of: isRelative ? directory + "/" + line : line)
            }
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
