// Draws resolved overlay layers (OverlayScene) into the renderer's back buffer, above the picture, on the
// presenter thread. Textures are made only when a layer's content changes (a new text, a clock's next
// second, another image path) and kept per layer id; layers that are gone drop theirs at the next draw.
// Layout happens on the viewer's canvas and is turned with the picture (CanvasTurn), so a portrait panel
// gets upright text at the viewer's top-left.

import CSDL2
import CSDL2TTF
import Glibc
import Logging
import Overlays
import Playback

final class OverlayPainter {
    private let logger: Logger
    private let fonts = FontFinder()
    /// TTF_Init succeeded (the library is reference-counted: one TTF_Quit in deinit).
    private let ttfReady: Bool
    private var openFonts: [FontKey: TTFFont] = [:]
    /// Families already warned about (a missing font logs once, not once per text).
    private var warnedFamilies: Set<String> = []

    private struct FontKey: Hashable {
        var family: String
        var size: Int
    }

    private struct TextKey: Equatable {
        var text: String
        var font: String
        var size: Int
        var color: OverlayColor
    }

    // Per layer id: what its texture shows, and the texture (nil: empty text or a failure, not retried
    // until the content changes).
    private var texts: [Int: (key: TextKey, texture: LayerTexture?)] = [:]
    /// Images by file version, kept while their layers come and go (an item's logo in a loop is decoded
    /// once, not at every pass); at most `imageCacheLimit`, the ones no layer shows dropped first.
    private var images: [ImageKey: LayerTexture?] = [:]
    private static let imageCacheLimit = 16

    /// An image file as it is on disk now: a replaced file (new mtime or size) is decoded again.
    private struct ImageKey: Hashable {
        var path: String
        var modified: Int
        var modifiedNanos: Int
        var size: Int

        init(path: String) {
            var info = stat()
            let found = stat(path, &info) == 0
            self.path = path
            modified = found ? info.st_mtim.tv_sec : -1
            modifiedNanos = found ? info.st_mtim.tv_nsec : -1
            size = found ? Int(info.st_size) : -1
        }
    }
    /// When each ticker started (monotonic seconds), restarted when its text or speed changes.
    private var tickers: [Int: (text: String, speed: Double, start: Double)] = [:]

    init(logger: Logger) {
        self.logger = logger
        ttfReady = TTF_Init() == 0
        if !ttfReady { logger.error("SDL2_ttf cannot start: text overlays are not drawn", metadata: ["error": "\(sdlErrorText())"]) }
    }

    deinit {
        releaseTextures()
        openFonts.removeAll()
        if ttfReady { TTF_Quit() }
    }

    /// Drops every texture (before the renderer goes, or after a device reset lost them).
    func releaseTextures() {
        texts.removeAll()
        images.removeAll()
    }

