// Layouts as values (issue 39): checked whole with a reason naming the zones at fault, placed on outputs of
// any size in whole pixels with shares meeting edge to edge, and the video zones held to what the box can
// decode — an L-bar fits, a 2×2 split of videos fits, a fifth video zone does not.

import ScreenLayout
import Testing

private func share(_ percent: Double) -> ZoneLength { .share(percent / 100) }

/// The L-bar: a main video, a column of stills on the right, a ticker along the bottom.
private let lBar = Layout(zones: [
    Zone(name: "main", rect: ZoneRect(x: share(0), y: share(0), width: share(75), height: share(90)), audio: true),
    Zone(name: "side", rect: ZoneRect(x: share(75), y: share(0), width: share(25), height: share(90)), content: .stills),
    Zone(name: "ticker", rect: ZoneRect(x: share(0), y: share(90), width: share(100), height: share(10)), content: .text),
    Zone(name: "music", rect: nil),
])

private func quarters(_ count: Int) -> Layout {
    let corners = [(0.0, 0.0), (50.0, 0.0), (0.0, 50.0), (50.0, 50.0)]
    return Layout(
        zones: (0..<count).map { index in
            let (x, y) = corners[index % 4]
            return Zone(
                name: index == 0 ? "main" : "v\(index)",
                rect: ZoneRect(x: share(x), y: share(y), width: share(50), height: share(50)))
        })
}

struct LayoutTests {
    @Test func theLBarIsValidAndItsZonesMeetEdgeToEdgeOnAnyScreen() throws {
        let layout = try lBar.validated()
        #expect(layout.audioZone == "main" && layout.musicZone?.name == "music")
        for (width, height) in [(1920, 1080), (1366, 768), (1080, 1920), (333, 201)] {
            let placed = layout.placed(width: width, height: height)
            #expect(placed.map(\.zone.name) == ["main", "side", "ticker"], "the music zone is not drawn")
            let main = placed[0].rect, side = placed[1].rect, ticker = placed[2].rect
            #expect(main.x + main.width == side.x, "no gap or overlap between main and side at \(width)x\(height)")
            #expect(side.x + side.width == width && ticker.y + ticker.height == height)
            #expect(main.y + main.height == ticker.y)
            #expect(main.pixels + side.pixels + ticker.pixels == width * height, "the zones tile the screen")
        }
    }

    @Test func pixelsAndSharesMixAndAZoneOutsideTheOutputIsClippedNotRefused() throws {
        let layout = try Layout(zones: [
            Zone(name: "main"),
            Zone(name: "qr", rect: ZoneRect(x: .pixels(1700), y: .pixels(860), width: .pixels(200), height: .pixels(200)), z: 5),
            Zone(name: "far", rect: ZoneRect(x: .pixels(3000), y: .pixels(0), width: .pixels(100), height: .pixels(100))),
        ]).validated()
        let placed = layout.placed(width: 1280, height: 720)
        #expect(placed.map(\.zone.name) == ["main", "far", "qr"], "drawn bottom first: z, then the layout's order")
        #expect(placed[2].rect == PlacedRect(x: 1280, y: 720, width: 0, height: 0))
        #expect(placed[1].rect.pixels == 0, "off the output: nothing drawn, still a zone")
        #expect(layout.placed(width: 1920, height: 1080)[2].rect == PlacedRect(x: 1700, y: 860, width: 200, height: 200))
    }

