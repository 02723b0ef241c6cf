// How a stream's URI is read (no daemon): which kind it is, that the doors count it as a network item,
// that its password never shows, and how `queuectl add --duration` reads a length.

import MediaPaths
import QueuectlPresentation
import Testing

@Suite struct StreamURITests {
    @Test func theKindsAreReadFromSchemeAndPath() {
        let cases: [(String, StreamKind?)] = [
            ("rtsp://127.0.0.1/live", .rtsp), ("RTSPS://127.0.0.1/live", .rtsp), ("rtmp://127.0.0.1/app/key", .rtmp),
            ("rtmps://127.0.0.1/app", .rtmp), ("srt://127.0.0.1:9000?mode=caller", .srt), ("udp://127.0.0.1:5000", .udp),
            ("rtp://127.0.0.1:5004", .rtp), ("https://127.0.0.1/live/index.m3u8?token=1", .hls),
            ("http://127.0.0.1/manifest.MPD", .dash), ("https://127.0.0.1/clip.mp4", nil), ("/srv/a.m3u8", nil),
            ("file:///srv/a.m3u8", nil), ("ftp://127.0.0.1/a.ts", nil), ("concat:a|b", nil),
        ]
        for (uri, kind) in cases { #expect(StreamKind(uri: uri) == kind, "\(uri)") }
        #expect(ItemURI.isNetwork("rtsp://127.0.0.1/live") && ItemURI.isNetwork("udp://127.0.0.1:5000"))
        #expect(!ItemURI.isNetwork("ftp://127.0.0.1/a.ts"))
    }

    @Test func passwordsAndSecretParametersAreHidden() {
        #expect(StreamKind.redacted("rtsp://admin:hunter2@127.0.0.1:554/s1") == "rtsp://***@127.0.0.1:554/s1")
        #expect(StreamKind.redacted("rtsp://a:b@c@host/x") == "rtsp://***@host/x")
        #expect(
            StreamKind.redacted("srt://127.0.0.1:9000?mode=caller&passphrase=topsecret1&latency=200")
                == "srt://127.0.0.1:9000?mode=caller&passphrase=***&latency=200")
        #expect(StreamKind.redacted("https://127.0.0.1/live.m3u8?token=abc") == "https://127.0.0.1/live.m3u8?token=***")
        #expect(StreamKind.redacted("srt://127.0.0.1:9000?passphrase=topsecret1#frag") == "srt://127.0.0.1:9000?passphrase=***#frag")
        #expect(StreamKind.redacted("udp://127.0.0.1:5000") == "udp://127.0.0.1:5000")
        // An @ after the host (in the path) is not a user.
        #expect(StreamKind.redacted("rtsp://127.0.0.1/a@b") == "rtsp://127.0.0.1/a@b")
    }

    /// What FFmpeg would read from a udp, rtp or srt URL's query: only a receiver's options, sizes bounded;
    /// never a listening SRT socket.
    @Test func streamOptionsInTheQueryAreBounded() {
        let fine = [
            "udp://127.0.0.1:5000?localaddr=127.0.0.1&sources=127.0.0.1&fifo_size=200000&overrun_nonfatal=1",
            "srt://127.0.0.1:9000?mode=caller&latency=200000&passphrase=abcdefghij&streamid=#!::r=live",
            "rtp://127.0.0.1:5004", "rtsp://127.0.0.1/live?tcp", "https://127.0.0.1/live.m3u8?token=a&b=c",
        ]
        for uri in fine { #expect(StreamKind(uri: uri)?.queryRefusal(uri) == nil, "\(uri)") }
        let refused = [
            "srt://127.0.0.1:9000?mode=listener", "srt://127.0.0.1:9000?mode=rendezvous",
            "udp://127.0.0.1:5000?fifo_size=100000000", "udp://127.0.0.1:5000?buffer_size=1000000000",
            "udp://127.0.0.1:5000?localport=22&connect=1", "rtp://127.0.0.1:5004?bitrate=1", "srt://127.0.0.1:1?latency=-1",
        ]
        for uri in refused { #expect(StreamKind(uri: uri)?.queryRefusal(uri) != nil, "\(uri)") }
    }

    @Test func lengthsAreReadAsPeopleWriteThem() {
        let cases: [(String, Double?)] = [
            ("90", 90), ("1:30", 90), ("10m", 600), ("2h", 7200), ("45s", 45), ("1h30m", 5400), ("1.5h", 5400),
            ("1m1m", nil), ("10x", nil), ("m", nil), ("-5m", nil), ("", nil), ("10m5", nil),
        ]
        for (text, seconds) in cases { #expect(DurationFormat.parseSpan(text) == seconds, "\(text)") }
    }
}
