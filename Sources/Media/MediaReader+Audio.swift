// The audio half of MediaReader: decoded, converted to the output format, and cut sample-exactly to the
// item's window — the start by the first frame's timestamp, the end by the declared duration (which is
// what removes AAC's trailing encoder padding; FFmpeg 5.1 already drops the priming via the edit list).

import CFFmpeg
import DequeModule

final class AudioTrack {
    let input: TrackInput
    var converter: AudioConverter
    /// Item time at which output begins (0, or a seek target).
    var startAt: Double = 0
    /// Frames handed out since `startAt`.
    var emitted: Int64 = 0
    var aligned = false
    var decoderFinished = false
    var finished = false

    init(input: TrackInput, converter: AudioConverter) {
        self.input = input
        self.converter = converter
    }

    func restart(at seconds: Double) {
        input.restart()
        converter = AudioConverter(outputRate: converter.outputRate, outputChannels: converter.outputChannels)
        startAt = seconds
        emitted = 0
        aligned = false
        decoderFinished = false
        finished = false
    }
}

extension MediaReader {
    /// The next chunk of audio for the item (interleaved Float32 at the output format), or nil when the
    /// item's audio is complete. Returns nil at once for items without audio.
    public func readAudio() throws(MediaError) -> [Float]? {
        guard let track = audio, !track.finished else { return nil }
        let channels = options.channels
        let rate = Double(options.sampleRate)
        while true {
            let endFrames = audioEndFrame(track, rate: rate)
            if let endFrames, track.emitted >= endFrames {
                track.finished = true
                return nil
            }
            if track.decoderFinished {
                // Only a longer video track keeps the item going: its audio continues as silence.
                guard timing.padsAudio, let endFrames else {
                    track.finished = true
                    return nil
                }
                let count = Int(min(endFrames - track.emitted, 4096))
                track.emitted += Int64(count)
                return [Float](repeating: 0, count: count * channels)
            }
            var samples: [Float]
            switch try track.input.decoder.receive() {
            case .frame(let frame):
                let streamTime = track.input.decoder.seconds(of: frame).map { $0 - origin }
                var added = 0
                if drift != nil {
                    // A live stream's sound follows its pace (MediaReader+Drift).
                    if let streamTime { steer(at: streamTime) }
                    let inRate = Double(max(1, frame.pointee.sample_rate))
                    added = compensation(forFrames: Double(frame.pointee.nb_samples) * rate / inRate)
                }
                let itemTime = streamTime.map(mappedTime)
                samples = try track.converter.convert(frame, adding: added)
                if !track.aligned {
                    samples = align(samples, startingAt: itemTime ?? track.startAt, track: track, rate: rate)
                    if samples.isEmpty { continue }
                }
            case .needInput:
                try supply(track.input)
                continue
            case .finished:
                // A play from the item's start whose decoder never produced a sample is broken media, not
                // a silent item (after a seek, the rest of the track may rightly be empty). An audio track
                // with no packet at all beside a video track is an empty track (some recorders write one):
                // the item plays its pictures with silence, as other players do.
                let emptyBesideVideo = hasVideo && !track.input.decoder.receivedPacket
                if track.startAt == 0 && !track.input.decoder.producedFrame && !emptyBesideVideo {
                    throw track.input.decoder.nothingDecoded("the audio track yielded no sample").at(path)
                }
                track.decoderFinished = true
                try checkComplete(
                    reachedTime: track.startAt + Double(track.emitted) / rate, declaredEnd: audioCheckEnd)
                samples = try track.converter.drain()
            }
            var count = samples.count / channels
            try lookAhead(past: track.startAt + Double(track.emitted + Int64(count)) / rate)
            if let endFrames = audioEndFrame(track, rate: rate), track.emitted + Int64(count) > endFrames {
                count = Int(max(0, endFrames - track.emitted))
                samples.removeLast(samples.count - count * channels)
            }
            track.emitted += Int64(count)
            if count > 0 { return samples }
        }
    }

    /// The frame (counted from `startAt`) at which the item's audio stops, when known.
    private func audioEndFrame(_ track: AudioTrack, rate: Double) -> Int64? {
        let cut = learnedEnd.map { min(timing.audioCut ?? $0, $0) } ?? timing.audioCut
        // Clamped: a hostile declared end (1e300 s) must not trap the conversion.
        return cut.map { Int64(clamping: (($0 - track.startAt) * rate).rounded()) }
    }

    /// Places the first decoded chunk on the item timeline: samples before `startAt` are cut (a window
    /// start or a seek lands inside a frame); a late audio start in a file with video is filled with
    /// silence so sound and picture stay in sync.
    private func align(_ samples: [Float], startingAt itemTime: Double, track: AudioTrack, rate: Double) -> [Float] {
        let channels = options.channels
        let offset = Int(((itemTime - track.startAt) * rate).rounded())
        if offset < 0 {
            let drop = min(-offset, samples.count / channels)
            if drop == samples.count / channels { return [] }  // wholly before the start: keep aligning
            track.aligned = true
            return Array(samples[(drop * channels)...])
        }
        track.aligned = true
        if offset > 0 && hasVideo {
            return [Float](repeating: 0, count: min(offset, Int(rate)) * channels) + samples
        }
        return samples
    }
}

extension Int64 {
    /// The nearest Int64 to a Double, NaN as 0: for frame counts computed from times a file declares.
    init(clamping value: Double) {
        if value.isNaN {
            self = 0
        } else if value >= 9.2e18 {
            self = .max
        } else if value <= -9.2e18 {
            self = .min
        } else {
            self.init(value)
        }
    }
}
