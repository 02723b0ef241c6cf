// `queued`: the playback daemon. Parses options (a config file's first, then the command line's), builds
// the outputs and the engine, queues the files given on the command line (after the saved queue, see
// DurableState), and runs until SIGINT/SIGTERM (or the end of the queue with --exit-when-done).

import ArgumentParser
import DecodeChoice
import AudioPulse
import ConfigFile
import FoundationEssentials
import Glibc
import SystemSupport
import Triggers
import Logging
import Media
import Playback
import QueueModel
import QueueRPC
import QueueServer
import VideoSDL

@main
struct QueuedCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "queued",
            abstract: "A gapless media queue player daemon.",
            discussion: """
                Plays the given files in order, gaplessly; --loops 0 repeats the queue forever. Control it with queuectl or any JSON-RPC 2.0 client on the control socket (see Protocol/README.md).
                """,
            version: QueuedCommand.versionText)
    }

    /// `queued --version`: the version and the libraries linked at run time (what a bug report needs).
    static var versionText: String {
        "queued \(QueuedVersion.number)\n\(FFmpegVersions.summary)\n\(SDLVersion.summary)\n\(PulseVersion.summary)"
    }

    @Argument(
        help: "Media files, directories (their media files, in natural order) and .m3u/.m3u8 playlists to queue.")
    var files: [String] = []

    @Option(
        help: ArgumentHelp(
            "Read options from this file instead of $XDG_CONFIG_HOME/queued/queued.conf (else ~/.config/queued/queued.conf), else /etc/queued/queued.conf: one option=value or flag per line, named as the long options without dashes; the command line overrides it.",
            valueName: "path"))
    var config: String?

    @Flag(help: "Read no config file.")
    var noConfig = false

    @Option(help: "Control socket (default: $QUEUED_SOCKET, else $XDG_RUNTIME_DIR/queued/queued.sock).")
    var socket: String?

    @Option(help: "Also let members of this group use the control socket (socket mode 0660).")
    var socketGroup: String?

    @Flag(help: "Run without a control socket.")
    var noSocket = false

    @Option(help: "Passes through the whole queue: 1 once, N times, 0 forever (default: as saved, else 1).")
    var loops: Int?

    @Option(help: "Plays of each item given on the command line (0 = forever).")
    var itemLoops = 1

    @Option(help: "Audio output: auto (PulseAudio when reachable, else null), pulse or null.")
    var audio: AudioChoice = .auto

    @Option(help: "PulseAudio server (default: libpulse's own choice).")
    var pulseServer: String?

    @Option(
        help: ArgumentHelp(
            "Seconds of sound buffered at the PulseAudio server, 0.02-2. Less: pause, volume and (on sinks that read ahead) interrupts act sooner; more: safer on a loaded box.",
            valueName: "seconds"))
    var audioBuffer = 0.1

    @Option(help: "Video output: auto (SDL when a display exists), sdl, null (decode, show nothing) or none.")
    var video: VideoChoice = .auto

    @Option(help: "SDL video driver for --video sdl (x11, wayland, offscreen…).")
    var videoDriver: String?

    @Flag(help: "Show video fullscreen.")
    var fullscreen = false

    @Option(help: "Window size, WIDTHxHEIGHT.")
    var geometry = "1280x720"

    @Option(
        help: ArgumentHelp(
            "Cut the screen into zones at start: a JSON file {\"zones\": [...]} as layout.set takes (default: the layout kept, else one zone).",
            valueName: "file"))
    var layout: String?

    @Option(
        help: ArgumentHelp(
            "What this box decodes, in megapixels a second, against which layouts' video zones are checked (default: the output's pixels at 60 pictures a second).",
            valueName: "Mpx/s"))
    var decodeBudget: Double?

    @Option(help: "Scaling: fit (letterbox), fill (crop) or stretch (default: as saved, else fit).")
    var fit: FitChoice?

    @Option(
        help: ArgumentHelp(
            "Turn the picture clockwise by 0, 90, 180 or 270 degrees, for a panel mounted on its side (default: as saved, else 0).",
            valueName: "degrees"))
    var rotate: Int?

    @Option(
        help: ArgumentHelp(
            "A video wall of equal panels, COLUMNSxROWS (3x2): this screen shows its panel's part of each picture, the picture fitted (--fit) to the whole wall.",
            valueName: "grid"))
    var wall: String?

    @Option(help: ArgumentHelp("This screen's panel in the --wall grid, COLUMN,ROW from 0,0 at the top left.", valueName: "column,row"))
    var wallPosition: String?

    @Option(
        help: ArgumentHelp(
            "The gap between two neighbouring panels' pictures (both bezels), X[,Y] in px of the panel or in mm (12px, 6.5mm; mm needs --wall-panel-mm): the picture goes on behind it.",
            valueName: "gap"))
    var wallBezel: String?

    @Option(help: ArgumentHelp("The panel's visible size in mm, WIDTHxHEIGHT (for --wall-bezel in mm).", valueName: "size"))
    var wallPanelMm: String?

    @Option(
        help: ArgumentHelp(
            "Show only this rectangle of each picture, x,y,w,h in fractions of its frame (0.5,0,0.5,0.5: the top right quarter; the picture fitted to the frame by --fit, so with another shape its bars count), instead of a --wall grid.",
            valueName: "x,y,w,h"))
    var wallCrop: String?

    @Option(
        help:
            "Where audio+video items end when their tracks differ: auto (shortest at a loop seam, else longest), shortest or longest. Per item: trackEnd."
    )
    var trackEnd: TrackEndChoice = .auto

    @Flag(help: "Same as --track-end shortest.")
    var shortestTrack = false

    @Option(
        help: ArgumentHelp(
            "Hardware video decoding: no, auto (only methods known to be safe: nvdec, vaapi, drm) or a list such as vaapi,v4l2m2m; software whenever it cannot (the reason is logged).",
            valueName: "no|auto|list"))
    var hwdec = "no"

    @Option(help: ArgumentHelp("Codecs that may be decoded in hardware.", valueName: "list"))
    var hwdecCodecs = "h264,hevc,vp9,av1"

    @Option(help: "Seconds a still image is shown (and a web page that names no duration).")
    var stillDuration = 10.0

    @Option(
        help: ArgumentHelp(
            "The program that renders web items (default: queued-webview beside queued, else found on PATH).",
            valueName: "path"))
    var webRenderer: String?

    @Option(
        help: "The most memory a web page's process may use, MiB (256-16384; a plain page takes ~170 MiB drawn in software): above it the page is stopped and its item fails.")
    var webMemory = 512

    @Option(help: "Frames a second a web page is painted at most (1-60).")
    var webFps = 30.0

    @Option(
        help: ArgumentHelp(
            "What the screen shows while every item is outside its schedule: black, last (the last picture stays up) or an image file (absolute path).",
            valueName: "black|last|file"))
    var scheduleFallback = "black"

    @Option(
        help: ArgumentHelp(
            "How items without their own transition are joined to the one before: cut (the gapless join), fade:SECONDS (out to black and in), dip:SECONDS:#rrggbb (through a colour) or crossfade:SECONDS (the next starts that long before this one ends, pictures blended, sounds mixed), 0.1-5 s.",
            valueName: "type[:seconds]"))
    var transition = "cut"

    @Option(
        help: ArgumentHelp(
            "When the screen is on, weekly: windows as in a playlist's schedule, separated by |, e.g. \"days=mon,tue,wed,thu,fri;from=07:00;until=22:00 | days=sat;from=09:00;until=18:00\"; outside them the picture is black, the sound stops, decoding pauses and the screen is told to sleep (default: always on).",
            valueName: "windows"))
    var displaySchedule: String?

    @Option(
        help: ArgumentHelp(
            "Puts the screen to sleep, run without a shell (words split as a shell would, nothing expanded), e.g. \"cec-ctl --to 0 --standby\"; with --display-on-command it replaces the video output's own way (X11 DPMS, DRM).",
            valueName: "command"))
    var displayOffCommand: String?

    @Option(
        help: ArgumentHelp(
            "Wakes the screen, run without a shell, e.g. \"cec-ctl --to 0 --image-view-on\".", valueName: "command"))
    var displayOnCommand: String?

    @Option(help: "Seconds before a display command is stopped (its whole process group) and reported failed.")
    var displayCommandTimeout = 10.0

    @Option(
        name: .customLong("trigger"),
        help: ArgumentHelp(
            "A trigger rule, INPUT -> ACTION (repeat; `trigger` lines in the config file), e.g. \"key=F1 -> interrupt /srv/promo.mp4 loops=1\", \"serial=/dev/ttyUSB0 match=\\\"XR(\\\\d+)\\\" -> play-id $1\", \"evdev=/dev/input/event3 code=KEY_ENTER cooldown=2s -> next\", \"webhook=promo secret=S -> next\", \"mqtt=lights -> call overlay.update {...}\", \"gpio=gpiochip0:17 edge=falling debounce=50ms bias=pull-up -> next\". Given, they replace the rules kept from triggers.set.",
            valueName: "rule"))
    var triggers: [String] = []

    @Option(
        name: .customLong("output"),
        help: ArgumentHelp(
            "An output rule, on=start|end [uri=PATTERN] [title=PATTERN] -> command /path words… | serial DEVICE LINE | gpio CHIP:LINE 1|0|pulse=DURATION | mqtt TOPIC PAYLOAD (repeat; `output` lines in the config file), e.g. \"on=start uri=*/film*.mp4 -> command /usr/local/bin/lights dim\": run when a matching play starts or ends (commands without a shell, stopped after --display-command-timeout; MQTT through queued-mqtt, on queued/<player>/output/TOPIC).",
            valueName: "rule"))
    var outputs: [String] = []

    @Option(
        name: .customLong("cap-feed"),
        help: ArgumentHelp(
            "A CAP 1.2 feed to take alerts from (http(s): one <alert>, or an Atom feed of them; repeat): each current alert of it is raised (its headline and instruction on screen, priority by severity, its expiry), a Cancel or an alert it no longer carries is withdrawn.",
            valueName: "url"))
    var capFeeds: [String] = []

    @Option(help: "Seconds between two polls of each CAP feed.")
    var capInterval = 60.0

    @Option(help: ArgumentHelp("The CAP statuses taken, comma-separated (Actual, Test, Exercise).", valueName: "statuses"))
    var capStatus = "Actual"

    @Option(help: "Volume, 0-100 (default: as saved, else 100).")
    var volume: Int?

    @Option(help: "Playback speed, 0.5-2.0, pitch preserved (default: as saved, else 1).")
    var rate: Double?

    @Option(
        help: ArgumentHelp(
            "Where the queue and the player's state are kept across restarts (default: $XDG_STATE_HOME/queued, else ~/.local/state/queued).",
            valueName: "dir"))
    var stateDir: String?

    @Flag(help: "Keep no state: start empty, save nothing.")
    var noState = false

    @Option(
        help:
            "When a change counts as kept (and is answered): batch (written; fdatasync at most every 100 ms) or always (fdatasync first)."
    )
    var sync: SyncChoice = .batch

    @Option(
        help:
            "After a restart, resume the saved current item at its position, at its start (item), or not at all (none)."
    )
    var resume: ResumeChoice = .position

    @Flag(help: "The files given replace the saved queue (default: they are appended to it).")
    var replace = false

    @Option(
        help:
            "Seconds without progress while playing before the item ends 'stalled' and the decode thread is rebuilt (the systemd watchdog stops only if that stalls too); also the longest wait for a FIFO's data."
    )
    var stallTimeout = 5.0

    @Option(
        help: ArgumentHelp(
            "Where http(s) items are cached (default: $XDG_CACHE_HOME/queued, else ~/.cache/queued).",
            valueName: "dir"))
    var cacheDir: String?

    @Option(
        help:
            "Seconds without a byte from a server before the transfer is asked again from where it stopped (then the item fails)."
    )
    var netTimeout = 15.0

    @Option(help: "Seconds between checks that a complete cached file is still the server's version (0: every play).")
    var revalidate = 600.0

    @Option(
        help: ArgumentHelp(
            "Cap on the cache's size, e.g. 2G or 500M; beyond it, files no queued item uses are evicted, least recently used first.",
            valueName: "size"))
    var cacheSize: String?

    @Option(
        help: ArgumentHelp(
            "Free space to leave on the cache's file system (evicting unused files), e.g. 256M.", valueName: "size"))
    var cacheMinFree = "256M"

    @Option(
        help:
            "How many http(s) items after the current one to download ahead (default: the whole queue, for offline play)."
    )
    var prefetch: Int?

    @Option(
        help: ArgumentHelp(
            "Write daemon.health's figures here every 10 s as Prometheus text (node_exporter textfile).",
            valueName: "path"))
    var metricsFile: String?

    @Option(help: "Seconds between progress lines in the log (0: none).")
    var progressInterval = 0.0

    @Flag(help: "Run as fast as possible on null outputs, no clock (soak tests and benchmarks).")
    var untimed = false

    @Flag(help: "Exit when the queue has played through (instead of idling).")
    var exitWhenDone = false

    @Option(
        help: ArgumentHelp(
            "Log level: trace, debug, info, notice, warning, error or critical; also per label, e.g. info,ffmpeg=warning,cache=debug.",
            valueName: "levels"))
    var logLevel = LogLevels()

    @Option(
        help: ArgumentHelp(
            "Append the log to this file instead of stderr (stderr lines get journald priorities when it is the journal).",
            valueName: "path"))
    var logFile: String?

    mutating func validate() throws {
        guard (loops ?? 1) >= 0, itemLoops >= 0 else { throw ValidationError("loop counts must be >= 0") }
        _ = try hwdecSetting()
        guard (0...100).contains(volume ?? 100) else { throw ValidationError("--volume must be 0-100") }
        if rotate != nil, videoRotation == nil {
            throw ValidationError("--rotate must be 0, 90, 180 or 270")
        }
        guard parsedGeometry != nil else { throw ValidationError("--geometry must look like 1280x720") }
        _ = try wallPlacement()
        guard stillDuration > 0 else { throw ValidationError("--still-duration must be > 0") }
        guard (256...16_384).contains(webMemory) else { throw ValidationError("--web-memory must be 256-16384 MiB") }
        guard (1...60).contains(webFps) else { throw ValidationError("--web-fps must be 1-60") }
        guard (0.02...2).contains(audioBuffer) else { throw ValidationError("--audio-buffer must be 0.02-2 seconds") }
        if !["black", "last"].contains(scheduleFallback), !scheduleFallback.hasPrefix("/") {
            throw ValidationError("--schedule-fallback must be black, last or an absolute path to an image")
        }
        guard (0.5...2.0).contains(rate ?? 1) else { throw ValidationError("--rate must be 0.5-2.0") }
        guard stallTimeout > 0 else { throw ValidationError("--stall-timeout must be > 0") }
        guard netTimeout >= 1 else { throw ValidationError("--net-timeout must be >= 1") }
        guard revalidate >= 0 else { throw ValidationError("--revalidate must be >= 0") }
        guard prefetch.map({ $0 >= 0 }) ?? true else { throw ValidationError("--prefetch must be >= 0") }
        if let cacheSize, Self.bytes(cacheSize) == nil {
            throw ValidationError("--cache-size: not a size: \(cacheSize)")
        }
        guard Self.bytes(cacheMinFree) != nil else {
            throw ValidationError("--cache-min-free: not a size: \(cacheMinFree)")
        }
        _ = try defaultTransition()
        _ = try parsedDisplaySchedule()
        guard (1...86_400).contains(capInterval) else { throw ValidationError("--cap-interval must be 1-86400 seconds") }
        for feed in capFeeds where !(feed.hasPrefix("http://") || feed.hasPrefix("https://")) {
            throw ValidationError("--cap-feed \(feed): an http(s) URL")
        }
        for status in capStatus.split(separator: ",") where !["actual", "test", "exercise"].contains(status.lowercased()) {
            throw ValidationError("--cap-status: \(status) is not Actual, Test or Exercise")
        }
        for rule in outputs {
            do { _ = try OutputRule(parsing: rule) } catch { throw ValidationError("--output \(rule): \(error)") }
        }
        var parsed: [TriggerRule] = []
        for rule in triggers {
            do { parsed.append(try TriggerRule(parsing: rule)) } catch { throw ValidationError("--trigger \(rule): \(error)") }
        }
        if let conflict = TriggerRule.conflict(in: parsed) { throw ValidationError("--trigger: \(conflict)") }
        // Each command's words here; that both are given is checked at start (a config file's lines are
        // validated one at a time, and the two are usually on two lines).
        if let displayOffCommand { _ = try Self.words(displayOffCommand, option: "--display-off-command") }
        if let displayOnCommand { _ = try Self.words(displayOnCommand, option: "--display-on-command") }
        guard (0.1...120).contains(displayCommandTimeout) else {
            throw ValidationError("--display-command-timeout must be 0.1-120 seconds")
        }
        guard !(noState && stateDir != nil) else { throw ValidationError("use either --state-dir or --no-state") }
        guard !(noConfig && config != nil) else { throw ValidationError("use either --config or --no-config") }
    }

    /// --transition, read (nil: a cut).
    func defaultTransition() throws -> ItemTransition? {
        guard let parsed = RPCTransition(text: transition), parsed.isValid else {
            throw ValidationError("--transition must be cut, fade:SECONDS, dip:SECONDS:#rrggbb or crossfade:SECONDS (0.1-5 s)")
        }
        let chosen = ItemInputs.transition(parsed)
        return chosen.softens ? chosen : nil
    }

    /// --display-schedule, read (empty: always on).
    func parsedDisplaySchedule() throws -> DisplaySchedule {
        // Empty (a config file's way of saying "always on" over an earlier line) is no schedule.
        guard let displaySchedule, displaySchedule.contains(where: { !$0.isWhitespace }) else {
            return DisplaySchedule()
        }
        do throws(RPCError) {
            return try DisplayScheduleInput.parse(displaySchedule)
        } catch {
            let param = error.data?["param"]?.stringValue ?? "display-schedule"
            throw ValidationError("--display-schedule: '\(param)' \(error.data?["reason"]?.stringValue ?? error.message)")
        }
    }

    /// The two display commands split into words; both or neither.
    func displayCommands() throws -> ScreenPowerCommands? {
        switch (displayOffCommand, displayOnCommand) {
        case (nil, nil): return nil
        case (let off?, let on?):
            return ScreenPowerCommands(
                off: try Self.words(off, option: "--display-off-command"),
                on: try Self.words(on, option: "--display-on-command"), timeout: displayCommandTimeout)
        default:
            throw ValidationError("--display-off-command and --display-on-command go together: give both")
        }
    }

    static func words(_ text: String, option: String) throws -> [String] {
        do throws(CommandWords.Error) {
            return try CommandWords.split(text)
        } catch {
            throw ValidationError("\(option): \(error)")
        }
    }

    /// "500M", "2G", "1.5G", "4096" (bytes; K, M, G, T are powers of 1024) → bytes.
    static func bytes(_ text: String) -> Int64? {
        let units: [Character: Double] = ["K": 0x1p10, "M": 0x1p20, "G": 0x1p30, "T": 0x1p40]
        var number = text.uppercased()
        if number.hasSuffix("B") { number.removeLast() }
        var scale = 1.0
        if let last = number.last, let unit = units[last] {
            scale = unit
            number.removeLast()
        }
        guard let value = Double(number), value >= 0, value.isFinite else { return nil }
        return Int64(value * scale)
    }

    /// --cache-dir, else $XDG_CACHE_HOME/queued, else ~/.cache/queued.
    var resolvedCacheDir: String {
        if let cacheDir { return cacheDir }
        let environment = ProcessInfo.processInfo.environment
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") { return cache + "/queued" }
        return (environment["HOME"] ?? PathText.homeDirectory()) + "/.cache/queued"
    }

    var parsedGeometry: (width: Int, height: Int)? {
        let parts = geometry.split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, parts[0] > 0, parts[1] > 0 else { return nil }
        return (parts[0], parts[1])
    }

    /// The config file read at start-up (nil: none). Written once by `main`, before any other thread.
    nonisolated(unsafe) static var configPath: String?

    /// Reads the config file, checks each of its lines on its own (so a bad one is named by file:line,
    /// exit status 64 as for a bad command line), then parses its settings followed by the command line.
    static func main() {
        let commandLine = Array(CommandLine.arguments.dropFirst())
        var arguments = commandLine
        do {
            if let file = configFile(ConfigFile.choice(in: commandLine)) {
                for setting in file.settings {
                    do {
                        _ = try parseAsRoot(setting.arguments)
                    } catch {
                        usageFailure("\(file.path):\(setting.line): \(message(for: error))")
                    }
                }
                configPath = file.path
                arguments = file.arguments + commandLine
            }
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch {
            exit(withError: error)
        }
    }

    /// The config file the command line chose or the search finds; nil for none.
    static func configFile(_ choice: ConfigFile.Choice) -> ConfigFile? {
        do {
            switch choice {
            case .none:
                return nil
            case .explicit(let path):
                guard let file = try ConfigFile.read(path: path) else {
                    usageFailure("\(path): cannot read the config file")
                }
                return file
            case .search:
                return try ConfigFile.find(name: "queued.conf", environment: ProcessInfo.processInfo.environment)
            }
        } catch {
            usageFailure(error.description)
        }
    }

    private static func usageFailure(_ message: String) -> Never {
        let line = Array("queued: \(message)\n".utf8)
        _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        Glibc.exit(ExitCode.validationFailure.rawValue)
    }

    func run() throws {
        _ = try displayCommands()  // both or neither, now that every line of the config file is in
        AllocatorPolicy.apply()
        // Before any thread exists, so that every thread inherits it: SIGINT/SIGTERM are taken only by the
        // daemon's signal thread (sigwait), which then shuts everything down in order.
        var shutdownSignals = sigset_t()
        sigemptyset(&shutdownSignals)
        sigaddset(&shutdownSignals, SIGINT)
        sigaddset(&shutdownSignals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &shutdownSignals, nil)
        // A write to a pipe or socket whose reader went (the web renderer, a client) is an error to handle,
        // never the end of the daemon.
        signal(SIGPIPE, SIG_IGN)
        // A file-size limit (ulimit -f) then fails the write (EFBIG: the cache reports it, the item plays
        // on or fails) instead of killing the daemon.
        signal(SIGXFSZ, SIG_IGN)
        let levels = logLevel
        let sink = try LogSink.make(logFile: logFile, environment: ProcessInfo.processInfo.environment)
        LoggingSystem.bootstrap { label in SinkLogHandler(label: label, sink: sink, logLevel: levels.level(for: label))
        }
        let logger = Logger(label: "queued")
        // FFmpeg's info lines are its chatter: only when asked for by label.
        FFmpegLog.install(
            Logger(label: "queued.ffmpeg"), level: levels.byLabel["ffmpeg"] ?? max(levels.fallback, .warning))
        guard try Daemon(options: self, logger: logger).run() else { return }
        // daemon.restart: the same program (an upgraded file if it was replaced) with the same arguments; the
        // config file is read again by the new start.
        guard let program = RestartInPlace.programPath() else {
            logger.error("restart: cannot find this program's file; exiting")
            Glibc.exit(1)
        }
        let failure = RestartInPlace.exec(program, arguments: CommandLine.arguments)
        logger.error("restart: \(failure)")
        Glibc.exit(1)
    }
}

