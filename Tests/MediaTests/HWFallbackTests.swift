// A hardware decode that gives up while its item plays goes on in software, on real FFmpeg decodes ("fallback
// tested": there is no device here, so the watched decoder decodes in software and the test plays the
// device's part, telling its monitor what a failing device would). Three errors in a row after pictures were
// shown: software starts at the next keyframe, later pictures keep their times, the item plays to its end.
// No first picture yet: the packets sent so far go again to the software decoder, and nothing is lost.

import CFFmpeg
import DecodeChoice
import TestSupport
import Testing

@testable import Media

@Suite struct HWFallbackTests {
    /// A reader whose video decoder is watched as if it were on `method` (VA-API unless said); the reasons it
    /// gave up go to `failures`.
    func watchedReader(
        _ path: String, failures: Failures, method: HWMethod = .vaapi, firstPictureTimeout: Double = 3600
    ) throws -> (MediaReader, Decoder.HardwareSession) {
        let reader = try MediaReader(path: path)
        let track = try #require(reader.video)
        let stream = reader.demuxer.stream(track.input.index)
        let codec = try #require(avcodec_find_decoder(stream.pointee.codecpar.pointee.codec_id))
        let (decoder, session) = try Decoder.watchedSoftware(
            stream: stream, codec: codec, path: path, method: method, firstPictureTimeout: firstPictureTimeout,
            failed: { failures.reasons.append($0) })
        track.input.replaceDecoder(decoder, replay: [], skipToKeyframe: false)
        return (reader, session)
    }

    func allPictures(_ reader: MediaReader) throws -> [Double] {
        var times: [Double] = []
        while let frame = try reader.readVideo() { times.append(frame.pts) }
        return times
    }

    /// The times of the video's keyframes, from its packets' flags.
    func keyframeTimes(_ path: String) throws -> [Double] {
        let reader = try MediaReader(path: path)
        let index = try #require(reader.video).input.index
        let base = av_q2d(reader.demuxer.stream(index).pointee.time_base)
        var times: [Double] = []
        while let packet = try reader.demuxer.readPacket() {
            guard packet.streamIndex == index, packet.pointer.pointee.flags & AV_PKT_FLAG_KEY != 0 else { continue }
            times.append(Double(packet.pointer.pointee.pts) * base - reader.origin)
        }
        return times
    }

    @Test func threeErrorsMidItemRestartAtTheNextKeyframeAndThePlayGoesOn() throws {
        // 2 s at 25 fps, a keyframe at least every 10 pictures (x264 adds some where the picture changes).
        let clip = try Fixtures.video(seconds: 2, fps: 25, hue: .green, keyframeInterval: 10)
        let reference = try allPictures(MediaReader(path: clip))
        #expect(reference.count == 50)

        let failures = Failures()
        let (reader, session) = try watchedReader(clip, failures: failures)
        var times: [Double] = []
        for _ in 0..<13 { times.append(try #require(try reader.readVideo()).pts) }
        for _ in 0..<3 { session.take(.decodeError("Input/output error")) }
        #expect(failures.reasons == ["vaapi: 3 decode errors in a row (last: Input/output error)"])
        let resumed = try allPictures(reader)
        times += resumed

        let change = try #require(reader.takeDecodingChange())
        #expect(change.hwdec == nil && change.codec == "h264")
        #expect(change.fallback == "vaapi: 3 decode errors in a row (last: Input/output error)")
        #expect(reader.takeDecodingChange() == nil, "told once")
        // Software picked up at a keyframe (a multiple of 0.4 s) after the last picture handed out, and every
        // picture from there to the end is there, at the times the file gives.
        let first = try #require(resumed.first)
        #expect(first > times[12])
        let keyframes = try keyframeTimes(clip)
        #expect(keyframes.contains { abs($0 - first) < 1e-6 }, "resumed at \(first) s, keyframes at \(keyframes)")
        #expect(
            keyframes.filter { $0 > times[12] + 1e-6 && $0 < first - 1e-6 }.count <= 1,
            "at most the keyframe already sent to the device is passed over")
        let index = try #require(reference.firstIndex { abs($0 - first) < 1e-6 })
        #expect(resumed == Array(reference[index...]))
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "times only go forward")
    }

