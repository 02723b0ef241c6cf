// The argument of `queuectl seek`: "[+|-]SECONDS" or "[+|-]m:ss" → player.seek params. A sign makes the
// seek relative to the current position, as in mpc; no sign is an absolute position in the item.

import QueueRPC

public struct SeekTarget: Sendable, Equatable {
    /// Seconds: the position, or the offset (negative = backwards) when `relative`.
    public var seconds: Double
    public var relative: Bool

    public init(seconds: Double, relative: Bool) {
        self.seconds = seconds
        self.relative = relative
    }

    /// nil for text that is neither form ("abc", "1:75", "", "+").
    public init?(_ text: String) {
        var body = Substring(text)
        var sign = 0.0
        if body.first == "+" { sign = 1 } else if body.first == "-" { sign = -1 }
        if sign != 0 { body = body.dropFirst() }
        guard let value = DurationFormat.parse(String(body)) else { return nil }
        self.init(seconds: sign == 0 ? value : sign * value, relative: sign != 0)
    }

    /// The player.seek params it stands for.
    public var params: API.PlayerSeek.Params {
        API.PlayerSeek.Params(position: seconds, relative: relative)
    }
}
