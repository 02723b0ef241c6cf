// The block `queuectl status` (and every transport command) prints, modelled on mpc's:
//   [playing] #3 clip.mp4 (play 2 of ∞)
//   0:42/2:10 (32%)  [##########----------------------]
//   volume: 80%  loop: forever  rate: 1.0
// Pure: status and item in, text out.

import QueueRPC

public enum StatusBlock {
    /// `item` is the current item when the caller could look it up (for its name and loop count); without
    /// it the first line shows only the id. No trailing newline.
    public static func render(_ status: PlayerStatusView, item: QueueItemView?, barWidth: Int = 32) -> String {
        var lines: [String] = []
        var head = "[\(status.state)]"
        if let id = status.currentId {
            head += " #\(id)"
            if let item {
                head += " \(item.displayName)"
                // The play count only says something when the item repeats.
                if item.loops != 1, status.play > 0 {
                    head += " (play \(status.play) of \(DurationFormat.loops(item.loops)))"
                }
            }
        }
        lines.append(head)
        if status.currentId != nil { lines.append(progressLine(status, barWidth: barWidth)) }
        var settings = "volume: \(status.volume)%"
        if status.muted { settings += " (muted)" }
        settings += "  loop: \(loopText(status.queueLoops))"
        settings += "  rate: \(DurationFormat.decimal(status.rate, maxFractionDigits: 2, minFractionDigits: 1))"
        lines.append(settings)
        if let error = status.error, !error.isEmpty { lines.append("error: \(error)") }
        if let stream = status.stream { lines.append(streamLine(stream)) }
        if let web = status.web {
            lines.append("web page: " + (web.title.map { "\"\($0)\" " } ?? "") + web.url + (web.loaded ? "" : " (loading)"))
        }
        if DisplayLine.isWorthAStatusLine(status.display) { lines.append(DisplayLine.render(status.display)) }
        return lines.joined(separator: "\n")
    }

    /// "stream: live, 2.4 Mbit/s, 1.2 s behind, 2 drops — down, reconnecting" for a stream item's play (", playing
    /// 0.5 % faster" after "behind" while its latency is brought back into its band).
    static func streamLine(_ stream: RPCStreamStatus) -> String {
        var text = "stream: " + (stream.live ? "live" : "on demand")
        if let bitrate = stream.bitrate, !stream.down {
            text += bitrate >= 1_000_000
                ? ", \(Double(bitrate / 100_000) / 10) Mbit/s" : ", \(bitrate / 1000) kbit/s"
        }
        if let latency = stream.latency, !stream.down {
            text += ", \(Double(Int((latency * 10).rounded())) / 10) s behind"
            // Brought back into its band (DriftCorrector): "playing 0.5 % faster".
            if let pace = stream.pace, pace != 1 {
                text += ", playing \(Double(Int((abs(pace - 1) * 1000).rounded())) / 10) % \(pace > 1 ? "faster" : "slower")"
            }
        }
        if stream.stalls > 0 { text += ", \(stream.stalls) drop\(stream.stalls == 1 ? "" : "s")" }
        if stream.down { text += " — down, reconnecting" }
        return text
    }

    /// "0:42/2:10 (32%)  [####----]", or just "0:42" when the duration is unknown (a live or odd file).
    static func progressLine(_ status: PlayerStatusView, barWidth: Int) -> String {
        let position = DurationFormat.clock(status.position)
        guard let duration = status.duration, duration > 0 else { return position }
        let fraction = min(1, max(0, status.position / duration))
        let percent = Int((fraction * 100).rounded(.down))
        return "\(position)/\(DurationFormat.clock(duration)) (\(percent)%)  \(bar(fraction, width: barWidth))"
    }

    /// A text progress bar of `width` cells between brackets.
    public static func bar(_ fraction: Double, width: Int) -> String {
        let cells = max(1, width)
        let clamped = fraction.isFinite ? min(1, max(0, fraction)) : 0
        let filled = Int((clamped * Double(cells)).rounded(.down))
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: cells - filled) + "]"
    }

    /// Queue passes as `queuectl loop` takes them: 1 → "off", 0 → "forever", N → "N".
    public static func loopText(_ queueLoops: Int64) -> String {
        switch queueLoops {
        case 0: return "forever"
        case 1: return "off"
        default: return String(queueLoops)
        }
    }
}