    @Test func givingUpBeforeTheFirstPictureReplaysWhatWasSentAndLosesNothing() throws {
        let clip = try Fixtures.video(seconds: 1, fps: 25, hue: .blue)
        let reference = try allPictures(MediaReader(path: clip))
        #expect(reference.count == 25)

        let failures = Failures()
        let (reader, session) = try watchedReader(clip, failures: failures)
        let track = try #require(reader.video)
        // Packets go to the "device", which gives no picture and then fails three times. Twelve offers without
        // taking a picture out: a decoder that is full refuses some (EAGAIN), and only those it took are kept.
        for _ in 0..<12 { try reader.supply(track.input) }
        let kept = session.sentBeforeFirstPicture
        #expect(!kept.isEmpty && kept.count < 12, "the full decoder refused some offers")
        #expect(Set(kept.map(ObjectIdentifier.init)).count == kept.count, "a refused packet is not kept twice")
        let waiting = try #require(track.input.packets.first, "the refused packet waits its turn")
        #expect(!kept.contains { $0 === waiting }, "and is not kept until it is taken")
        for _ in 0..<3 { session.take(.decodeError("Invalid data found when processing input")) }
        #expect(track.input.decoder.softwareWanted?.resume == .replayPackets)

        let times = try allPictures(reader)
        #expect(times == reference, "every picture, from the first")
        #expect(reader.takeDecodingChange()?.fallback?.hasPrefix("vaapi: 3 decode errors in a row") == true)
        #expect(failures.reasons.count == 1)
    }

    @Test func noFirstPictureInTimeFallsBackWithThatReason() throws {
        let clip = try Fixtures.video(seconds: 0.4, fps: 25, hue: .red)
        let failures = Failures()
        // A timeout of 0: the first time the decoder has nothing to give, the time is up.
        let (reader, _) = try watchedReader(clip, failures: failures, method: .nvdec, firstPictureTimeout: 0)
        let times = try allPictures(reader)
        #expect(times.count == 10)
        #expect(failures.reasons == ["nvdec: no first picture within 0 s"])
        #expect(reader.takeDecodingChange()?.fallback == "nvdec: no first picture within 0 s")
    }

    @Test func aReplayTooLongToKeepStartsAtAKeyframeInstead() throws {
        let clip = try Fixtures.video(seconds: 1, fps: 25, hue: .green, keyframeInterval: 5)
        let failures = Failures()
        let (reader, session) = try watchedReader(clip, failures: failures)
        // More packets than a replay keeps were "sent" without a picture.
        let packet = try Packet()
        for index in 0...Decoder.HardwareSession.replayLimit { session.sent(packet, first: index == 0) }
        for _ in 0..<3 { session.take(.decodeError("Resource temporarily unavailable")) }
        #expect(session.wanted?.resume == .nextKeyframe)
        #expect(session.sentBeforeFirstPicture.isEmpty, "nothing kept past the limit")
        let times = try allPictures(reader)
        #expect(times.first == 0, "the file's first packet is a keyframe")
        #expect(times.count == 25)
    }

    @Test func ffmpegsOwnAV1DecoderIsTheDevicesAndARefusalReplaysIntoLibdav1d() throws {
        // FFmpeg picks libdav1d for AV1, which has no device configuration; the device needs FFmpeg's own
        // `av1` decoder, which cannot decode in software: when get_format finds no device format (as with a
        // profile the device refuses), the packets go again to libdav1d and every picture comes out.
        let clip = try Fixtures.make(
            "av1-1s.mkv",
            ["-f", "lavfi", "-i", "testsrc2=s=160x120:r=25:d=1", "-c:v", "libaom-av1", "-cpu-used", "8", "-g", "25"])
        let reference = try allPictures(MediaReader(path: clip))
        #expect(reference.count == 25)

        let reader = try MediaReader(path: clip)
        let track = try #require(reader.video)
        let stream = reader.demuxer.stream(track.input.index)
        let software = try #require(avcodec_find_decoder(stream.pointee.codecpar.pointee.codec_id))
        #expect(String(cString: software.pointee.name) == "libdav1d")
        let chosen = try #require(Decoder.deviceDecoder(for: stream, software: software, method: .vaapi))
        #expect(String(cString: chosen.codec.pointee.name) == "av1")
        #expect(chosen.format == AV_PIX_FMT_VAAPI)

        let failures = Failures()
        let (decoder, _) = try Decoder.watchedSoftware(
            stream: stream, codec: chosen.codec, softwareCodec: software, path: clip, method: .vaapi,
            firstPictureTimeout: 3600, failed: { failures.reasons.append($0) })
        track.input.replaceDecoder(decoder, replay: [], skipToKeyframe: false)
        #expect(try allPictures(reader) == reference)
        #expect(failures.reasons.count == 1)
        #expect(failures.reasons.first?.hasPrefix("vaapi refused") == true)
        let change = try #require(reader.takeDecodingChange())
        #expect(change.hwdec == nil && change.fallback?.hasPrefix("vaapi refused") == true)
    }
}

final class Failures: @unchecked Sendable {
    var reasons: [String] = []
}
