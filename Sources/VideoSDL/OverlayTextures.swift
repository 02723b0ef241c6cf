// The SDL side of overlays' content: fonts opened with SDL2_ttf, and textures for text (rendered by
// SDL2_ttf) and images (decoded by Media, alpha kept). Each class owns its C handle and frees it in deinit.
// Presenter thread only; textures must go before their renderer does (OverlayPainter.releaseTextures).

import CSDL2
import CSDL2TTF
import Media
import Overlays

/// An SDL texture and its size.
final class LayerTexture {
    let texture: OpaquePointer
    let width: Int
    let height: Int

    init(texture: OpaquePointer, width: Int, height: Int) {
        self.texture = texture
        self.width = width
        self.height = height
    }

    deinit { SDL_DestroyTexture(texture) }

    /// Text drawn by SDL2_ttf in `color` (anti-aliased, with alpha); nil for empty text or on failure.
    static func text(_ text: String, font: TTFFont, color: OverlayColor, renderer: OpaquePointer) -> LayerTexture? {
        guard !text.isEmpty else { return nil }
        let sdlColor = SDL_Color(r: color.red, g: color.green, b: color.blue, a: color.alpha)
        guard let surface = TTF_RenderUTF8_Blended(font.font, text, sdlColor) else { return nil }
        defer { SDL_FreeSurface(surface) }
        return fromSurface(surface, renderer: renderer)
    }

    /// The first picture of an image file as RGBA (alpha kept).
    static func image(path: String, renderer: OpaquePointer) throws -> LayerTexture {
        var options = MediaReaderOptions()
        options.rgbaPictures = true
        let reader = try MediaReader(path: path, options: options)
        guard let frame = try reader.readVideo(), frame.layout == .rgba else {
            throw MediaError(operation: "decode", path: path, message: "no picture in it")
        }
        // A photo's EXIF turn is baked into the texture once (an overlay is small and decoded once), so the
        // painter draws every layer the same way.
        let turned = frame.orientation == .upright ? nil : Self.turnedPixels(frame)
        let (width, height) = turned.map { ($0.width, $0.height) } ?? (frame.width, frame.height)
        guard
            let texture = SDL_CreateTexture(
                renderer, SDL_PIXELFORMAT_ABGR8888.rawValue, Int32(SDL_TEXTUREACCESS_STATIC.rawValue),
                Int32(width), Int32(height))
        else { throw MediaError(operation: "upload", path: path, message: sdlErrorText()) }
        let owned = LayerTexture(texture: texture, width: width, height: height)
        let rc: Int32
        if let turned {
            rc = turned.bytes.withUnsafeBufferPointer {
                SDL_UpdateTexture(texture, nil, $0.baseAddress, Int32(turned.width * 4))
            }
        } else {
            rc = frame.withPlanes { planes in
                SDL_UpdateTexture(texture, nil, planes[0].base, Int32(planes[0].bytesPerRow))
            }
        }
        guard rc == 0 else { throw MediaError(operation: "upload", path: path, message: sdlErrorText()) }
        SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_BLEND)
        return owned
    }

    /// An RGBA picture's pixels as its orientation says to see them: mirrored left–right first, then turned
    /// clockwise a quarter at a time (each turn sends (x, y) of a w×h picture to (h − 1 − y, x)).
    static func turnedPixels(_ frame: VideoFrame) -> (bytes: [UInt8], width: Int, height: Int) {
        let (width, height) = (frame.width, frame.height)
        let turns = frame.orientation.quarterTurns
        let (outWidth, outHeight) = turns % 2 == 1 ? (height, width) : (width, height)
        var bytes = [UInt8](repeating: 0, count: outWidth * outHeight * 4)
        frame.withPlanes { planes in
            let plane = planes[0]
            for y in 0..<height {
                for x in 0..<width {
                    var (tx, ty, w, h) = (frame.orientation.mirrored ? width - 1 - x : x, y, width, height)
                    for _ in 0..<turns { (tx, ty, w, h) = (h - 1 - ty, tx, h, w) }
                    let from = y * plane.bytesPerRow + x * 4
                    let to = (ty * outWidth + tx) * 4
                    for byte in 0..<4 { bytes[to + byte] = plane.base[from + byte] }
                }
            }
        }
        return (bytes, outWidth, outHeight)
    }

    private static func fromSurface(_ surface: UnsafeMutablePointer<SDL_Surface>, renderer: OpaquePointer) -> LayerTexture? {
        guard let texture = SDL_CreateTextureFromSurface(renderer, surface) else { return nil }
        SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_BLEND)
        return LayerTexture(texture: texture, width: Int(surface.pointee.w), height: Int(surface.pointee.h))
    }
}

/// An open font at one pixel size.
final class TTFFont {
    let font: OpaquePointer

    init?(path: String, size: Int) {
        guard let font = TTF_OpenFont(path, Int32(clamping: size)) else { return nil }
        self.font = font
    }

    deinit { TTF_CloseFont(font) }
}
