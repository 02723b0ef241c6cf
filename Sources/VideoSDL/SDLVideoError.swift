// The VideoSDL module's error, and the one helper every SDL return code goes through.
// Used on the presenter thread (open) and wherever an SDL call can fail.

import CSDL2

public struct SDLVideoError: Error, Equatable, CustomStringConvertible {
    /// The SDL call that failed.
    public let call: String
    /// `SDL_GetError()` right after the failure.
    public let message: String

    public init(call: String, message: String) {
        self.call = call
        self.message = message
    }

    public var description: String { "SDL video: \(call) failed: \(message)" }

    /// The error for `call` with SDL's current error text.
    static func current(_ call: String) -> SDLVideoError {
        SDLVideoError(call: call, message: sdlErrorText())
    }

    /// Throws if `rc` (an SDL int result) is negative.
    static func check(_ rc: Int32, _ call: String) throws {
        if rc < 0 { throw current(call) }
    }
}

func sdlErrorText() -> String {
    guard let text = SDL_GetError() else { return "unknown error" }
    let message = String(cString: text)
    return message.isEmpty ? "unknown error" : message
}
