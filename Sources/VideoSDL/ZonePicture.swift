// One zone's picture as the compositor draws it: the picture on show, the texture that holds it, how it
// is fitted and turned, and what is drawn with it (a veil, a moving still's view, a crossfade's leaving
// picture). The whole screen with no layout is one of these (the sink's `main`); every zone of a layout
// has its own, so a change in one zone touches nothing of another. Owned by the SDL thread (the main
// zone's presenter); the textures belong to the sink's renderer and go with `releaseTextures`.

import CSDL2
import Media
import Playback
import QueueModel

final class ZonePicture {
    var fit: VideoFit
    var rotation: VideoRotation
    /// The part of a video wall's picture this screen shows (the main zone's only; nil: the whole picture).
    var wall: WallPlacement?
    /// The colour drawn behind the picture in its rectangle (nil: black).
    var background: (red: UInt8, green: UInt8, blue: UInt8)?
    var texture: OpaquePointer?
    /// What `texture` was created for; a frame with another size or layout recreates it.
    var textureShape: TextureShape?
    /// The texture no longer holds `lastFrame`'s pixels (device reset): upload again before drawing.
    var textureIsStale = false
    /// Pictures handed to `show`, and which of them the texture holds (a redraw of the same picture uploads
    /// or scales nothing).
    var shownPictures = 0
    var uploadedPictures = -1
    /// Pictures scaled by the sink's prescaler (for tests: a redraw scales nothing).
    var scaledPictures = 0
    /// The picture on show, kept to redraw; nil while black.
    var lastFrame: VideoFrame?

    /// `frame` becomes the picture on show. One with the same pixels as the last (a web page that did not
    /// change, shown again at a later time) counts as the same picture: nothing is uploaded or scaled again.
    func take(_ frame: VideoFrame) {
        if let lastFrame, lastFrame.sharesPixels(with: frame), !textureIsStale {
            self.lastFrame = frame
            return
        }
        shownPictures += 1
        lastFrame = frame
    }
    /// A fade's or a dip's colour drawn over the picture (nil: none).
    var veil: PictureVeil?
    /// The part of a moving still in view (nil: the whole picture).
    var motion: MotionFrame?
    /// A crossfade drawn over the picture (nil: none), its leaving picture's texture, what that texture
    /// was made for and which picture it holds.
    var crossfade: CrossfadeLayer?
    var leavingTexture: OpaquePointer?
    var leavingShape: TextureShape?
    var leavingUploaded: VideoFrame?

    init(fit: VideoFit, rotation: VideoRotation) {
        self.fit = fit
        self.rotation = rotation
    }

    deinit { releaseTextures() }

    /// Frees the textures (closing, the zone left the layout, or a device reset lost them); the next draw
    /// makes them again from `lastFrame`.
    func releaseTextures() {
        if let texture { SDL_DestroyTexture(texture) }
        texture = nil
        textureShape = nil
        textureIsStale = lastFrame != nil
        dropLeavingTexture()
    }

    func dropLeavingTexture() {
        if let leavingTexture { SDL_DestroyTexture(leavingTexture) }
        leavingTexture = nil
        leavingShape = nil
        leavingUploaded = nil
    }
}
