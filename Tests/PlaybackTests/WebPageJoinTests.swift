// A web item between two clips, through the engine with the real renderer (queued-webview, WPE WebKit) and
// SDL's offscreen output read back after every present: joined by a cut and by crossfades, the screen goes
// red → the page's blue → green and never shows black between the first picture and the last. The page
// is loaded and painted before its turn, so its first picture is there at the join.

import Foundation
import Logging
import Media
import QueueModel
import TestSupport
import Testing
import WebPages

@testable import Playback

@Suite(.serialized) struct WebPageJoinTests {
    static func page() throws -> String {
        let folder = try TemporaryDirectory(prefix: "queued-web-join")
        let path = folder.file("blue.html")
        try """
        <html><head><title>Blue</title><style>html,body{margin:0;height:100%;background:#0000ff}</style></head>
        <body></body></html>
        """.write(toFile: path, atomically: true, encoding: .utf8)
        // Kept for the test process's life: the renderer loads it while the engine plays.
        Self.folders.append(folder)
        return path
    }
    nonisolated(unsafe) static var folders: [TemporaryDirectory] = []

    @Test(arguments: ["cut", "crossfade"]) func aPageBetweenTwoClipsShowsNoBlackAtItsJoins(join: String) throws {
        let red = try Fixtures.video(seconds: 2, fps: 25, hue: .red)
        let green = try Fixtures.video(seconds: 2, fps: 25, hue: .green)
        let page = try Self.page()
        let transition = join == "cut" ? nil : ItemTransition(kind: .crossfade, duration: 0.5)
        let log = PictureLog()
        let renderer = WebRenderer(
            settings: WebRenderer.Settings(program: BuiltProduct.path("queued-webview")), logger: Logger(label: "test.web"))
        defer { renderer.stop() }
        try SDLTestLock.run {
            let video = offscreenVideo { log.append($0) }
            let (engine, recorder) = try makeEngine(
                audio: NullAudioSink(mode: .realtime(buffer: 0.2)), video: video, untimed: false
            ) { config in config.webPages = renderer }
            defer { engine.shutdown() }
            try engine.add([
                MediaItem(uri: red), MediaItem(uri: page, duration: 2, transition: transition, web: WebItem()),
                MediaItem(uri: green, transition: transition),
            ])
            try engine.play()
            #expect(recorder.waitUntilDone(timeout: 60))
            let failures = recorder.all.compactMap { event -> String? in
                if case .itemEnded(_, _, .error, let error, _) = event { return error ?? "error" }
                return nil
            }
            #expect(failures.isEmpty, "\(failures)")
        }
        // The middle of each picture presented, from the first lit one to the last.
        let all = log.all.map { $0.rgb(x: $0.width / 2, y: $0.height / 2) }
        let lit = all.indices.filter { Int(all[$0].r) + Int(all[$0].g) + Int(all[$0].b) > 60 }
        let shown = Array(all[(lit.first ?? 0)...(lit.last ?? 0)])
        let black = shown.filter { Int($0.r) + Int($0.g) + Int($0.b) <= 60 }
        #expect(black.isEmpty, "\(black.count) black pictures among \(shown.count)")
        // Which colour leads each picture, in order, with repeats folded: red, blue, green (a crossfade's
        // blends lead with one of its two sides).
        func lead(_ pixel: (r: UInt8, g: UInt8, b: UInt8)) -> Character {
            let (r, g, b) = (Int(pixel.r), Int(pixel.g), Int(pixel.b))
            return r >= g && r >= b ? "r" : b >= g ? "b" : "g"
        }
        let sequence = shown.map(lead).reduce(into: "") { text, colour in if text.last != colour { text.append(colour) } }
        #expect(sequence == "rbg", "colours in order: \(sequence)")
        let pagePictures = shown.filter { $0.b > 200 && $0.r < 40 && $0.g < 40 }
        #expect(pagePictures.count >= 3, "the page's own blue seen \(pagePictures.count) times")
    }
}
