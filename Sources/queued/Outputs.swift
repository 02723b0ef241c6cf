// Chooses and opens the audio and video outputs from the command line and what the machine has.
import AudioPulse
import Foundation
import Logging
import Playback
import VideoSDL

enum Outputs {
    /// `onChange`: the PulseAudio server was lost or found again (playback goes on meanwhile).
    static func audio(
        _ choice: AudioChoice, server: String?, logger: Logger,
        onChange: @escaping @Sendable (OutputChange) -> Void
    ) throws -> (AudioSink, String) {
        let pulseLogger = Logger(label: "queued.audio")
        switch choice {
        case .null:
            return (NullAudioSink(mode: .realtime(buffer: 0.2)), "null")
        case .pulse:
            return (
                try ReconnectingPulseSink(config: PulseConfig(server: server), logger: pulseLogger, onChange: onChange),
                "pulse"
            )
        case .auto:
            var config = PulseConfig(server: server)
            config.connectTimeout = 2
            do {
                return (try ReconnectingPulseSink(config: config, logger: pulseLogger, onChange: onChange), "pulse")
            } catch {
                logger.warning("no usable PulseAudio server (\(error)); playing without sound on the system clock")
                return (NullAudioSink(mode: .realtime(buffer: 0.2)), "null")
            }
        }
    }

    static func video(_ options: QueuedCommand, logger: Logger) -> (VideoSink?, String) {
        let environment = ProcessInfo.processInfo.environment
        var driver = options.videoDriver
        switch options.video {
        case .none:
            return (nil, "none")
        case .null:
            return (NullVideoSink(), "null")
        case .auto:
            if driver == nil {
                if environment["WAYLAND_DISPLAY"] != nil {
                    driver = "wayland"
                } else if environment["DISPLAY"] != nil {
                    driver = "x11"
                } else {
                    logger.notice("no display (DISPLAY/WAYLAND_DISPLAY unset): running without video")
                    return (nil, "none")
                }
            }
        case .sdl:
            break
        }
        let geometry = options.parsedGeometry ?? (1280, 720)
        var config = SDLVideoConfig()
        config.driver = driver
        config.width = geometry.width
        config.height = geometry.height
        config.fullscreen = options.fullscreen
        config.fit = VideoFit(rawValue: options.fit.rawValue) ?? .fit
        return (SDLVideoSink(config: config, logger: Logger(label: "queued.video")), "sdl(\(driver ?? "default"))")
    }
}
