// Settings and errors of the PulseAudio output. Plain values: no libpulse handle lives here.

import Playback

/// How `PulseAudioSink` connects and how much it buffers.
public struct PulseConfig: Sendable {
    /// libpulse server string, e.g. "unix:/tmp/x/native"; nil means libpulse's default (env, client.conf).
    public var server: String?
    public var applicationName = "queued"
    public var streamName = "queued playback"
    /// What `write` takes (interleaved Float32); the stream is S16 at the same rate and channel count.
    public var format = AudioFormat()
    /// Seconds of audio buffered at the server (tlength; prebuf is the same, so playback starts full).
    public var targetLatency: Double = 0.1
    /// Seconds of our own ring between the decode thread and the write callback.
    public var bufferSeconds: Double = 0.2
    /// How long `init` waits for the context and the stream to become ready.
    public var connectTimeout: Double = 5

    public init(server: String? = nil, format: AudioFormat = AudioFormat()) {
        self.server = server
        self.format = format
    }
}

/// Why the PulseAudio output could not be opened or an operation failed.
public struct PulseError: Error, CustomStringConvertible, Sendable {
    public enum Stage: String, Sendable {
        case setup = "set up libpulse"
        case connect = "connect to the PulseAudio server"
        case stream = "open the playback stream"
    }
    public let stage: Stage
    /// The server string as given (nil: libpulse's default).
    public let server: String?
    /// `pa_strerror` of the context's error, or our own explanation (e.g. a timeout).
    public let reason: String

    public var description: String {
        "cannot \(stage.rawValue) at \(server ?? "<default server>"): \(reason)"
    }
}
