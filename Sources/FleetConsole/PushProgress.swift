// How far a pushed rev has got on one screen, from what the screen reported: what the page shows per member
// while a push lands. Pure.

import Fleet
import JSONText

public enum PushProgress: Sendable, Equatable {
    /// Not applied yet and nothing said about it (the screen may not have seen it).
    case pending
    /// Its job is downloading or applying: how many of how many files.
    case downloading(complete: Int, total: Int)
    case applied
    /// A newer rev (the screen's own document, or a later push) is applied instead.
    case superseded(Int64)
    case refused(String)
    /// The screen is offline: it takes the rev when it comes back.
    case offline

    public init(rev: Int64, screen: ScreenState) {
        let reported = screen.reported
        if let applied = reported?.appliedRev, applied == rev {
            self = .applied
        } else if let applying = reported?.applying, applying.rev == rev {
            self = .downloading(complete: applying.progress.complete, total: applying.progress.total)
        } else if let error = reported?.error, error.hasPrefix("rev \(rev) ("), error.contains(") refused: ") {
            self = .refused(error)
        } else if let applied = reported?.appliedRev, applied > rev {
            self = .superseded(applied)
        } else if screen.online == false {
            self = .offline
        } else {
            self = .pending
        }
    }

    public var json: JSONValue {
        switch self {
        case .pending: ["state": "pending"]
        case .downloading(let complete, let total):
            ["state": "downloading", "complete": .int(Int64(complete)), "total": .int(Int64(total))]
        case .applied: ["state": "applied"]
        case .superseded(let rev): ["state": "superseded", "rev": .int(rev)]
        case .refused(let reason): ["state": "refused", "reason": .string(reason)]
        case .offline: ["state": "offline"]
        }
    }
}
