// The pure overlay model: placement at every anchor, percent offsets, the turned canvas, the ticker's
// copies, placeholders and clock text, the set's ids and order.

import Glibc
import Testing

@testable import Overlays

@Suite struct OverlayLayoutTests {
    let canvas = (width: 1000.0, height: 500.0)

    @Test func everyAnchorPinsTheBoxToItsPointAndOffsetsMoveItInward() {
        let size = (width: 100.0, height: 50.0)
        let expected: [OverlayAnchor: (Double, Double)] = [
            .topLeft: (10, 20), .top: (460, 20), .topRight: (890, 20),
            .left: (10, 245), .center: (460, 245), .right: (890, 245),
            .bottomLeft: (10, 430), .bottom: (460, 430), .bottomRight: (890, 430),
        ]
        for anchor in OverlayAnchor.allCases {
            let box = OverlayPlacement.box(size: size, anchor: anchor, x: .pixels(10), y: .pixels(20), canvas: canvas)
            let want = expected[anchor]!
            #expect(box.x == want.0 && box.y == want.1, "\(anchor): \(box)")
        }
    }

    @Test func percentOffsetsAreOfTheScreensWidthAndHeight() {
        let box = OverlayPlacement.box(
            size: (100, 50), anchor: .bottomRight, x: .percent(5), y: .percent(10), canvas: canvas)
        #expect(box == OverlayRect(x: 1000 - 100 - 50, y: 500 - 50 - 50, width: 100, height: 50))
    }

    @Test func aTurnedCanvasSwapsSidesAndMapsCornersWhereTheViewerSeesThem() {
        // A 1000x500 output turned by 90 degrees is a 500x1000 portrait canvas; its top-left corner is the
        // output's top-right.
        let turn = CanvasTurn(degrees: 90, output: (1000, 500))
        #expect(turn.canvas == (500, 1000))
        let box = OverlayRect(x: 0, y: 0, width: 100, height: 50)
        #expect(turn.outputRect(box) == OverlayRect(x: 950, y: 0, width: 50, height: 100))
        let unturned = turn.unturnedRect(box)
        #expect(unturned.centerX == 975 && unturned.centerY == 50 && unturned.width == 100)
        let half = CanvasTurn(degrees: 180, output: (1000, 500))
        #expect(half.outputRect(box) == OverlayRect(x: 900, y: 450, width: 100, height: 50))
        let quarter = CanvasTurn(degrees: 270, output: (1000, 500))
        #expect(quarter.outputRect(box) == OverlayRect(x: 0, y: 400, width: 50, height: 100))
        #expect(CanvasTurn(degrees: 0, output: (1000, 500)).outputRect(box) == box)
    }

    @Test func aTickerEntersAtTheRightAndMovesLeftAtItsSpeedLoopingWithoutAGap() {
        let short = TickerMotion(speed: 100, textWidth: 200, bandWidth: 1000, gap: 30)
        #expect(short.period == 1000)
        #expect(short.copies(elapsed: 0) == [])  // just at the right edge
        #expect(short.copies(elapsed: 1) == [900])
        #expect(short.copies(elapsed: 2.5) == [750])
        // As one copy leaves at the left the next enters at the right.
        #expect(short.copies(elapsed: 10.5) == [-50, 950])
        let long = TickerMotion(speed: 100, textWidth: 1500, bandWidth: 1000, gap: 30)
        #expect(long.period == 1530)

        let edges = long.copies(elapsed: 20)  // travelled 2000 = 1530 + 470: the second copy at 1000 - 470
        #expect(edges == [530 - 1530, 530])
    }

    @Test func placeholdersAndClockText() {
        let item = PlayingItem(id: 7, title: "Lobby loop", position: 65.9, duration: 3725)
        #expect(OverlayScene.fill("{title} #{id} {position}/{duration} {other}", from: item)
            == "Lobby loop #7 1:05/1:02:05 {other}")
        #expect(OverlayScene.fill("now: {title}", from: nil) == "now: ")
        setenv("TZ", "UTC", 1)
        tzset()
        #expect(OverlayScene.localTime("%Y-%m-%d %H:%M:%S", unixTime: 86_400 * 365 + 3661.7) == "1971-01-01 01:01:01")
    }

    @Test func layersShowWhenVisibleAndInScopeInZOrder() {
        var set = OverlaySet()
        let logo = set.add(Overlay(content: .image(path: "/logo.png"), z: 5))
        let title = set.add(Overlay(content: .text("{title}"), scope: .item(3)))
        let hidden = set.add(Overlay(content: .text("x"), visible: false))
        #expect([logo, title, hidden] == [1, 2, 3])
        let playing3 = OverlayScene.layers(
            of: set, playing: PlayingItem(id: 3, title: "Three", position: 0, duration: nil), unixTime: 0)
        #expect(playing3.map(\.id) == [title, logo])
        #expect(playing3.first?.kind == .text("Three"))
        #expect(OverlayScene.layers(of: set, playing: nil, unixTime: 0).map(\.id) == [logo])
        #expect(set.removeScoped(to: [3]) == [title])
        #expect(set.remove([logo, 99]) == [logo])
        #expect(set.add(Overlay(content: .text("y"))) == 4)  // ids are never reused
    }

    @Test func coloursReadAndWriteHex() {
        #expect(OverlayColor(hex: "#ff8000") == OverlayColor(red: 255, green: 128, blue: 0))
        #expect(OverlayColor(hex: "00000080") == OverlayColor(red: 0, green: 0, blue: 0, alpha: 128))
        #expect(OverlayColor(hex: "#ff80") == nil)
        #expect(OverlayColor(red: 1, green: 2, blue: 3, alpha: 4).hex == "#01020304")
    }
}
