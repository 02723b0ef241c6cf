// Where an item's tracks end, as MediaReader learns it while reading: whether a track that stopped was
// cut short (a truncated file) or simply ended (another track is longer), and — under shortest track, for
// a file that declares no end for a track — which track ends first, found by reading packets ahead.
// Decode thread only, like MediaReader.

extension MediaReader {
    /// A stream that stops well before the end it declares was cut short (a truncated download or copy):
    /// that is an error for the item, not a normal end. A stream that declares nothing is judged with the
    /// whole file: only when no stream (of any kind) reached the container's duration is the file cut
    /// short — a stream that ends sooner because another one is longer is not damage.
    func checkComplete(reachedTime: Double, declaredEnd: Double?) throws(MediaError) {
        guard !isStill else { return }
        if let declaredEnd {
            try requireReached(reachedTime, of: declaredEnd)
        } else if demuxFinished {
            try requireFileReachedItsEnd(beyond: reachedTime)
        }
    }

    /// Once the file is read through: the furthest any stream reached must be the container's duration.
    func requireFileReachedItsEnd(beyond reachedTime: Double) throws(MediaError) {
        guard let fileEnd else { return }
        let furthest = demuxer.furthestPacketEnd.map { $0 - origin } ?? reachedTime
        try requireReached(max(reachedTime, furthest), of: fileEnd)
    }

    private func requireReached(_ reachedTime: Double, of declaredEnd: Double) throws(MediaError) {
        let windowEnd = timing.windowEnd.map { min($0, declaredEnd) } ?? declaredEnd
        if reachedTime < windowEnd - 0.25 {
            throw MediaError(
                operation: "read", path: path,
                message:
                    "the file ends at \(formatted(reachedTime)) s of its declared \(formatted(declaredEnd)) s (truncated?)"
            )
        }
    }

    /// How far one played stream may run ahead of another before the one behind counts as ended (FFmpeg's
    /// own default interleaving limit): reading ahead never holds more than this much of the file.
    static let interleaveLimit = 10.0

    /// Under shortest track with a track whose end nobody declared, where that track ends is learned by
    /// reading ahead: packets are read (and queued for their decoders) until every played stream has one
    /// reaching past `time` — then nothing ends before `time` — or the file ends, or one stream runs
    /// `interleaveLimit` past another (which then counts as ended). The earliest end of a stream that had
    /// packets is where the item ends (an empty track beside another is no end: it plays as silence or
    /// without pictures). So neither track is handed out past the other's end, however far ahead the
    /// caller reads one.
    func lookAhead(past time: Double) throws(MediaError) {
        guard timing.shortestTrack, timing.audioEnd == nil || timing.videoEnd == nil, !lookAheadSettled else { return }
        if let end = timing.end, time >= end { return }  // a declared end comes first anyway
        func end(of stream: Int) -> Double? { demuxer.packetEnd(of: stream).map { $0 - origin } }
        var behind: [Int] = []
        while !demuxFinished {
            behind = trackStreams.filter { (end(of: $0) ?? -.infinity) <= time }
            guard !behind.isEmpty else { return }
            let furthest = trackStreams.compactMap(end(of:)).max() ?? -.infinity
            if furthest > time + Self.interleaveLimit { break }
            _ = try demux(until: -1, packets: 1)
        }
        lookAheadSettled = true
        if demuxFinished {
            try requireFileReachedItsEnd(beyond: -.infinity)
            learnedEnd = trackStreams.compactMap(end(of:)).min()
        } else {
            learnedEnd = behind.compactMap(end(of:)).min()
        }
    }

    /// Where the item ends as known now: declared, or learned by reading ahead.
    public var knownEnd: Double? {
        guard let learnedEnd else { return timing.end }
        return min(timing.end ?? learnedEnd, learnedEnd)
    }
}
