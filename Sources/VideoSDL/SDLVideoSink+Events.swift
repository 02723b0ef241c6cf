// Window-system events and screenshots. `pump` runs on the presenter thread between frames: it redraws
// after expose/resize/fit changes, notes a window close, and answers screenshot requests posted by other
// threads. `screenshot` is the one entry point for any thread; the PNG is encoded on the caller's thread.

import CSDL2
import Media
import Overlays
import Playback
import SystemClock

extension SDLVideoSink {
    public func pump() {
        assertOnSinkThread()
        guard renderer != nil else { return }
        var event = SDL_Event()
        while SDL_PollEvent(&event) != 0 {
            handle(event)
        }
        if overlaysNeedRedraw() || hasPendingDraw { needsRedraw = true }
        if needsRedraw {
            needsRedraw = false
            drawAndPresent()  // answers pending screenshots too
        }
        if mailbox.hasPending {
            mailbox.answer(readBackCurrentPicture())
        }
    }

    private func handle(_ event: SDL_Event) {
        switch event.type {
        case SDL_QUIT.rawValue:
            if !quitRequested { logger.info("window closed: quit requested") }
            requestQuit()
        case SDL_WINDOWEVENT.rawValue:
            switch UInt32(event.window.event) {
            case SDL_WINDOWEVENT_EXPOSED.rawValue, SDL_WINDOWEVENT_SIZE_CHANGED.rawValue,
                SDL_WINDOWEVENT_RESIZED.rawValue, SDL_WINDOWEVENT_SHOWN.rawValue,
                SDL_WINDOWEVENT_RESTORED.rawValue:
                needsRedraw = true
            default:
                break
            }
        case SDL_KEYDOWN.rawValue where event.key.repeat == 0:
            if let name = SDL_GetKeyName(event.key.keysym.sym) { keyPressed(String(cString: name)) }
        case SDL_RENDER_TARGETS_RESET.rawValue:
            needsRedraw = true
        case SDL_RENDER_DEVICE_RESET.rawValue:
            // Every texture is gone: make new ones from the last frames at the redraw.
            main.releaseTextures()
            for picture in zonePictures.values { picture.releaseTextures() }
            painter?.releaseTextures()
            needsRedraw = true
        default:
            break
        }
    }

    /// New overlays (or another item, or position, for them) from the presenter: drawn with the next
    /// `show`, or by the next `pump` when none comes first (paused, a still, black) and what they resolve
    /// to differs from what is on screen.
    public func setOverlays(_ overlays: OverlaySet, playing: PlayingItem?) {
        assertOnSinkThread()
        self.overlays = overlays
        overlayItem = playing
    }

    /// Whether the screen is out of date between pictures: a ticker moves (redrawn at up to 60 Hz), or a
    /// layer's text changed by itself (a clock's next second). Not while video plays: the next picture
    /// (within 0.1 s) draws the change, and an extra present between pictures could hold the next one
    /// (behind a vertical blank) — the ticker then moves at the video's frame rate.
    private func overlaysNeedRedraw() -> Bool {
        guard !overlays.isEmpty || !drawnLayers.isEmpty else { return false }
        let now = Monotonic.now()
        if now - lastShowAt < 0.1 { return false }
        if overlays.animates && now - lastDrawAt >= 1.0 / 60 { return true }
        return currentOverlayLayers() != drawnLayers
    }

    /// Redraws the current picture into the back buffer and reads it back, without presenting (the screen
    /// already shows it). Nil while black (without overlays) or closed.
    func readBackCurrentPicture() -> Readback? {
        guard showsSomething, let output = draw() else { return nil }
        return readPixels(width: output.width, height: output.height)
    }

    /// The picture on screen as a file; nil when no picture is shown (never shown, after `showBlack`,
    /// closed) or when the presenter thread did not answer within 2 s. Any thread: on the presenter thread
    /// it reads back at once, elsewhere it waits for the next `show` or `pump`; it encodes on the caller's.
    public func screenshot(_ request: ScreenshotRequest) -> Screenshot? {
        let readback: Readback?
        if mailbox.callerIsOwner {
            readback = readBackCurrentPicture()
        } else {
            readback = mailbox.request(timeout: Self.screenshotTimeout)
        }
        guard let readback else { return nil }
        do {
            let encoded = try ScreenshotEncoder.encode(
                rgba: readback.rgba, width: readback.width, height: readback.height, as: request.format,
                maxWidth: request.maxWidth)
            return Screenshot(bytes: encoded.bytes, format: request.format, width: encoded.width, height: encoded.height)
        } catch {
            logger.error("screenshot encoding failed", metadata: ["error": "\(error)"])
            return nil
        }
    }
}
