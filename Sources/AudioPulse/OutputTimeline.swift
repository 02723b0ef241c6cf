// The sink's positions as a value type, so the arithmetic is testable without a server or threads.
// Timeline frame N = the N-th frame accepted by `write` (after a flush, the timeline continues from where
// the listener was). Server frames come from pa_stream_get_time and the stream's read index; a flush resets
// the server's write index to its read index, so `offset` maps one onto the other. Guarded by the
// mainloop lock inside PulseAudioSink.

struct OutputTimeline: Equatable {
    /// Frames accepted by `write` (the ring included).
    private(set) var written: Int64 = 0
    /// Last reported heard position; never decreases (except that it is reset to equal nothing else).
    private(set) var played: Int64 = 0
    /// Server frame of timeline frame 0: timeline = server − offset.
    private(set) var offset: Int64 = 0

    mutating func accept(frames: Int64) {
        written += frames
    }

    /// The heard position for a server stream time given in frames: monotonic, and never past `written`.
    mutating func played(atServerFrame serverFrame: Int64) -> Int64 {
        let (frame, overflow) = serverFrame.subtractingReportingOverflow(offset)
        guard !overflow else { return played }
        played = max(played, min(written, frame))
        return played
    }

    /// The newest `frames` written were dropped before reaching the server (never heard).
    mutating func retract(frames: Int64) {
        written = max(played, written - frames)
    }

    /// Everything not yet heard was dropped: the timeline continues from the heard position.
    mutating func flushed() {
        written = played
    }

    /// After the server's flush: new data will be written at server frame `readIndex` (the server's read
    /// index, where its write index now is), and must be heard as timeline frame `played`.
    mutating func rebase(serverWriteFrame readIndex: Int64) {
        offset = readIndex - played
    }

    /// The server said it has played everything up to timeline frame `frame`.
    mutating func drained(through frame: Int64) {
        played = max(played, min(written, frame))
    }

    /// Converts pa_stream_get_time's microseconds to frames (rounded: libpulse floors bytes → usec); nil
    /// for a time no stream reaches (over a century: a garbage reading, seen once in a 60 s test run, which
    /// must not trap on overflow and take the daemon down).
    static func frames(usec: UInt64, sampleRate: Int) -> Int64? {
        guard usec < 100 * 365 * 86_400 * 1_000_000 else { return nil }
        return Int64((usec * UInt64(sampleRate) + 500_000) / 1_000_000)
    }
}
