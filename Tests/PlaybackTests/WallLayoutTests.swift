// Video-wall geometry as pure code: a 2x2 grid's panels each show their quarter of the picture, bezels hide
// what lies behind them (a line across two panels stays straight), a picture of another shape is fitted to
// the whole wall (its bars fall on the outer panels), a crop rectangle shows that part, and a panel mounted
// turned shows its part turned.

import Playback
import Testing

@testable import VideoSDL

@Suite struct WallLayoutTests {
    static func grid(_ columns: Int, _ rows: Int, at column: Int, _ row: Int, bezel: String? = nil, mm: String? = nil) throws -> WallPlacement {
        try WallPlacement.grid("\(columns)x\(rows)", position: "\(column),\(row)", bezel: bezel, panelMillimetres: mm).get()
    }

    @Test func eachPanelOfAGridShowsItsPart() throws {
        // A 3840x2160 picture on a 2x2 wall of 1920x1080 panels: each shows its quarter, pixel for pixel.
        for (column, row) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            let layout = try #require(
                FitLayout.compute(fit: .fit, picture: (3840, 2160), output: (1920, 1080), wall: try Self.grid(2, 2, at: column, row)))
            #expect(layout.source == .init(x: column * 1920, y: row * 1080, width: 1920, height: 1080))
            #expect(layout.destination == .init(x: 0, y: 0, width: 1920, height: 1080))
        }
        // Bezels of 40 px between the pictures: the wall is 3880 wide; the right panel's part starts where the
        // picture continues after the gap, so the two halves of a straight line meet across it.
        let right = try #require(
            FitLayout.compute(fit: .stretch, picture: (3880, 1080), output: (1920, 1080), wall: try Self.grid(2, 1, at: 1, 0, bezel: "40px")))
        #expect(right.source == .init(x: 1960, y: 0, width: 1920, height: 1080))
        // The same gap given in mm: 20 mm on a panel 960 mm wide is 40 px of 1920.
        let inMillimetres = try #require(
            FitLayout.compute(
                fit: .stretch, picture: (3880, 1080), output: (1920, 1080), wall: try Self.grid(2, 1, at: 1, 0, bezel: "20mm", mm: "960x540")))
        #expect(inMillimetres.source == right.source)
        // A 32:9 picture on a 3x1 wall (48:9) is fitted to the whole wall: pillarboxed on the outer panels,
        // the middle panel full; a 16:9 one fills the middle panel alone and the outer ones show nothing.
        let wallWide = (0..<3).map { try? FitLayout.compute(fit: .fit, picture: (2560, 720), output: (1280, 720), wall: try Self.grid(3, 1, at: $0, 0)) }
        #expect(wallWide[0]?.destination == .init(x: 640, y: 0, width: 640, height: 720), "\(String(describing: wallWide[0]))")
        #expect(wallWide[0]?.source == .init(x: 0, y: 0, width: 640, height: 720))
        #expect(wallWide[1]?.destination == .init(x: 0, y: 0, width: 1280, height: 720))
        #expect(wallWide[1]?.source == .init(x: 640, y: 0, width: 1280, height: 720))
        #expect(wallWide[2]?.destination == .init(x: 0, y: 0, width: 640, height: 720))
        let narrow = (0..<3).map { try? FitLayout.compute(fit: .fit, picture: (1920, 1080), output: (1280, 720), wall: try Self.grid(3, 1, at: $0, 0)) }
        #expect(narrow[0] == nil && narrow[2] == nil && narrow[1]?.source == .init(x: 0, y: 0, width: 1920, height: 1080))
    }

    @Test func aCropShowsThatRectangleAndATurnedPanelItsPartTurned() throws {
        let crop = try #require(WallPlacement.crop("0.5,0,0.5,0.5"))
        let topRight = try #require(FitLayout.compute(fit: .fit, picture: (1920, 1080), output: (960, 540), wall: crop))
        #expect(topRight.source == .init(x: 960, y: 0, width: 960, height: 540) && topRight.destination == .init(x: 0, y: 0, width: 960, height: 540))
        for bad in ["0.5,0,0.6,0.5", "0,0,0,1", "a,b,c,d", "0,0,1", "-0.1,0,0.5,0.5"] { #expect(WallPlacement.crop(bad) == nil, "\(bad)") }
        // A 2x1 wall of portrait panels (1080x1920 as seen, each a landscape window turned by 90°): the wall is
        // 2160x1920; a 2160x1920 picture's right half goes to panel 1, turned into its window.
        let turned = try #require(
            FitLayout.compute(
                fit: .fit, rotation: .clockwise90, picture: (2160, 1920), output: (1920, 1080), wall: try Self.grid(2, 1, at: 1, 0),
                panelTurn: .clockwise90))
        #expect(turned.source == .init(x: 1080, y: 0, width: 1080, height: 1920), "\(turned)")
        #expect(turned.destination == .init(x: 0, y: 0, width: 1920, height: 1080))
        #expect(turned.rotation == .clockwise90)
        // Bad walls say why.
        for (wall, position) in [("3", "0,0"), ("0x2", "0,0"), ("2x2", "2,0"), ("2x2", "0,-1")] {
            #expect(throws: WallError.self) { try WallPlacement.grid(wall, position: position, bezel: nil, panelMillimetres: nil).get() }
        }
        #expect(throws: WallError.self) { try WallPlacement.grid("2x1", position: "0,0", bezel: "5mm", panelMillimetres: nil).get() }
    }
}
