// A Status as the client shows it: the shared wire shape (QueueRPC.RPCStatus, decoded leniently: the
// defaults are what an idle daemon reports, so a partial object still renders), plus the current item it
// describes.

import QueueRPC

public typealias PlayerStatusView = RPCStatus

extension RPCStatus {
    /// The current item as the Status describes it, when it does (it carries a uri).
    public var currentItem: QueueItemView? {
        guard let currentId, let uri else { return nil }
        return QueueItemView(
            id: currentId, uri: uri, title: title, loops: loops ?? 1, plays: 0, duration: duration,
            state: state == "playing" || state == "paused" ? "playing" : "queued")
    }
}
