// Drawing and presenting, on the presenter thread only. A frame's planes go to a streaming texture as they
// are (IYUV, NV12 or ABGR8888): SDL converts and scales; we never touch pixels here except to read back
// for a probe or a screenshot. Pixel pointers never leave `VideoFrame.withPlanes`. With SDL's software
// renderer, a picture drawn smaller than it is goes instead to a texture of the size it is drawn at, scaled
// by Media's PictureScaler (that renderer would keep a whole RGB copy at the picture's size, and stretch it).

import CSDL2
import Glibc
import Media
import Overlays
import Playback
import QueueModel
import ScreenLayout
import SystemClock

/// Size and layout a streaming texture was created for.
struct TextureShape: Equatable {
    var width: Int
    var height: Int
    var layout: PixelLayout
    /// Holds a picture scaled to where it is drawn, as B,G,R,A (PictureScaler's output).
    var prescaled = false

    var sdlFormat: UInt32 {
        if prescaled { return SDL_PIXELFORMAT_ARGB8888.rawValue }  // bytes B,G,R,A on little-endian
        switch layout {
        case .yuv420p: return SDL_PIXELFORMAT_IYUV.rawValue
        case .nv12: return SDL_PIXELFORMAT_NV12.rawValue
        case .rgba: return SDL_PIXELFORMAT_ABGR8888.rawValue  // bytes R,G,B,A on little-endian
        case .bgra: return SDL_PIXELFORMAT_ARGB8888.rawValue  // bytes B,G,R,A on little-endian
        }
    }
}

extension SDLVideoSink {
    public func show(_ frame: VideoFrame) {
        assertOnSinkThread()
        guard renderer != nil else { return }
        // Uploaded now, so that a picture that cannot be keeps the last one on screen. With the software
        // renderer every picture waits for the draw, which decides whether it is scaled first and to what size.
        let samePixels = main.lastFrame?.sharesPixels(with: frame) == true && !main.textureIsStale
        if !samePixels {
            main.shownPictures += 1
            if prescaler == nil {
                guard upload(frame, into: main) else { return }
            }
        }
        main.lastFrame = frame
        lastShowAt = Monotonic.now()
        needsRedraw = false
        drawAndPresent()
    }

    public func showBlack() {
        assertOnSinkThread()
        guard renderer != nil else { return }
        main.lastFrame = nil
        needsRedraw = false
        drawAndPresent()
    }

    // MARK: - Internals

    /// Clears, draws `lastFrame` (if any) with the current fit, reads back when someone wants the pixels,
    /// presents, then hands the read-back to the probe and to waiting screenshot requests.
    func drawAndPresent() {
        guard let renderer, !screenAsleep else { return }
        let output = draw()
        let wantsScreenshot = showsSomething && mailbox.hasPending
        var readback: Readback?
        if let output, config.probe != nil || wantsScreenshot {
            readback = readPixels(width: output.width, height: output.height)
        }
        SDL_RenderPresent(renderer)
        let presentedAt = Monotonic.nanoseconds()
        if wantsScreenshot, let readback { mailbox.answer(readback) }
        if let probe = config.probe, let readback {
            probe(
                PresentedPicture(
                    presentedAtNanos: presentedAt, width: readback.width, height: readback.height, rgba: readback.rgba))
        }
    }

    /// Whether anything but black is on screen: a picture, or overlays over black.
    var showsSomething: Bool {
        main.lastFrame != nil || !drawnLayers.isEmpty || zonePictures.values.contains { $0.lastFrame != nil }
    }

    /// Renders the current picture and the overlays above it into the back buffer without presenting;
    /// returns the output size.
    @discardableResult
    func draw() -> (width: Int, height: Int)? {
        guard let renderer else { return nil }
        clearToBlack()
        var width: Int32 = 0
        var height: Int32 = 0
        guard SDL_GetRendererOutputSize(renderer, &width, &height) == 0 else {
            logFailure("SDL_GetRendererOutputSize")
            return nil
        }
        let output = (width: Int(width), height: Int(height))
        noteOutputSize(output)
        wholeOutput = output
        takeZoneUpdates()
        drawnLayers = currentOverlayLayers()
        lastDrawAt = Monotonic.now()
        let zoned = drawnLayers.contains { $0.zone != nil }
        if zonePictures.isEmpty && layout == .fullScreen && !zoned {
            drawZone(main, renderer, output: output)  // the whole screen, as before there were zones
        } else {
            drawZones(renderer, output: output)
        }
        drawOverlays(renderer, output: output)
        return output
    }

