// This screen's place in a video wall: which part of the wall's picture its panel shows. Either a grid of
// equal panels with this one at a column and row (and the bezels between them: the picture goes on behind
// them, so a line crossing two panels stays straight), or any rectangle of the picture in fractions of it.
// Both come down to one shape: a canvas the picture is fitted to (as a single screen fits it to its window)
// and this panel's rectangle on it, as the viewer sees the wall; a panel mounted turned (`--rotate`) turns
// both into its window's pixels. Pure geometry, any thread.

import Playback

public struct WallPlacement: Sendable, Equatable {
    /// A distance between two panels' pictures.
    public enum Gap: Sendable, Equatable {
        /// In the panel's own pixels (as the viewer sees it).
        case pixels(Double)
        /// In fractions of the panel's width (horizontal gaps) or height (vertical ones): millimetres over
        /// the panel's visible size in millimetres.
        case panelFraction(Double)

        func pixels(panel: Int) -> Double {
            switch self {
            case .pixels(let value): value
            case .panelFraction(let fraction): fraction * Double(panel)
            }
        }
    }

    public enum Part: Sendable, Equatable {
        /// `columns` × `rows` equal panels, this one at (`column`, `row`) from the top left, the pictures of two
        /// neighbours `across` apart side by side and `down` apart one above the other.
        case grid(columns: Int, rows: Int, column: Int, row: Int, across: Gap, down: Gap)
        /// This rectangle of the wall's picture, in fractions of its width and height (0…1).
        case crop(x: Double, y: Double, width: Double, height: Double)
    }

    public var part: Part

    public init(_ part: Part) { self.part = part }

    /// The canvas the picture is fitted to and this panel's rectangle on it, in the viewer's pixels, for a
    /// panel whose window the viewer sees as `panel` (width, height).
    func canvas(panel: (width: Int, height: Int)) -> (canvas: (width: Int, height: Int), panel: FitLayout.Rect) {
        let (pw, ph) = (Double(panel.width), Double(panel.height))
        switch part {
        case .grid(let columns, let rows, let column, let row, let across, let down):
            let gapX = across.pixels(panel: panel.width), gapY = down.pixels(panel: panel.height)
            let width = Double(columns) * pw + Double(columns - 1) * gapX
            let height = Double(rows) * ph + Double(rows - 1) * gapY
            let x = Double(column) * (pw + gapX), y = Double(row) * (ph + gapY)
            return (
                (Int(width.rounded()), Int(height.rounded())),
                FitLayout.Rect(x: Int(x.rounded()), y: Int(y.rounded()), width: panel.width, height: panel.height)
            )
        case .crop(let x, let y, let width, let height):
            let canvasWidth = pw / width, canvasHeight = ph / height
            return (
                (Int(canvasWidth.rounded()), Int(canvasHeight.rounded())),
                FitLayout.Rect(
                    x: Int((x * canvasWidth).rounded()), y: Int((y * canvasHeight).rounded()), width: panel.width,
                    height: panel.height)
            )
        }
    }

    /// Reads `--wall-crop x,y,w,h` (fractions of the picture's frame, the picture fitted to it by `--fit`: of the
    /// picture itself when their shapes match or with `stretch`; each at least 0.001 wide and high).
    public static func crop(_ text: String) -> WallPlacement? {
        let values = text.split(separator: ",").compactMap { Double($0.filter { $0 != " " }) }
        guard values.count == 4, values.allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= 1 }), values[2] >= 0.001, values[3] >= 0.001,
            values[0] + values[2] <= 1 + 1e-9, values[1] + values[3] <= 1 + 1e-9
        else { return nil }
        return WallPlacement(.crop(x: values[0], y: values[1], width: values[2], height: values[3]))
    }

    /// Reads `--wall CxR`, `--wall-position C,R` (from 0, the top left), `--wall-bezel X[,Y]` with `px` or `mm`
    /// (the gap between two neighbours' pictures: both bezels; `mm` needs `--wall-panel-mm WxH`, the panel's
    /// visible size). Nil, with why, when they do not make a wall.
    public static func grid(
        _ wall: String, position: String?, bezel: String?, panelMillimetres: String?
    ) -> Result<WallPlacement, WallError> {
        let size = wall.lowercased().split(separator: "x").compactMap { Int($0) }
        guard size.count == 2, (1...100).contains(size[0]), (1...100).contains(size[1]) else {
            return .failure(WallError("--wall is COLUMNSxROWS, each 1 to 100 (3x2)"))
        }
        let place = (position ?? "0,0").split(separator: ",").compactMap { Int($0) }
        guard place.count == 2, (0..<size[0]).contains(place[0]), (0..<size[1]).contains(place[1]) else {
            return .failure(WallError("--wall-position is COLUMN,ROW inside the wall, from 0,0 at the top left"))
        }
        var across = Gap.pixels(0), down = Gap.pixels(0)
        if let bezel {
            let millimetres = bezel.hasSuffix("mm")
            let number = bezel.hasSuffix("mm") || bezel.hasSuffix("px") ? String(bezel.dropLast(2)) : bezel
            let values = number.split(separator: ",").compactMap { Double($0) }
            guard (1...2).contains(values.count), values.allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= 10_000 }) else {
                return .failure(WallError("--wall-bezel is X[,Y] in px or mm (12px, 6.5mm, 6.5,8mm)"))
            }
            let (x, y) = (values[0], values.count == 2 ? values[1] : values[0])
            if millimetres {
                let visible = (panelMillimetres ?? "").lowercased().split(separator: "x").compactMap { Double($0) }
                guard visible.count == 2, visible.allSatisfy({ $0 > 0 && $0.isFinite }) else {
                    return .failure(WallError("a bezel in mm needs --wall-panel-mm WIDTHxHEIGHT, the panel's visible size"))
                }
                (across, down) = (.panelFraction(x / visible[0]), .panelFraction(y / visible[1]))
            } else {
                (across, down) = (.pixels(x), .pixels(y))
            }
        }
        return .success(WallPlacement(.grid(columns: size[0], rows: size[1], column: place[0], row: place[1], across: across, down: down)))
    }
}

public struct WallError: Error, Sendable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
