// `queuectl save`: the queue as an extended M3U playlist that `queuectl add` (the daemon's playlist
// expansion) reads back into the same items. Per entry, before its path:
//   #EXTINF:<seconds or -1>,<title>          the title (empty when none); the length as players expect it
//   #EXTVLCOPT:start-time=<s> / stop-time=<s> the play window, as VLC writes it
//   #EXTQUEUED:loops=<n>                     plays per pass (0 = forever), when not 1
//   #EXTQUEUED:track-end=<auto|shortest|longest>, when set
//   #EXTQUEUED:sha256=<hex>                  the digest an http(s) item's file must have, when set
//   #EXTQUEUED:schedule=days=mon,fri;from=09:00;until=17:00;start=…;end=…   when the item may play
//   #EXTQUEUED:transition=fade:1.5            how it is joined to the entry before it, when set
//   #EXTQUEUED:motion=auto (or x,y,w,h>x,y,w,h) a still's pan and zoom, when set
//   #EXTQUEUED:duration=<s>                  a stream's play time (what it plays for is its duration)
//   #EXTQUEUED:on-stall=<hold|black|skip> / program=<n> / latency=<s>   a stream's options, when set
// Other players skip the lines they do not know. A still's own display time is not kept (the Status and
// queue.list report the probed length, not whether one was set). Pure: items in, text out.

import MediaPaths

public enum ExtendedM3U {
    public static func render(_ items: [QueueItemView]) -> String {
        var lines = ["#EXTM3U"]
        for item in items {
            // A title is one line; a newline in it would start a bogus entry.
            let title = (item.title ?? "").split(whereSeparator: \.isNewline).joined(separator: " ")
            let length = item.duration.map { DurationFormat.decimal($0, maxFractionDigits: 3) } ?? "-1"
            lines.append("#EXTINF:\(length),\(title)")
            if let start = item.start { lines.append("#EXTVLCOPT:start-time=\(DurationFormat.seconds(start))") }
            if let end = item.end { lines.append("#EXTVLCOPT:stop-time=\(DurationFormat.seconds(end))") }
            if item.loops != 1 { lines.append("#EXTQUEUED:loops=\(item.loops)") }
            if let trackEnd = item.trackEnd { lines.append("#EXTQUEUED:track-end=\(trackEnd)") }
            if let sha256 = item.sha256 { lines.append("#EXTQUEUED:sha256=\(sha256)") }
            if let schedule = item.schedule { lines.append("#EXTQUEUED:schedule=\(schedule.playlistText)") }
            if let transition = item.transition { lines.append("#EXTQUEUED:transition=\(transition.text)") }
            if let motion = item.motion { lines.append("#EXTQUEUED:motion=\(motion.text)") }
            if StreamKind(uri: item.uri) != nil, let duration = item.duration {
                lines.append("#EXTQUEUED:duration=\(DurationFormat.seconds(duration))")
            }
            if let onStall = item.onStall { lines.append("#EXTQUEUED:on-stall=\(onStall)") }
            if let program = item.program { lines.append("#EXTQUEUED:program=\(program)") }
            if let latency = item.latency { lines.append("#EXTQUEUED:latency=\(DurationFormat.seconds(latency))") }
            lines.append(item.uri)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
