// What the socket tells subscribers, from its three sources, each its own type: the engine's events
// (PlayerEvent: only what the engine decides), the outputs' news (an audio server lost or back) and the
// network cache's news per item. All three reach EventHub through one `publish`, so every connection
// sees them in the order they were published.

import CacheControl
import Playback
import QueueRPC
import QueueModel

public enum DaemonEvent: Sendable {
    case engine(PlayerEvent)
    /// An event of another zone's engine than main's (sent with `zone`).
    case zoned(String, PlayerEvent)
    /// An output was lost or found again (e.g. the PulseAudio server went away and playback goes on the
    /// system clock, or it came back and sound resumes).
    case output(OutputChange)
    /// News of a network item's download (per item using the URL).
    case cache(id: ItemID, news: CacheNews)
    /// A play's proof-of-play record was kept (PlayLog; the JSON the plays.* methods give).
    case played(JSONValue)
    /// An output rule's MQTT message (Triggers' OutputRunner), for the fleet bridge to publish.
    case outputMessage(topic: String, payload: String)
}
