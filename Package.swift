// swift-tools-version: 6.0
// queued: a gapless playback daemon. Modules follow the data flow (see README "Layout"):
// QueueModel (pure) → Playback (engine) → Media (the only FFmpeg user) / AudioPulse / VideoSDL → queued.
import PackageDescription
import Foundation

// Web items (issue 40) are rendered by queued-webview, built only where WPE WebKit's development files are
// installed: a build without them still makes the daemon, which then refuses web items with a reason.
let buildsWebView = FileManager.default.fileExists(atPath: "/usr/include/wpe-webkit-1.1/wpe/webkit.h")
    && FileManager.default.fileExists(atPath: "/usr/include/wpe-fdo-1.0/wpe/unstable/fdo-shm.h")

let package = Package(
    name: "queued",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "queued", targets: ["queued"]),
        .executable(name: "queuectl", targets: ["queuectl"]),
        .executable(name: "queued-mqtt", targets: ["queued-mqtt"]),
        .executable(name: "queued-sync", targets: ["queued-sync"]),
        .executable(name: "queued-web", targets: ["queued-web"]),
        .executable(name: "queued-fleet", targets: ["queued-fleet"]),
    ] + (buildsWebView ? [.executable(name: "queued-webview", targets: ["queued-webview"])] : []),
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        // queued-web's HTTP and WebSocket server, and bcrypt for a stored password hash.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        // C boundary: modulemap + shim header only.
        .systemLibrary(
            name: "CFFmpeg", pkgConfig: "libavformat",
            providers: [
                .apt([
                    "libavformat-dev", "libavcodec-dev", "libavutil-dev", "libswresample-dev",
                    "libswscale-dev", "libavfilter-dev",
                ])
            ]),
        .systemLibrary(name: "CSDL2", providers: [.apt(["libsdl2-dev"])]),
        .target(name: "CFFmpegLog", dependencies: ["CFFmpeg"], linkerSettings: [.linkedLibrary("avutil")]),
        // libdrm's headers live in their own directory (pkg-config libdrm); libXext and libdrm are dlopened.
        .target(
            name: "CScreenPower", dependencies: ["CSDL2"], cSettings: [.unsafeFlags(["-I/usr/include/libdrm"])],
            linkerSettings: [.linkedLibrary("dl")]),
        .systemLibrary(name: "CPulse", providers: [.apt(["libpulse-dev"])]),
        // Overlay text: SDL2_ttf draws it, fontconfig finds a font file by family name.
        .systemLibrary(name: "CSDL2TTF", providers: [.apt(["libsdl2-ttf-dev"])]),
        .systemLibrary(name: "CFontconfig", pkgConfig: "fontconfig", providers: [.apt(["libfontconfig-dev"])]),
        .systemLibrary(name: "CMalloc"),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // MQTT 5 client library (fleet control, issue 25); the runtime package is libmosquitto1.
        .systemLibrary(name: "CMosquitto", providers: [.apt(["libmosquitto-dev"])]),
        .systemLibrary(name: "CGpiod", providers: [.apt(["libgpiod-dev"])]),
        // GPIO lines through libgpiod: a line held as an input (its edges) or an output (its value).
        .target(name: "GPIO", dependencies: ["CGpiod"]),

        .target(name: "QueueModel"),
        // A screen's layout: zones, their places on the output, what the box can decode (pure).
        .target(name: "ScreenLayout", dependencies: ["QueueModel"]),
        // Mixing zones' sound: the music zone's output, ducked while the audio zone plays sound.
        .target(name: "AudioMix", dependencies: ["Media", "Playback", "SystemClock", "SystemSupport"]),
        // Hardware decoding decisions (issue 27): which method an item's video tries, what failed, when a
        // running hardware decode gives up — pure, beside QueueModel; Media carries them out.
        .target(name: "DecodeChoice"),
        // Overlays: layers above the video as plain values (what, where, when) and the pure layout and
        // resolution the presenter draws from.
        .target(name: "Overlays"),
        // Video walls in step: the leader's clock as a follower sees it, who leads, and how a follower's media
        // clock is brought back to the leader's (pure; the sync program carries them out).
        .target(name: "SyncGroup", dependencies: ["JSONText"]),
        // Triggers: rules (an input and the call it makes), matching and cooldowns (pure), and the runner that
        // reads serial ports and input devices and makes the calls through the daemon's own socket.
        .target(
            name: "Triggers",
            dependencies: ["GPIO", "JSONText", "SystemClock", "SystemSupport", .product(name: "Logging", package: "swift-log")]),
        // CAP 1.2 feeds as a source of alerts: the documents read (pure), the plan against what stands, the poller.
        .target(
            name: "CAPFeed",
            dependencies: [
                "QueueRPC", .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        // Alerts above everything: the standing alerts (pure), their durable file, and the controller that shows
        // them on the main engine.
        .target(
            name: "Alerts",
            dependencies: [
                "JSONText", "Overlays", "Playback", "QueueModel", "SystemClock", "SystemSupport",
                .product(name: "Logging", package: "swift-log"),
            ]),
        .target(name: "SystemClock"),
        // Locks, a condition, named threads and a few string helpers on Glibc: what the daemon's modules took
        // from Foundation proper, whose import links ICU's ~44 MB into a static binary.
        .target(name: "SystemSupport"),
        // What the engine and the server may ask of the network cache (NetCache implements it).
        .target(name: "CacheControl", dependencies: ["Media"]),
        .target(
            name: "Playback",
            dependencies: [
                "QueueModel", "Media", "CacheControl", "SystemClock", "Overlays", "SystemSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "DequeModule", package: "swift-collections"),
            ]),
        .target(
            name: "Media",
            dependencies: [
                "CFFmpeg", "CFFmpegLog", "SystemClock", "SystemSupport", "MediaPaths", "DecodeChoice",
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .target(
            name: "AudioPulse", dependencies: ["CPulse", "Playback", "SystemSupport", .product(name: "Logging", package: "swift-log")]),
        .target(
            name: "VideoSDL",
            dependencies: [
                "CSDL2", "CSDL2TTF", "CFontconfig", "CScreenPower", "QueueModel", "ScreenLayout", "Playback", "Media", "Overlays", "SystemClock", "SystemSupport",
                .product(name: "Logging", package: "swift-log"),
            ]),
        // Network items: http(s) bytes fetched with Range requests into a durable on-disk cache, read by
        // FFmpeg through a ByteSource while they arrive (below the apps, beside Media's file source).
        .target(
            name: "NetCache",
            dependencies: [
                "Media", "CacheControl", "SystemClock", "CZlib", "SystemSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        // Web items: the daemon's side of queued-webview (a process it starts), pages loaded and painted ahead
        // of their turn and read by the engine as pictures.
        .target(
            name: "WebPages",
            dependencies: [
                "Media", "MediaPaths", "Playback", "QueueModel", "JSONText", "SystemClock", "SystemSupport",
                .product(name: "Logging", package: "swift-log"),
            ]),
        // Durable state: the journal and snapshots of the queue and the player (below the apps, above the engine).
        .target(
            name: "StateStore",
            dependencies: [
                "Playback", "QueueModel", "JSONText", "SystemClock", "CZlib", "Overlays", "MediaPaths", "SystemSupport",
            ]),
        // Proof of play: one record per play, kept durably until a consumer (the fleet bridge) acknowledges it.
        .target(name: "PlayLog", dependencies: ["JSONText", "SystemSupport"]),
        // The fleet bridge's decisions (queued-mqtt): desired-state documents read and checked, which one a
        // player shows and when to apply it. Pure: no broker, no socket.
        .target(name: "Fleet", dependencies: ["JSONText"]),
        // An MQTT 5 client over libmosquitto: one owned handle, its own network thread, jittered reconnects
        // (the broker link of the future queued-mqtt bridge).
        .target(name: "MQTT", dependencies: ["CMosquitto", "SystemSupport"]),
        // systemd's notify protocol (READY, STATUS, STOPPING, WATCHDOG), a no-op without systemd.
        .target(name: "ServiceNotify"),
        // Control surface: wire types (no I/O) → server (socket, dispatch, events) / client → apps.
        // JSON values, the byte-level parser and writer: the wire format of the socket and of the state journal.
        .target(name: "JSONText", linkerSettings: [.linkedLibrary("m")]),
        .target(name: "QueueRPC", dependencies: ["JSONText", "DecodeChoice"]),
        .target(
            name: "QueueServer",
            dependencies: [
                "QueueRPC", "QueueModel", "Playback", "Media", "CacheControl", "SystemClock", "MediaPaths", "Overlays",
                "PlayLog", "DecodeChoice", "SystemSupport", "ScreenLayout", "Alerts", "Triggers",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"), .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.embedInCode("queued.openrpc.json")]),
        .target(name: "QueueClient", dependencies: ["QueueRPC", "SystemClock", "MediaPaths", "SystemSupport"]),
        // What the doors that take requests from a network (the page, the fleet bridge) let through: one policy
        // over the daemon's own typed method definitions.
        .target(name: "CallerPolicy", dependencies: ["QueueRPC", "MediaPaths", "JSONText"]),
        // Local paths as users give them: absolute paths, a directory's media files in natural order (shared
        // by queuectl, which expands against the user's cwd, and the daemon's socket and command line).
        .target(name: "MediaPaths", dependencies: ["SystemSupport"]),
        // queued.conf / queuectl.conf: option=value lines turned into command-line arguments.
        .target(name: "ConfigFile", dependencies: ["SystemSupport"]),
        // What queuectl shows and parses (status block, tables, event lines, --format, playlists, seek and
        // path arguments): kept out of the client library, which is only the client.
        .target(name: "QueuectlPresentation", dependencies: ["QueueRPC", "SystemClock", "MediaPaths"]),
        .executableTarget(
            name: "queuectl",
            dependencies: [
                "QueueClient", "QueuectlPresentation", "QueueRPC", "MediaPaths", "ConfigFile", "MQTT", "JSONText", "Fleet",
                "SystemSupport", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(
            name: "queued",
            dependencies: [
                "QueueModel", "Media", "CacheControl", "Playback", "AudioPulse", "VideoSDL", "QueueServer", "CMalloc",
                "ScreenLayout", "AudioMix",
                "SystemClock", "StateStore", "ServiceNotify", "NetCache", "MediaPaths", "QueueRPC", "ConfigFile",
                "PlayLog", "DecodeChoice", "SystemSupport", "WebPages", "Alerts", "Triggers", "QueueClient", "CAPFeed",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        // The fleet bridge: a screen's daemon (through its socket only) ↔ an MQTT broker.
        .executableTarget(
            name: "queued-mqtt",
            dependencies: [
                "Fleet", "MQTT", "QueueClient", "QueueRPC", "JSONText", "MediaPaths", "ConfigFile", "SystemSupport",
                "CallerPolicy",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // A sync group's member (video walls): other members over UDP ↔ the screen's daemon through its socket.
        .executableTarget(
            name: "queued-sync",
            dependencies: [
                "SyncGroup", "QueueClient", "QueueRPC", "JSONText", "MediaPaths", "ConfigFile", "SystemSupport", "SystemClock",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // SQLite 3 (the fleet console's store); the runtime package is libsqlite3-0.
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        // libcurl's SMTP (STARTTLS, AUTH) behind one C function: the fleet console's alerts by e-mail.
        .target(name: "CMail", cSettings: [.unsafeFlags(["-I/usr/include/x86_64-linux-gnu"])], linkerSettings: [.linkedLibrary("curl")]),
        // The fleet console's durable store: proof-of-play records (one per player and seq) and the documents
        // it pushed (the history a rollback picks from).
        .target(name: "FleetStore", dependencies: ["CSQLite", "JSONText", "SystemSupport"]),
        // The fleet console (queued-fleet): the roster of screens from the broker, pushes and their progress,
        // commands, reports, alerts, users — and the page, behind the one-screen page's door (WebControl).
        .target(
            name: "FleetConsole",
            dependencies: [
                "Fleet", "FleetStore", "MQTT", "JSONText", "QueueRPC", "SystemClock", "SystemSupport", "WebControl", "CMail",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"), .product(name: "Logging", package: "swift-log"),
            ],
            resources: [
                .embedInCode("Page/fleet.html"), .embedInCode("Page/fleet.js"), .embedInCode("Page/fleet.css"),
            ]),
        .executableTarget(
            name: "queued-fleet",
            dependencies: [
                "FleetConsole", "FleetStore", "MQTT", "ConfigFile", "WebControl",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        // The web page: a Hummingbird server that is one more client of the daemon's socket (sessions, the
        // browser's allowlist of methods, uploads into the media folder, events over a WebSocket, the preview),
        // and the page itself (plain HTML, CSS and JavaScript modules, embedded in the program).
        .target(
            name: "WebControl",
            dependencies: [
                "QueueClient", "QueueRPC", "JSONText", "MediaPaths", "CallerPolicy",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "_NIOFileSystem", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"), .product(name: "Logging", package: "swift-log"),
            ],
            resources: [
                .embedInCode("Page/index.html"), .embedInCode("Page/app.js"), .embedInCode("Page/queue.js"),
                .embedInCode("Page/link.js"), .embedInCode("Page/style.css"),
            ]),
        .executableTarget(
            name: "queued-web",
            dependencies: [
                "WebControl", "MediaPaths", "ConfigFile",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        // contrib/bench/rpc: the wire layer's requests per second (a benchmark, not a test).
        .executableTarget(name: "rpc-throughput-bench", dependencies: ["QueueRPC"], path: "contrib/bench/rpc"),

        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "QueueModelTests", dependencies: ["QueueModel", "TestSupport"]),
        .testTarget(name: "ScreenLayoutTests", dependencies: ["ScreenLayout"]),
        .testTarget(name: "AudioMixTests", dependencies: ["AudioMix", "Playback"]),
        .testTarget(name: "OverlaysTests", dependencies: ["Overlays"]),
        .testTarget(name: "AlertsTests", dependencies: ["Alerts", "JSONText", "QueueRPC", "CAPFeed"]),
        .testTarget(name: "TriggersTests", dependencies: ["Triggers", "GPIO", "JSONText"]),
        .testTarget(name: "SyncGroupTests", dependencies: ["SyncGroup"]),
        .testTarget(name: "SystemSupportTests", dependencies: ["SystemSupport"]),
        .testTarget(name: "QueueRPCTests", dependencies: ["QueueRPC", "JSONText"]),
        .testTarget(name: "NetCacheTests", dependencies: ["NetCache"]),
        .testTarget(name: "PlayLogTests", dependencies: ["PlayLog", "JSONText", "TestSupport"]),
        .testTarget(name: "FleetTests", dependencies: ["Fleet", "JSONText", "FleetConsole", "FleetStore", "TestSupport"]),
        .testTarget(name: "CallerPolicyTests", dependencies: ["CallerPolicy", "QueueRPC", "JSONText", "TestSupport"]),
        .testTarget(name: "DecodeChoiceTests", dependencies: ["DecodeChoice"]),
        .testTarget(name: "MQTTTests", dependencies: ["MQTT", "TestSupport"]),
        .testTarget(name: "WebControlTests", dependencies: ["WebControl", "CallerPolicy", "TestSupport", "JSONText"]),
        .testTarget(
            name: "StateStoreTests",
            dependencies: ["StateStore", "Playback", "QueueModel", "QueueRPC", "TestSupport", "Overlays"]),
        .testTarget(
            name: "ControlTests",
            dependencies: [
                "QueueServer", "QueueClient", "QueuectlPresentation", "QueueRPC", "Playback", "QueueModel",
                "TestSupport", "MediaPaths", "ConfigFile", "MQTT", "JSONText", "WebControl",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOEmbedded", package: "swift-nio"),
            ]),
        .testTarget(
            name: "MediaTests",
            dependencies: ["Media", "TestSupport", "DecodeChoice", .product(name: "Logging", package: "swift-log")]),
        .testTarget(
            name: "PlaybackTests",
            dependencies: [
                "Playback", "Media", "QueueModel", "AudioPulse", "VideoSDL", "TestSupport", "Overlays", "DecodeChoice", "ScreenLayout",
                "SystemSupport", "WebPages", .product(name: "Logging", package: "swift-log"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)

if buildsWebView {
    package.targets += [
        .systemLibrary(name: "CWPEWebKit", pkgConfig: "wpe-webkit-1.1", providers: [.apt(["libwpewebkit-1.1-dev"])]),
        .systemLibrary(
            name: "CWPEFdo", pkgConfig: "wpebackend-fdo-1.0",
            providers: [.apt(["libwpebackend-fdo-1.0-dev", "libwayland-dev"])]),
        .systemLibrary(name: "CGioUnix", pkgConfig: "gio-unix-2.0", providers: [.apt(["libglib2.0-dev"])]),
        // WPE WebKit off-screen: web views, their shared-memory frames, GLib's main loop (C, owns the GObjects).
        .target(
            name: "CWebView", dependencies: ["CWPEWebKit", "CWPEFdo", "CGioUnix"],
            linkerSettings: [.linkedLibrary("wayland-server")]),
        // The web page renderer queued spawns: pages loaded, watched and painted into shared memory.
        .executableTarget(name: "queued-webview", dependencies: ["CWebView", "JSONText", "SystemClock"]),
    ]
}
