// A crossfade on screen: the entering play's picture (the one `show` put up) seen at `mix`, and the
// leaving play's last picture added over it at 1 - `mix`. Drawn as a black veil at 1 - `mix` over the
// entering picture (its bars included), then the leaving picture with additive blending at 1 - `mix`
// (its bars add nothing), so that every pixel is leaving × (1 - mix) + entering × mix whatever the two
// pictures' shapes, fits and turns. The leaving picture has its own texture, filled once per picture:
// with SDL's software renderer scaled first to where it is drawn, as the main picture is (unless it moves).
// Presenter thread only.

import CSDL2
import Media
import Playback

extension SDLVideoSink {
    public func setCrossfade(_ crossfade: CrossfadeLayer?) {
        assertOnSinkThread()
        main.setCrossfade(crossfade)
    }

    func drawCrossfade(_ picture: ZonePicture, _ renderer: OpaquePointer, output: (width: Int, height: Int)) {
        guard let crossfade = picture.crossfade, crossfade.mix < 1, picture.lastFrame != nil else { return }
        let leavingShare = UInt8((255 * (1 - max(0, crossfade.mix))).rounded())
        SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND)
        SDL_SetRenderDrawColor(renderer, 0, 0, 0, leavingShare)
        SDL_RenderFillRect(renderer, nil)
        SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_NONE)
        guard let frame = crossfade.leaving, let layout = layout(of: frame, in: picture, output: output) else { return }
        let scaled = crossfade.motion == nil ? prescaledSize(frame, layout) : nil
        guard let texture = leavingTexture(of: picture, holding: frame, scaledTo: scaled) else { return }
        SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_ADD)
        SDL_SetTextureAlphaMod(texture, leavingShare)
        if let view = crossfade.motion {
            drawMoving(texture, layout: layout, view: view, renderer)
            return
        }
        var source = layout.source.sdl
        if let scaled { source = SDL_Rect(x: 0, y: 0, w: Int32(scaled.width), h: Int32(scaled.height)) }
        copy(texture, source: &source, layout: layout, renderer)
    }

    /// The leaving picture's texture, holding `frame` as it is or scaled to `scaled` (filled when it does not
    /// yet). nil (logged) when SDL cannot make or fill it.
    private func leavingTexture(
        of picture: ZonePicture, holding frame: VideoFrame, scaledTo scaled: (width: Int, height: Int)?
    ) -> OpaquePointer? {
        guard let renderer else { return nil }
        let shape =
            scaled.map { TextureShape(width: $0.width, height: $0.height, layout: .rgba, prescaled: true) }
            ?? TextureShape(width: frame.width, height: frame.height, layout: frame.layout)
        if let texture = picture.leavingTexture, picture.leavingShape == shape, picture.leavingUploaded === frame {
            return texture
        }
        if picture.leavingShape != shape {
            picture.dropLeavingTexture()
            picture.leavingTexture = SDL_CreateTexture(
                renderer, shape.sdlFormat, Int32(SDL_TEXTUREACCESS_STREAMING.rawValue), Int32(shape.width),
                Int32(shape.height))
            guard picture.leavingTexture != nil else {
                logFailure("SDL_CreateTexture(\(shape.width)x\(shape.height) \(shape.layout), leaving picture)")
                return nil
            }
            picture.leavingShape = shape
        }
        guard let leavingTexture = picture.leavingTexture else { return nil }
        if shape.prescaled {
            guard scale(frame, into: leavingTexture, size: (shape.width, shape.height)) else { return nil }
        } else {
            guard copyPlanes(of: frame, into: leavingTexture) else { return nil }
        }
        picture.leavingUploaded = frame
        return leavingTexture
    }
}

extension ZonePicture {
    /// The crossfade to draw from the next draw on (a new leaving picture is uploaded anew).
    func setCrossfade(_ crossfade: CrossfadeLayer?) {
        self.crossfade = crossfade
        if crossfade?.leaving == nil { leavingUploaded = nil }
    }
}
