// When the music zone is ducked: while the audio zone plays, under its plays with sound. The audio zone's
// engine tells when each play will be heard and whether it has sound (its decode thread), and its events
// say when it plays, pauses or stops; the music zone's output (DuckedAudioSink) ramps accordingly. While
// an alert holds the screen the music is silent, whatever the duck says.
// Any thread; a small lock guards the fields and is released before the output is told.

import SystemSupport

public final class DuckControl: @unchecked Sendable {
    private let lock = ThreadLock()
    /// Guarded by `lock`: the music zone's output (nil: no music zone), whether the audio zone's latest play
    /// has sound, and whether the audio zone is playing.
    private var music: DuckedAudioSink?
    private var sounding = false
    private var playing = false
    /// Guarded by `lock`: an alert holds the screen, and the music is silent under it.
    private var silenced = false

    public init() {}

    /// The music zone's output from now on (nil: none); it starts at the level the audio zone calls for.
    public func attach(_ music: DuckedAudioSink?) {
        let (ducked, silenced) = lock.withLock {
            self.music = music
            return (playing && sounding, self.silenced)
        }
        music?.set(ducked: ducked)
        music?.silence(silenced)
    }

    /// An alert took the screen (true) or gave it back: the music falls silent under it, then comes back.
    public func silence(_ on: Bool) {
        let music = lock.withLock {
            silenced = on
            return self.music
        }
        music?.silence(on)
    }

    /// The audio zone's next play is heard from monotonic time `heardAt`, with sound or without.
    public func playScheduled(sound: Bool, heardAt: Double) {
        let (music, apply) = lock.withLock {
            sounding = sound
            return (self.music, playing)
        }
        if apply { music?.set(ducked: sound, heardAt: heardAt) }
    }

    /// The audio zone plays (true) or pauses, stops or has nothing left (false).
    public func audioZonePlaying(_ nowPlaying: Bool) {
        var told: DuckedAudioSink?
        var ducked = false
        lock.withLock {
            guard playing != nowPlaying else { return }
            playing = nowPlaying
            told = music
            ducked = nowPlaying && sounding
        }
        told?.set(ducked: ducked)
    }
}
