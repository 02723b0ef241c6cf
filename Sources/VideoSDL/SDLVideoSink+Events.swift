// Window-system events and screenshots. `pump` runs on the presenter thread between frames: it redraws
// after expose/resize/fit changes, notes a window close, and answers screenshot requests posted by other
// threads. `screenshot` is the one entry point for any thread; the PNG is encoded on the caller's thread.
import CSDL2
import Media
import Playback

extension SDLVideoSink {
    public func pump() {
        assertOnSinkThread()
        guard renderer != nil else { return }
        var event = SDL_Event()
        while SDL_PollEvent(&event) != 0 {
            handle(event)
        }
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
        case SDL_RENDER_TARGETS_RESET.rawValue:
            needsRedraw = true
        case SDL_RENDER_DEVICE_RESET.rawValue:
            // Every texture is gone: make a new one from the last frame at the redraw.
            if let texture { SDL_DestroyTexture(texture) }
            texture = nil
            textureShape = nil
            textureIsStale = lastFrame != nil
            needsRedraw = true
        default:
            break
        }
    }

    /// Redraws the current picture into the back buffer and reads it back, without presenting (the screen
    /// already shows it). Nil while black or closed.
    func readBackCurrentPicture() -> Readback? {
        guard lastFrame != nil, let output = draw() else { return nil }
        return readPixels(width: output.width, height: output.height)
    }

    /// PNG bytes of the picture on screen; nil when no picture is shown (never shown, after `showBlack`,
    /// closed) or when the presenter thread did not answer within 2 s. Any thread: on the presenter thread
    /// it reads back at once, elsewhere it waits for the next `show` or `pump`.
    public func screenshot() -> [UInt8]? {
        let readback: Readback?
        if mailbox.callerIsOwner {
            readback = readBackCurrentPicture()
        } else {
            readback = mailbox.request(timeout: Self.screenshotTimeout)
        }
        guard let readback else { return nil }
        do {
            return try PNGEncoder.encode(rgba: readback.rgba, width: readback.width, height: readback.height)
        } catch {
            logger.error("screenshot encoding failed", metadata: ["error": "\(error)"])
            return nil
        }
    }
}