    /// One zone's picture, its crossfade and its veil, in `output` (the zone's rectangle, as SDL's viewport).
    func drawZone(_ picture: ZonePicture, _ renderer: OpaquePointer, output: (width: Int, height: Int)) {
        drawPicture(picture, renderer, output: output)
        drawCrossfade(picture, renderer, output: output)
        drawVeil(picture.veil, renderer)
    }

    public func setVeil(_ veil: PictureVeil?) {
        assertOnSinkThread()
        main.veil = veil
    }

    public func setMotion(_ frame: MotionFrame?) {
        assertOnSinkThread()
        main.motion = frame
    }

    public func redraw() {
        assertOnSinkThread()
        guard main.lastFrame != nil else { return }
        needsRedraw = false
        drawAndPresent()
    }

    /// The veil's colour over the whole output or zone (bars included), at the opacity its level leaves.
    private func drawVeil(_ veil: PictureVeil?, _ renderer: OpaquePointer) {
        guard let veil, veil.level < 1 else { return }
        let alpha = UInt8((255 * (1 - max(0, veil.level))).rounded())
        SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND)
        SDL_SetRenderDrawColor(renderer, veil.color.red, veil.color.green, veil.color.blue, alpha)
        SDL_RenderFillRect(renderer, nil)
        SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_NONE)
    }

    /// The overlays as they resolve now (clock text at this second, placeholders from the playing item).
    func currentOverlayLayers() -> [OverlayLayer] {
        overlays.isEmpty ? [] : OverlayScene.layers(of: overlays, playing: overlayItem, unixTime: Monotonic.wallClock())
    }

    /// The screen's layers over everything, then each zone's in its rectangle (SDL's viewport), anchored to it;
    /// a zone's layers wait while the layout has no such zone.
    /// The screen's layers (`drawnLayers`, resolved at this draw) above every zone; each zone's own layers
    /// were drawn with its picture (drawZones), so a zone on top covers those of the zones below it.
    private func drawOverlays(_ renderer: OpaquePointer, output: (width: Int, height: Int)) {
        let screen = drawnLayers.filter { $0.zone == nil }
        painter?.draw(screen, renderer: renderer, output: output, rotation: config.rotation, now: lastDrawAt, alive: drawnLayers)
    }

    /// Where `frame` goes on an output of `output` size with `picture`'s fit and turns (nil: nowhere).
    func layout(of frame: VideoFrame, in picture: ZonePicture, output: (width: Int, height: Int)) -> FitLayout? {
        // The file's turn (a phone's portrait clip or photo) and the panel's add up; the mirror comes first.
        let turn = frame.orientation.turned(by: picture.rotation.rawValue / 90)
        // A wall's part only where the picture fills the screen (not the main zone in part of a layout).
        let wall = output == wholeOutput ? picture.wall : nil
        return FitLayout.compute(
            fit: picture.fit, rotation: VideoRotation(rawValue: turn.quarterTurns * 90) ?? .upright,
            mirrored: turn.mirrored, sampleAspect: frame.sampleAspect, picture: (frame.width, frame.height),
            output: output, wall: wall, panelTurn: picture.rotation)
    }

    private func drawPicture(_ picture: ZonePicture, _ renderer: OpaquePointer, output: (width: Int, height: Int)) {
        guard let frame = picture.lastFrame, let layout = layout(of: frame, in: picture, output: output) else { return }
        var source = layout.source.sdl
        // A moving still glides over the whole picture; on a wall each panel would glide over its own part,
        // apart from the others: there it stands still.
        if let motion = picture.motion, picture.wall == nil || output != wholeOutput {
            guard uploadUnlessHeld(frame, into: picture), let texture = picture.texture else { return }
            drawMoving(texture, layout: layout, view: motion, renderer)
            return
        }
        if let size = prescaledSize(frame, layout), prescale(frame, to: size, into: picture) {
            source = SDL_Rect(x: 0, y: 0, w: Int32(size.width), h: Int32(size.height))
        } else {
            guard uploadUnlessHeld(frame, into: picture) else { return }
        }
        guard let texture = picture.texture else { return }
        copy(texture, source: &source, layout: layout, renderer)
    }

    /// Copies `source` of `texture` where `layout` puts the picture, turned and mirrored as it says.
    func copy(_ texture: OpaquePointer, source: inout SDL_Rect, layout: FitLayout, _ renderer: OpaquePointer) {
        if layout.rotation == .upright && !layout.mirrored {
            var destination = layout.destination.sdl
            if SDL_RenderCopy(renderer, texture, &source, &destination) < 0 { logFailure("SDL_RenderCopy") }
            return
        }
        // SDL mirrors the texture, then turns it clockwise about the centre of the rectangle it is given.
        let unturned = layout.unturnedDestination
        var destination = SDL_FRect(
            x: Float(unturned.x), y: Float(unturned.y), w: Float(unturned.width), h: Float(unturned.height))
        let degrees = Double(layout.rotation.rawValue)
        let flip = layout.mirrored ? SDL_FLIP_HORIZONTAL : SDL_FLIP_NONE
        if SDL_RenderCopyExF(renderer, texture, &source, &destination, degrees, nil, flip) < 0 {
            logFailure("SDL_RenderCopyExF")
        }
    }

    /// A moving still: the picture zoomed so that `view` fits where the whole picture would be, centred on
    /// the view's centre but never showing an empty edge, clipped to that place. Float rectangles, so the
    /// glide moves by fractions of a pixel; the texture holds the whole picture (never prescaled: each
    /// redraw shows another part of it).
    func drawMoving(_ texture: OpaquePointer, layout: FitLayout, view: MotionFrame, _ renderer: OpaquePointer) {
        var source = layout.source.sdl
        let place = layout.destination
        let zoom = 1 / max(view.width, view.height, 0.05)
        let width = Double(place.width) * zoom, height = Double(place.height) * zoom
        let centreX = Double(place.x) + Double(place.width) / 2, centreY = Double(place.y) + Double(place.height) / 2
        var x = centreX - (view.x + view.width / 2) * width
        var y = centreY - (view.y + view.height / 2) * height
        x = min(Double(place.x), max(Double(place.x + place.width) - width, x))
        y = min(Double(place.y), max(Double(place.y + place.height) - height, y))
        let unturned = layout.unturned((x, y, width, height))
        var drawn = SDL_FRect(
            x: Float(unturned.x), y: Float(unturned.y), w: Float(unturned.width), h: Float(unturned.height))
        var clip = place.sdl
        SDL_RenderSetClipRect(renderer, &clip)
        let flip = layout.mirrored ? SDL_FLIP_HORIZONTAL : SDL_FLIP_NONE
        if SDL_RenderCopyExF(renderer, texture, &source, &drawn, Double(layout.rotation.rawValue), nil, flip) < 0 {
            logFailure("SDL_RenderCopyExF")
        }
        SDL_RenderSetClipRect(renderer, nil)
    }

    func clearToBlack() {
        guard let renderer else { return }
        SDL_SetRenderDrawColor(renderer, 0, 0, 0, 255)
        SDL_RenderClear(renderer)
    }

    /// Copies the frame's planes into the picture's streaming texture, recreating it when size or layout changed.
    func upload(_ frame: VideoFrame, into picture: ZonePicture) -> Bool {
        let shape = TextureShape(width: frame.width, height: frame.height, layout: frame.layout)
        guard let texture = streamingTexture(shape, of: picture) else { return false }
        guard copyPlanes(of: frame, into: texture) else { return false }
        picture.uploadedPictures = picture.shownPictures
        picture.textureIsStale = false
        return true
    }

    /// Copies the frame's planes into `texture` (made for its size and layout). False (logged) on failure.
    func copyPlanes(of frame: VideoFrame, into texture: OpaquePointer) -> Bool {
        let rc: Int32 = frame.withPlanes { planes in
            switch frame.layout {
            case .yuv420p:
                guard planes.count == 3 else { return -1 }
                return SDL_UpdateYUVTexture(
                    texture, nil, planes[0].base, Int32(planes[0].bytesPerRow), planes[1].base,
                    Int32(planes[1].bytesPerRow), planes[2].base, Int32(planes[2].bytesPerRow))
            case .nv12:
                guard planes.count == 2 else { return -1 }
                return SDL_UpdateNVTexture(
                    texture, nil, planes[0].base, Int32(planes[0].bytesPerRow), planes[1].base,
                    Int32(planes[1].bytesPerRow))
            case .rgba, .bgra:
                guard planes.count == 1 else { return -1 }
                return SDL_UpdateTexture(texture, nil, planes[0].base, Int32(planes[0].bytesPerRow))
            }
        }
        guard rc == 0 else {
            logFailure("texture update (\(frame.layout))")
            return false
        }
        return true
    }

    /// The streaming texture, made anew when `shape` differs from the one it was made for; nil (logged) when
    /// SDL cannot make it.
    private func streamingTexture(_ shape: TextureShape, of picture: ZonePicture) -> OpaquePointer? {
        guard let renderer else { return nil }
        if let texture = picture.texture, picture.textureShape == shape { return texture }
        if let texture = picture.texture { SDL_DestroyTexture(texture) }
        let texture = SDL_CreateTexture(
            renderer, shape.sdlFormat, Int32(SDL_TEXTUREACCESS_STREAMING.rawValue), Int32(shape.width),
            Int32(shape.height))
        picture.texture = texture
        picture.textureShape = texture == nil ? nil : shape
        let what = "\(shape.width)x\(shape.height) \(shape.prescaled ? "scaled" : "\(shape.layout)")"
        if texture == nil {
            logFailure("SDL_CreateTexture(\(what))")
        } else {
            logger.debug("texture \(what)")
        }
        return texture
    }

    /// The size to scale `frame` to before drawing it (the software renderer only): where it is drawn,
    /// before any turn, when that is smaller than the picture and the whole picture is drawn; else nil.
    func prescaledSize(_ frame: VideoFrame, _ layout: FitLayout) -> (width: Int, height: Int)? {
        guard prescaler != nil, layout.source.x == 0, layout.source.y == 0, layout.source.width == frame.width,
            layout.source.height == frame.height
        else { return nil }
        let drawn = layout.unturnedDestination
        let width = Int(drawn.width.rounded()), height = Int(drawn.height.rounded())
        guard width > 0, height > 0, width * height < frame.width * frame.height else { return nil }
        return (width, height)
    }

    /// Uploads `frame` unless the texture holds it already, as uploaded (not prescaled). False when it cannot.
    private func uploadUnlessHeld(_ frame: VideoFrame, into picture: ZonePicture) -> Bool {
        guard picture.textureIsStale || picture.textureShape?.prescaled != false
            || picture.uploadedPictures != picture.shownPictures
        else { return true }
        return upload(frame, into: picture)
    }

    /// Scales `frame` into a texture of `size` (once per picture and size: a redraw reuses it).
    private func prescale(_ frame: VideoFrame, to size: (width: Int, height: Int), into picture: ZonePicture) -> Bool {
        guard prescaler != nil else { return false }
        let shape = TextureShape(width: size.width, height: size.height, layout: .rgba, prescaled: true)
        if !picture.textureIsStale, picture.uploadedPictures == picture.shownPictures, picture.textureShape == shape {
            return true
        }
        guard let texture = streamingTexture(shape, of: picture), scale(frame, into: texture, size: size) else {
            return false
        }
        picture.uploadedPictures = picture.shownPictures
        picture.textureIsStale = false
        picture.scaledPictures += 1
        return true
    }

    /// Scales `frame` into `texture` (made for `size`, B,G,R,A) with the software renderer's scaler. False
    /// (logged) when it cannot.
    func scale(_ frame: VideoFrame, into texture: OpaquePointer, size: (width: Int, height: Int)) -> Bool {
        guard let prescaler else { return false }
        var pixels: UnsafeMutableRawPointer?
        var pitch: Int32 = 0
        guard SDL_LockTexture(texture, nil, &pixels, &pitch) == 0, let pixels else {
            logFailure("SDL_LockTexture")
            return false
        }
        let scaled = prescaler.scale(frame, width: size.width, height: size.height, into: pixels, bytesPerRow: Int(pitch))
        SDL_UnlockTexture(texture)
        if !scaled { logFailure("scaling a \(frame.width)x\(frame.height) \(frame.layout) picture") }
        return scaled
    }

    /// Reads the back buffer as R,G,B,A bytes (before present: after it the back buffer is undefined).
    func readPixels(width: Int, height: Int) -> Readback? {
        guard let renderer, width > 0, height > 0 else { return nil }
        var failed = false
        let rgba = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, count in
            let rc = SDL_RenderReadPixels(
                renderer, nil, SDL_PIXELFORMAT_ABGR8888.rawValue, buffer.baseAddress, Int32(width * 4))
            failed = rc < 0
            count = failed ? 0 : width * height * 4
        }
        if failed {
            logFailure("SDL_RenderReadPixels")
            return nil
        }
        return Readback(width: width, height: height, rgba: rgba)
    }

    /// Logs an SDL failure once until a different one happens (show runs per frame).
    func logFailure(_ call: String) {
        let text = "\(call): \(sdlErrorText())"
        guard text != lastLoggedFailure else { return }
        lastLoggedFailure = text
        logger.error("SDL call failed", metadata: ["sdl.call": "\(call)", "sdl.error": "\(sdlErrorText())"])
    }
}

extension FitLayout.Rect {
    var sdl: SDL_Rect { SDL_Rect(x: Int32(x), y: Int32(y), w: Int32(width), h: Int32(height)) }
}