    /// Draws `layers` bottom first onto an output of `output` pixels turned by `rotation`; `now` is the
    /// monotonic time tickers move by.
    /// `alive`: every layer drawn this turn (nil: `layers`), when they are drawn in parts (each zone's, then
    /// the screen's): a layer drawn in another part keeps its textures.
    func draw(
        _ layers: [OverlayLayer], renderer: OpaquePointer, output: (width: Int, height: Int), rotation: VideoRotation,
        now: Double, alive: [OverlayLayer]? = nil
    ) {
        let everything = alive ?? layers
        // Layers that are gone (removed, hidden, out of scope) drop their textures.
        let live = Set(everything.map(\.id))
        if texts.keys.contains(where: { !live.contains($0) }) { texts = texts.filter { live.contains($0.key) } }
        if images.count > Self.imageCacheLimit {
            let shown = Set(everything.compactMap { layer -> String? in
                if case .image(let path) = layer.kind { return path }
                return nil
            })
            images = images.filter { shown.contains($0.key.path) }
        }
        if tickers.keys.contains(where: { !live.contains($0) }) { tickers = tickers.filter { live.contains($0.key) } }
        guard !layers.isEmpty else { return }
        let turn = CanvasTurn(degrees: rotation.rawValue, output: (Double(output.width), Double(output.height)))
        SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND)
        defer { SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_NONE) }
        for layer in layers {
            switch layer.kind {
            case .text(let text):
                guard let texture = textTexture(layer.id, text, layer.style, renderer) else { continue }
                drawBox(texture, layer, turn: turn, renderer: renderer)
            case .image(let path):
                guard let texture = imageTexture(layer.id, path, renderer) else { continue }
                drawBox(texture, layer, turn: turn, renderer: renderer)
            case .ticker(let text, let speed):
                drawTicker(layer, text: text, speed: speed, turn: turn, renderer: renderer, now: now)
            }
        }
    }

    // MARK: - Layout

    private func drawBox(_ texture: LayerTexture, _ layer: OverlayLayer, turn: CanvasTurn, renderer: OpaquePointer) {
        let padding = Double(max(layer.style.padding, 0))
        let box = OverlayPlacement.box(
            size: (Double(texture.width) + 2 * padding, Double(texture.height) + 2 * padding), anchor: layer.anchor,
            x: layer.x, y: layer.y, canvas: turn.canvas)
        fill(box, layer, turn: turn, renderer: renderer)
        let content = OverlayRect(
            x: box.x + padding, y: box.y + padding, width: Double(texture.width), height: Double(texture.height))
        blit(texture, content, opacity: layer.opacity, turn: turn, renderer: renderer)
    }

    private func drawTicker(
        _ layer: OverlayLayer, text: String, speed: Double, turn: CanvasTurn, renderer: OpaquePointer, now: Double
    ) {
        // A new ticker, or a new text or speed, starts again from the right edge.
        if tickers[layer.id].map({ $0.text != text || $0.speed != speed }) ?? true {
            tickers[layer.id] = (text, speed, now)
        }
        let start = tickers[layer.id]?.start ?? now
        let padding = Double(max(layer.style.padding, 0))
        let texture = textTexture(layer.id, text, layer.style, renderer)
        let textHeight = Double(texture?.height ?? layer.style.size)
        let band = OverlayPlacement.band(
            height: textHeight + 2 * padding, anchor: layer.anchor, y: layer.y, canvas: turn.canvas)
        fill(band, layer, turn: turn, renderer: renderer)
        guard let texture else { return }
        let clip = turn.outputRect(band)
        var clipRect = SDL_Rect(
            x: Int32(clip.x.rounded()), y: Int32(clip.y.rounded()), w: Int32(clip.width.rounded()),
            h: Int32(clip.height.rounded()))
        SDL_RenderSetClipRect(renderer, &clipRect)
        defer { SDL_RenderSetClipRect(renderer, nil) }
        let motion = TickerMotion(
            speed: speed, textWidth: Double(texture.width), bandWidth: band.width, gap: Double(layer.style.size))
        for edge in motion.copies(elapsed: now - start) {
            let rect = OverlayRect(
                x: band.x + edge, y: band.y + padding, width: Double(texture.width), height: Double(texture.height))
            blit(texture, rect, opacity: layer.opacity, turn: turn, renderer: renderer)
        }
    }

    /// The layer's background box, if it has one.
    private func fill(_ box: OverlayRect, _ layer: OverlayLayer, turn: CanvasTurn, renderer: OpaquePointer) {
        guard let background = layer.style.background else { return }
        let alpha = UInt8((Double(background.alpha) * layer.opacity).rounded())
        guard alpha > 0 else { return }
        let area = turn.outputRect(box)
        var rect = SDL_FRect(x: Float(area.x), y: Float(area.y), w: Float(area.width), h: Float(area.height))
        SDL_SetRenderDrawColor(renderer, background.red, background.green, background.blue, alpha)
        SDL_RenderFillRectF(renderer, &rect)
    }

    /// Copies an upright texture so that it covers canvas rectangle `rect`, turned with the picture.
    private func blit(
        _ texture: LayerTexture, _ rect: OverlayRect, opacity: Double, turn: CanvasTurn, renderer: OpaquePointer
    ) {
        SDL_SetTextureAlphaMod(texture.texture, UInt8((opacity * 255).rounded()))
        let placed = turn.unturnedRect(rect)
        var destination = SDL_FRect(
            x: Float(placed.x), y: Float(placed.y), w: Float(placed.width), h: Float(placed.height))
        if turn.degrees == 0 {
            SDL_RenderCopyF(renderer, texture.texture, nil, &destination)
        } else {
            SDL_RenderCopyExF(renderer, texture.texture, nil, &destination, Double(turn.degrees), nil, SDL_FLIP_NONE)
        }
    }

    // MARK: - Content

    private func textTexture(_ id: Int, _ text: String, _ style: OverlayStyle, _ renderer: OpaquePointer) -> LayerTexture? {
        let key = TextKey(text: text, font: style.font, size: style.size, color: style.color)
        if let cached = texts[id], cached.key == key { return cached.texture }
        var texture: LayerTexture?
        if let font = font(style.font, size: style.size) {
            texture = LayerTexture.text(text, font: font, color: style.color, renderer: renderer)
            if texture == nil && !text.isEmpty {
                logger.warning("overlay text cannot be drawn", metadata: ["overlay": "\(id)", "error": "\(sdlErrorText())"])
            }
        }
        texts[id] = (key, texture)
        return texture
    }

    private func imageTexture(_ id: Int, _ path: String, _ renderer: OpaquePointer) -> LayerTexture? {
        let key = ImageKey(path: path)
        if let cached = images[key] { return cached }
        var texture: LayerTexture?
        do {
            texture = try LayerTexture.image(path: path, renderer: renderer)
        } catch {
            logger.warning("overlay image cannot be shown", metadata: ["overlay": "\(id)", "error": "\(error)"])
        }
        images[key] = texture
        return texture
    }

    private func font(_ family: String, size: Int) -> TTFFont? {
        guard ttfReady else { return nil }
        let key = FontKey(family: family, size: max(size, 1))
        if let font = openFonts[key] { return font }
        let found = fonts.find(family)
        if !found.exact && warnedFamilies.insert(family).inserted {
            logger.warning(
                "overlay font not found: using \(found.match.family)", metadata: ["font": "\(family)"])
        }
        guard let font = TTFFont(path: found.match.path, size: key.size) ?? TTFFont(path: FontFinder.fallbackPath, size: key.size)
        else {
            logger.error("no font can be opened for overlays", metadata: ["font": "\(found.match.path)", "error": "\(sdlErrorText())"])
            return nil
        }
        openFonts[key] = font
        return font
    }
}
