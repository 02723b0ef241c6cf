// `queuectl add`: files, directories (their media files, in name order) and playlists, appended or
// inserted. Paths are made absolute here, against the client's cwd, because Protocol/README.md accepts only absolute
// paths and the daemon's cwd is not the user's; playlists go to the daemon as paths and it expands them.

import ArgumentParser
import MediaPaths
import QueueClient
import QueueRPC
import QueuectlPresentation

struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Add files, directories, playlists (.m3u/.m3u8), http(s) URLs or streams to the queue.",
        discussion:
            "A directory adds its media files (audio, video, images) sorted by name, not recursively. Streams: rtsp(s)://, rtmp(s)://, srt://, udp://, rtp:// and HLS (.m3u8) or DASH (.mpd) over http(s); give them a --duration.")

    @OptionGroup(title: "Global Options") var options: GlobalOptions

    @Argument(
        help: ArgumentHelp("Media files, directories, playlists, URLs or streams.", valueName: "path"),
        completion: .file())
    var paths: [String]

    @Flag(help: "Insert after the current item (append when nothing is current).")
    var next = false

    @Option(help: ArgumentHelp("Insert at this queue index (0 = first).", valueName: "index"))
    var at: Int64?

    @Option(help: ArgumentHelp("Insert after the item with this id.", valueName: "id"))
    var after: Int64?

    @Option(help: ArgumentHelp("Plays of each added item (0 = forever).", valueName: "n"))
    var loops: Int64?

    @Flag(help: "Play each added item forever (same as --loops 0).")
    var forever = false

    @Option(
        help: ArgumentHelp(
            "The SHA-256 an http(s) item's file must have (64 hex digits): a mismatch is fetched again once, then fails the item.",
            valueName: "hex"))
    var sha256: String?

    @Option(
        help: ArgumentHelp(
            "How long each added still or stream plays: 90, 1:30, 10m, 1h30m (a stream without one plays until it ends).",
            valueName: "time"))
    var duration: String?

    @Option(
        help: ArgumentHelp(
            "Streams: at a drop, hold the last picture and reconnect (hold, the default), show black and reconnect (black), or end the item at once (skip).",
            valueName: "hold|black|skip"))
    var onStall: String?

    @Option(
        help: ArgumentHelp(
            "Streams: the MPEG-TS program to play, by its number as ffprobe lists it (default: the program of the picture FFmpeg finds best).",
            valueName: "number"))
    var program: Int?

    @Option(
        help: ArgumentHelp(
            "Live streams: the latency to keep, in seconds (0.2 to 30; default 1 for RTSP, RTMP, SRT, UDP and RTP, what the play settles at for HLS and DASH): played up to 0.5 % faster or slower to stay near it.",
            valueName: "seconds"))
    var latency: Double?

    @Option(
        help: ArgumentHelp(
            "Play only on these days (comma-separated: mon,tue,wed,thu,fri,sat,sun), in the daemon's local time.",
            valueName: "days"))
    var days: String?

    @Option(help: ArgumentHelp("Play only from this local time each day (HH:MM).", valueName: "HH:MM"))
    var from: String?

    @Option(
        help: ArgumentHelp(
            "Play only until this local time (HH:MM, exclusive; not after --from: past midnight).", valueName: "HH:MM"))
    var until: String?

    @Option(help: ArgumentHelp("Play only from this date on (YYYY-MM-DD).", valueName: "date"))
    var startDate: String?

    @Option(help: ArgumentHelp("Play only up to this date, inclusive (YYYY-MM-DD).", valueName: "date"))
    var endDate: String?

    @Option(
        help: ArgumentHelp(
            "How each added item is joined to the one before it: cut, fade:SECONDS, dip:SECONDS:#rrggbb or crossfade:SECONDS (0.1-5 s; default: the daemon's).",
            valueName: "transition"))
    var transition: String?

    @Option(
        help: ArgumentHelp(
            "Stills: a slow pan and zoom while shown: auto, or from>to frames as fractions of the picture, x,y,w,h>x,y,w,h.",
            valueName: "motion"))
    var motion: String?

    @Flag(
        help: "Each added URL is a web page, shown for --duration (a local .html file is one without saying so).")
    var web = false

    @Option(
        help: ArgumentHelp(
            "Web pages: load afresh before each play (each-play, the default) or keep the page alive between plays (keep).",
            valueName: "each-play|keep"))
    var reload: String?

    @Option(help: ArgumentHelp("Web pages: the zoom factor (0.25 to 5).", valueName: "factor"))
    var zoom: Double?

    @Option(
        help: ArgumentHelp(
            "Web pages: the CSS size the page is laid out at (default: the size it shows at).", valueName: "WIDTHxHEIGHT"))
    var viewport: String?

    @Option(help: ArgumentHelp("Web pages: reload every this many seconds while shown (5 or more).", valueName: "seconds"))
    var interval: Double?

    @Option(
        help: ArgumentHelp(
            "Web pages: seconds the page may take to load and paint before its play fails (1-300; default 15).",
            valueName: "seconds"))
    var loadTimeout: Double?

    /// The web options given; nil when the items are not web pages.
    var webOptions: RPCWebOptions? {
        guard web || reload != nil || zoom != nil || viewport != nil || interval != nil || loadTimeout != nil else {
            return nil
        }
        return RPCWebOptions(
            reload: reload, zoom: zoom, viewport: viewport.flatMap(Self.size), interval: interval, loadTimeout: loadTimeout)
    }

    static func size(_ text: String) -> (width: Int64, height: Int64)? {
        let sides = text.split(separator: "x").compactMap { Int64($0) }
        guard sides.count == 2, sides.allSatisfy({ (16...7680).contains($0) }) else { return nil }
        return (sides[0], sides[1])
    }

    /// The schedule the options describe; nil when none is given. The daemon checks the values.
    var schedule: RPCSchedule? {
        guard days != nil || from != nil || until != nil || startDate != nil || endDate != nil else { return nil }
        return RPCSchedule(
            days: days.map { $0.split(separator: ",").map(String.init) }, from: from, until: until, start: startDate,
            end: endDate)
    }

    func validate() throws {
        guard !paths.isEmpty else { throw ValidationError("give at least one file, directory or playlist") }
        let placements = [next, at != nil, after != nil].filter { $0 }.count
        guard placements <= 1 else { throw ValidationError("use only one of --next, --at and --after") }
        guard !(forever && loops != nil) else { throw ValidationError("use either --loops or --forever") }
        if let loops, loops < 0 { throw ValidationError("--loops must be 0 (forever) or more") }
        if let at, at < 0 { throw ValidationError("--at must be 0 or more") }
        if let transition, RPCTransition(text: transition)?.isValid != true {
            throw ValidationError("--transition must be cut, fade:SECONDS, dip:SECONDS:#rrggbb or crossfade:SECONDS (0.1-5 s)")
        }
        if let motion, RPCMotion(text: motion) == nil {
            throw ValidationError("--motion must be auto or x,y,w,h>x,y,w,h (fractions 0-1)")
        }
        if let duration, !(DurationFormat.parseSpan(duration).map { $0 > 0 } ?? false) {
            throw ValidationError("--duration must be a length > 0: 90, 1:30, 10m or 1h30m")
        }
        if let onStall, !RPCItemInput.stallChoices.contains(onStall) {
            throw ValidationError("--on-stall must be hold, black or skip")
        }
        if let program, !(0...65535).contains(program) {
            throw ValidationError("--program must be an MPEG-TS program number, 0 to 65535")
        }
        if let latency, !(0.2...30).contains(latency) {
            throw ValidationError("--latency must be between 0.2 and 30 seconds")
        }
        if let reload, !RPCWebOptions.reloadChoices.contains(reload) {
            throw ValidationError("--reload must be each-play or keep")
        }
        if let zoom, !(0.25...5).contains(zoom) { throw ValidationError("--zoom must be from 0.25 to 5") }
        if let viewport, Self.size(viewport) == nil {
            throw ValidationError("--viewport must look like 1920x1080 (16 to 7680 pixels a side)")
        }
        if let interval, interval < 5 { throw ValidationError("--interval must be at least 5 seconds") }
        if let loadTimeout, !(1...300).contains(loadTimeout) {
            throw ValidationError("--load-timeout must be between 1 and 300 seconds")
        }
        if let sha256 {
            guard RPCItemInput.isSHA256(sha256.lowercased()) else {
                throw ValidationError("--sha256 must be 64 hex digits")
            }
            guard paths.count == 1 else { throw ValidationError("--sha256 names one file: give one URL") }
        }
    }

    func run() throws {
        let uris = try MediaPaths.expand(paths, cwd: try Session.currentDirectory())
        let session = try Session(options)
        let loopCount = forever ? 0 : loops
        let items = uris.map {
            RPCItemInput(
                uri: $0, loops: loopCount, duration: duration.flatMap(DurationFormat.parseSpan), sha256: sha256?.lowercased(),
                schedule: schedule,
                transition: transition.flatMap(RPCTransition.init(text:)), motion: motion.flatMap(RPCMotion.init(text:)),
                onStall: onStall, program: program.map(Int64.init), latency: latency, web: webOptions)
        }
        let answer: RPCAnswer<API.IdsResult>
        if let at {
            answer = try session.call(API.QueueInsert.self, .init(items: items, place: .index(at)))
        } else if let anchor = try insertionAnchor(session) {
            answer = try session.call(API.QueueInsert.self, .init(items: items, place: .after(anchor)))
        } else {
            answer = try session.call(API.QueueAdd.self, .init(items: items))
        }
        try session.show(answer) { result in Add.describe(ids: result.ids) }
    }

    /// The id to insert after: --after, or for --next the current item; nil means append.
    private func insertionAnchor(_ session: Session) throws -> Int64? {
        if let after { return after }
        guard next else { return nil }
        return try session.call(API.PlayerStatus.self).result.currentId
    }

    /// "added #4 #5 #6"; long runs (a whole directory) are summarised as a count and range.
    static func describe(ids: [Int64]) -> String {
        guard let first = ids.first, let last = ids.last else { return "added nothing" }
        if ids.count <= 10 { return "added " + ids.map { "#\($0)" }.joined(separator: " ") }
        return "added \(ids.count) items, #\(first) to #\(last)"
    }
}
