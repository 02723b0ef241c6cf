// Chooses and opens the audio and video outputs from the command line and what the machine has.

import AudioPulse
import FoundationEssentials
import Glibc
import SystemSupport
import Logging
import Playback
import VideoSDL

enum Outputs {
    /// `onChange`: the PulseAudio server was lost or found again (playback goes on meanwhile).
    static func audio(
        _ choice: AudioChoice, server: String?, buffer: Double, logger: Logger,
        onChange: @escaping @Sendable (OutputChange) -> Void
    ) throws -> (AudioSink, String) {
        let pulseLogger = Logger(label: "queued.audio")
        var config = PulseConfig(server: server)
        config.targetLatency = buffer
        switch choice {
        case .null:
            return (NullAudioSink(mode: .realtime(buffer: 0.2)), "null")
        case .pulse:
            return (
                try ReconnectingPulseSink(config: config, logger: pulseLogger, onChange: onChange),
                "pulse"
            )
        case .auto:
            config.connectTimeout = 2
            do {
                return (try ReconnectingPulseSink(config: config, logger: pulseLogger, onChange: onChange), "pulse")
            } catch {
                logger.warning("no usable PulseAudio server (\(error)); playing without sound on the system clock")
                return (NullAudioSink(mode: .realtime(buffer: 0.2)), "null")
            }
        }
    }

    /// The video output, and its name for daemon.info ("sdl(kmsdrm): no display server; …" for --video auto).
    static func video(_ options: QueuedCommand, logger: Logger) -> (VideoSink?, String) {
        var driver = options.videoDriver
        var name: String
        switch options.video {
        case .none:
            return (nil, "none")
        case .null:
            return (NullVideoSink(), "null")
        case .auto where driver == nil:
            let choice = VideoDriverChoice.decide(for: VideoMachine.current())
            guard let chosen = choice.driver else {
                logger.notice("video: none, because \(choice.reason)")
                return (nil, "none: \(choice.reason)")
            }
            logger.info("video: SDL \(chosen), because \(choice.reason)")
            driver = chosen
            name = "sdl(\(chosen)): \(choice.reason)"
        case .auto, .sdl:
            name = "sdl(\(driver ?? "default"))"
        }
        let geometry = options.parsedGeometry ?? (1280, 720)
        var config = SDLVideoConfig()
        config.driver = driver
        config.width = geometry.width
        config.height = geometry.height
        config.fullscreen = options.fullscreen
        config.fit = options.videoFit ?? .fit
        config.rotation = options.videoRotation ?? .upright
        config.wall = try? options.wallPlacement()
        return (SDLVideoSink(config: config, logger: Logger(label: "queued.video")), name)
    }
}
