// When the music zone is ducked: while the audio zone plays, under its plays with sound. The audio zone's
// engine tells when each play will be heard and whether it has sound (its decode thread), and its events
// say when it plays, pauses or stops; the music zone's output (DuckedAudioSink) ramps accordingly. While
// an alert holds the screen the music is silent, whatever the duck says.
// Any thread. One lock guards the fields and is held while the output is told, so two changes reach it in
// the order they were decided (the output's calls return at once: nothing waits under it).

import SystemSupport

public final class DuckControl: @unchecked Sendable {
    private let lock = ThreadLock()
    /// Guarded by `lock`: the music zone's output (nil: no music zone), whether the audio zone's latest play
    /// has sound, whether the audio zone is playing, and whether an alert holds the screen.
    private var music: DuckedAudioSink?
    private var sounding = false
    private var playing = false
    private var silenced = false

    public init() {}

    /// The music zone's output from now on (nil: none); it starts at the level the audio zone calls for.
    public func attach(_ music: DuckedAudioSink?) {
        lock.withLock {
            self.music = music
            music?.set(ducked: playing && sounding)
            music?.silence(silenced)
        }
    }

    /// An alert took the screen (true) or gave it back: the music falls silent under it, then comes back.
    public func silence(_ on: Bool) {
        lock.withLock {
            silenced = on
            music?.silence(on)
        }
    }

    /// The audio zone's next play is heard from monotonic time `heardAt`, with sound or without.
    public func playScheduled(sound: Bool, heardAt: Double) {
        lock.withLock {
            sounding = sound
            if playing { music?.set(ducked: sound, heardAt: heardAt) }
        }
    }

    /// The audio zone plays (true) or pauses, stops or has nothing left (false).
    public func audioZonePlaying(_ nowPlaying: Bool) {
        lock.withLock {
            guard playing != nowPlaying else { return }
            playing = nowPlaying
            music?.set(ducked: nowPlaying && sounding)
        }
    }
}