enum AudioChoice: String, ExpressibleByArgument, CaseIterable { case auto, pulse, null }
enum VideoChoice: String, ExpressibleByArgument, CaseIterable { case auto, sdl, null, none }

extension QueuedCommand {
    /// `--wall`… or `--wall-crop` as this screen's part of a wall (nil: not in a wall); throws when they do not make one.
    func wallPlacement() throws -> WallPlacement? {
        if let wallCrop {
            guard wall == nil else { throw ValidationError("--wall-crop and --wall: one or the other") }
            guard let crop = WallPlacement.crop(wallCrop) else {
                throw ValidationError("--wall-crop is x,y,w,h in fractions of the picture, inside it (0.5,0,0.5,0.5)")
            }
            return crop
        }
        guard let wall else {
            if wallPosition != nil || wallBezel != nil || wallPanelMm != nil { throw ValidationError("--wall-position, --wall-bezel and --wall-panel-mm go with --wall") }
            return nil
        }
        switch WallPlacement.grid(wall, position: wallPosition, bezel: wallBezel, panelMillimetres: wallPanelMm) {
        case .success(let placement): return placement
        case .failure(let error): throw ValidationError(error.description)
        }
    }

    /// `--fit` and `--rotate` as the engine's values; nil when not given (the saved setting stands).
    var videoFit: VideoFit? { fit.flatMap { VideoFit(rawValue: $0.rawValue) } }
    var videoRotation: VideoRotation? { rotate.flatMap(VideoRotation.init(rawValue:)) }
}

enum FitChoice: String, ExpressibleByArgument, CaseIterable { case fit, fill, stretch }
enum TrackEndChoice: String, ExpressibleByArgument, CaseIterable { case auto, shortest, longest }
enum SyncChoice: String, ExpressibleByArgument, CaseIterable { case batch, always }
enum ResumeChoice: String, ExpressibleByArgument, CaseIterable { case position, item, none }

extension Logger.Level: @retroactive ExpressibleByArgument {}

extension QueuedCommand {
    /// `--hwdec` and `--hwdec-codecs` read.
    func hwdecSetting() throws -> HWDecodeSetting {
        do throws(HWDecodeSetting.ParseError) {
            return HWDecodeSetting(
                methods: try HWDecodeSetting.methods(parsing: hwdec), codecs: try HWDecodeSetting.codecs(parsing: hwdecCodecs))
        } catch {
            throw ValidationError(error.description)
        }
    }
}
