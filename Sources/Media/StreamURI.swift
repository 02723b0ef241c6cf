// How each kind of stream (MediaPaths' StreamKind) is opened: the protocols it may use (a tight whitelist
// per scheme, never `file` — an HLS playlist must not reach the disk or `concat:`), the formats it may be,
// and the options that bound its waits.
//
// Why these options (Debian 12's FFmpeg 5.1; see the issue-38 notes): rtsp's `timeout` is a socket timeout
// in µs, but rtmp's `timeout` means *listen* — never set it there; RTSP over TCP, since UDP first costs a
// hard-coded 10 s before FFmpeg falls back; UDP's overrun must not end the item; HLS's own reload loop
// waits up to 1,000 reloads on a frozen playlist, so it is cut to a few.

import MediaPaths

extension StreamKind {
    /// FFmpeg's protocols this kind may use, its own included (nested ones too: rtsp runs over tcp).
    var protocolWhitelist: String {
        switch self {
        case .rtsp: "rtsp,rtsps,rtp,srtp,udp,tcp,tls"
        case .rtmp: "rtmp,rtmps,tcp,tls"
        case .srt: "srt"
        case .udp: "udp"
        case .rtp: "rtp,udp"
        case .hls: "http,https,tcp,tls,crypto,hls"
        case .dash: "http,https,tcp,tls,dash"
        }
    }

    /// The demuxers the kind may end up in (HLS and DASH pass theirs on to the segments' demuxers).
    var formatWhitelist: String {
        switch self {
        case .rtsp: "rtsp"
        case .rtmp: "flv,live_flv"
        case .srt, .udp: "mpegts"
        case .rtp: "rtp,rtp_mpegts,mpegts"
        case .hls: "hls,mpegts,mov,mp4,m4a,3gp,3g2,mj2,aac,mp3,ac3,eac3,webvtt"
        case .dash: "dash,mov,mp4,m4a,3gp,3g2,mj2,matroska,webm"
        }
    }

    /// Options for `avformat_open_input`. Our own deadline (StreamInterrupt) bounds every wait anyway;
    /// these keep FFmpeg's own loops from hiding a drop for minutes inside one read.
    var openOptions: [(String, String)] {
        // Our deadline (StreamInterrupt) decides when a stream is down, so the protocols' own timeouts are
        // longer (20 s, as a backstop). A second of analysis finds the tracks of a stream with a keyframe a second (most encoders' live
        // settings); FFmpeg's 5 s (and FLV's 90 s) would be the first picture's wait.
        var options: [(String, String)] = [("fflags", "+discardcorrupt"), ("analyzeduration", "1000000")]
        switch self {
        case .rtsp:
            options += [("rtsp_transport", "tcp"), ("timeout", "20000000"), ("max_delay", "500000")]
        case .rtmp:
            options += [("rtmp_live", "live")]  // never `timeout`: on rtmp it means listen
        case .srt:
            options += [
                ("mode", "caller"), ("connect_timeout", "3000"), ("timeout", "20000000"), ("transtype", "live"), ("scan_all_pmts", "1"),
            ]
        case .udp, .rtp:
            options += [
                ("overrun_nonfatal", "1"), ("fifo_size", "100000"), ("timeout", "20000000"), ("scan_all_pmts", "1"),
            ]
        case .hls:
            options += [("m3u8_hold_counters", "6"), ("rw_timeout", "10000000"), ("http_persistent", "1")]
        case .dash:
            options += [("rw_timeout", "10000000")]
        }
        return options
    }
}