    @Test func aLayoutIsRefusedWholeWithTheZonesAtFault() {
        func refusal(_ zones: [Zone]) -> LayoutError? {
            do {
                _ = try Layout(zones: zones).validated()
                return nil
            } catch { return error }
        }
        let main = Zone(name: "main")
        #expect(refusal([])?.message.contains("main") == true)
        #expect(refusal([Zone(name: "side")])?.message.contains("\"main\"") == true)
        #expect(refusal([main, Zone(name: "main")])?.zones == ["main"])
        #expect(refusal([main, Zone(name: "a b")])?.zones == ["a b"])
        #expect(refusal([main, Zone(name: String(repeating: "x", count: 33))]) != nil)
        #expect(refusal([main, Zone(name: "m1", rect: nil), Zone(name: "m2", rect: nil)])?.zones == ["m1", "m2"])
        #expect(refusal([Zone(name: "main", audio: true), Zone(name: "b", audio: true)])?.zones == ["main", "b"])
        #expect(refusal([Zone(name: "main", rect: nil)])?.zones == ["main"])
        #expect(refusal([main, Zone(name: "m", rect: nil, audio: true)])?.zones == ["m"])
        let wide = ZoneRect(x: share(60), y: share(0), width: share(50), height: share(10))
        #expect(refusal([main, Zone(name: "wide", rect: wide)])?.message.contains("right edge (110.0%)") == true)
        let empty = ZoneRect(x: .pixels(0), y: .pixels(0), width: .pixels(0), height: .pixels(10))
        #expect(refusal([main, Zone(name: "empty", rect: empty)])?.zones == ["empty"])
        let sliver = ZoneRect(x: .pixels(0), y: .pixels(0), width: .pixels(10), height: .pixels(0.3))
        #expect(refusal([main, Zone(name: "sliver", rect: sliver)])?.message.contains("at least 1 pixel") == true)
        let negative = ZoneRect(x: .pixels(-5), y: .pixels(0), width: .pixels(10), height: .pixels(10))
        #expect(refusal([main, Zone(name: "neg", rect: negative)])?.zones == ["neg"])
        let notANumber = ZoneRect(x: .share(.nan), y: .pixels(0), width: .pixels(10), height: .pixels(10))
        #expect(refusal([main, Zone(name: "nan", rect: notANumber)])?.zones == ["nan"])
        #expect(refusal([main, Zone(name: "r", rotate: 45)])?.zones == ["r"])
        #expect(refusal([main, Zone(name: "m", rect: nil, duck: 6)])?.zones == ["m"])
        #expect(refusal([main, Zone(name: "c", background: 0x1_000000)])?.zones == ["c"])
        #expect(refusal((0..<17).map { Zone(name: $0 == 0 ? "main" : "z\($0)") })?.message.contains("at most 16") == true)
        #expect(refusal([main]) == nil && Layout.fullScreen.audioZone == "main")
    }

    @Test func aShareIsWrittenWithAPercentSign() {
        #expect(ZoneLength(text: "75%") == .share(0.75))
        #expect(ZoneLength(text: "12.5%") == .share(0.125))
        #expect(ZoneLength(text: "75") == nil && ZoneLength(text: "%") == nil && ZoneLength(text: "nan%") == nil)
    }

    @Test func fourQuarterVideosFitTheBudgetAndAFifthVideoZoneIsRefusedByName() throws {
        let budget = DecodeBudget.software(width: 1920, height: 1080)
        try budget.check(quarters(4).validated(), width: 1920, height: 1080)
        try budget.check(lBar.validated(), width: 1920, height: 1080)
        var five = quarters(4)
        five.zones.append(Zone(name: "pip", rect: ZoneRect(x: share(70), y: share(70), width: share(25), height: share(25)), z: 1))
        #expect(throws: LayoutError.self) { try budget.check(five.validated(), width: 1920, height: 1080) }
        do {
            try budget.check(five, width: 1920, height: 1080)
        } catch {
            #expect(error.zones == ["main", "v1", "v2", "v3", "pip"])
            #expect(error.message.contains("would decode 132.2 Mpx/s") && error.message.contains("budget is 124.4 Mpx/s"), "\(error.message)")
        }
        // A video zone off the screen still decodes: it is counted at its full size.
        var hidden = quarters(4)
        hidden.zones.append(
            Zone(name: "away", rect: ZoneRect(x: .pixels(5000), y: .pixels(0), width: .pixels(640), height: .pixels(360))))
        #expect(throws: LayoutError.self) { try budget.check(hidden.validated(), width: 1920, height: 1080) }
        // The same fifth zone showing stills costs nothing.
        five.zones[4].content = .stills
        try budget.check(five.validated(), width: 1920, height: 1080)
        // A box given a bigger budget takes the five videos.
        five.zones[4].content = .video
        try DecodeBudget(pixelsPerSecond: 200e6).check(five, width: 1920, height: 1080)
    }
}
