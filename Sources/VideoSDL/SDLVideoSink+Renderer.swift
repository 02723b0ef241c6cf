// Choosing the renderer, on the presenter thread during `open`. After mpv's rule (its GPU output refuses
// software OpenGL unless asked): an OpenGL renderer that is really a software rasterizer (Mesa's llvmpipe,
// e.g. under Xvfb) costs ~15 ms of CPU per 720p frame, while SDL's software renderer drawing straight into
// the window's own surface (XShm on X11) costs ~1 ms. So unless a render driver was named, software GL is
// dropped for the software renderer.

import CSDL2
import FoundationEssentials
import Glibc
import SystemSupport

extension SDLVideoSink {
    func createRenderer(for window: OpaquePointer) throws -> OpaquePointer {
        // A driver named in the config or in SDL_RENDER_DRIVER (the hint falls back to the environment).
        let named = config.renderDriver ?? SDL_GetHint(SDL_HINT_RENDER_DRIVER).map { String(cString: $0) }
        let vsync = config.vsync ? SDL_RENDERER_PRESENTVSYNC.rawValue : 0
        var failures: [String] = []
        // SDL_CreateRenderer(-1, flags) only considers drivers that advertise every flag: ask for less and less.
        // With no GPU device at all, OpenGL could only be a software rasterizer: don't even load it (Mesa
        // and LLVM would stay mapped, ~90 MB of RSS, after the renderer is dropped).
        if named?.lowercased() != "software" && (named != nil || Self.hasGPUDevice()) {
            for flags in [SDL_RENDERER_ACCELERATED.rawValue | vsync, SDL_RENDERER_ACCELERATED.rawValue] {
                guard let renderer = SDL_CreateRenderer(window, -1, flags) else {
                    failures.append(sdlErrorText())
                    continue
                }
                guard named == nil, let glName = softwareGLName() else { return renderer }
                logger.notice(
                    "OpenGL is a software rasterizer: using SDL's software renderer instead",
                    metadata: ["gl.renderer": "\(glName)", "hint": "render driver opengl (SDL_RENDER_DRIVER) keeps it"])
                SDL_DestroyRenderer(renderer)
                break
            }
        }
        // Draw into the window's own surface rather than into a GL texture that software GL would copy again.
        // Normal priority: SDL_FRAMEBUFFER_ACCELERATION in the environment still wins.
        SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0")
        for flags in [SDL_RENDERER_SOFTWARE.rawValue | vsync, SDL_RENDERER_SOFTWARE.rawValue] {
            if let renderer = SDL_CreateRenderer(window, -1, flags) {
                if !failures.isEmpty {
                    logger.debug("renderer fallback", metadata: ["sdl.errors": "\(failures.joined(separator: "; "))"])
                }
                return renderer
            }
            failures.append(sdlErrorText())
        }
        throw SDLVideoError(call: "SDL_CreateRenderer", message: failures.joined(separator: "; "))
    }

    /// Whether the kernel exposes a DRM device (a GPU) to this process.
    static func hasGPUDevice() -> Bool {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri") else { return false }
        return names.contains { $0.hasPrefix("renderD") || $0.hasPrefix("card") }
    }

    /// GL_RENDERER of the current OpenGL context when it names a software rasterizer, else nil.
    private func softwareGLName() -> String? {
        guard SDL_GL_GetCurrentContext() != nil, let address = SDL_GL_GetProcAddress("glGetString") else {
            return nil
        }
        typealias GLGetString = @convention(c) (UInt32) -> UnsafePointer<UInt8>?
        let glGetString = unsafeBitCast(address, to: GLGetString.self)
        let glRenderer: UInt32 = 0x1F01  // GL_RENDERER
        guard let text = glGetString(glRenderer) else { return nil }
        let name = String(cString: text)
        let rasterizers = ["llvmpipe", "softpipe", "swrast", "software rasterizer"]
        return rasterizers.contains { name.lowercased().contains($0) } ? name : nil
    }

    /// The SDL render driver's name ("software", "opengl", ...).
    static func rendererName(_ renderer: OpaquePointer) -> String {
        var info = SDL_RendererInfo()
        guard SDL_GetRendererInfo(renderer, &info) == 0 else { return "" }
        return info.name.map { String(cString: $0) } ?? ""
    }

    /// For the log: whether present waits for vertical blank. The software renderer advertises vsync but
    /// its window surface has none.
    func vsyncDescription(_ info: SDL_RendererInfo) -> String {
        let name = info.name.map { String(cString: $0) } ?? ""
        if name == "software" { return "none (software renderer)" }
        return info.flags & SDL_RENDERER_PRESENTVSYNC.rawValue != 0 ? "on" : "off"
    }
}
