// Which desired document a player should be showing, as decisions: the documents it has received (its own
// and its groups', retained, so all of them arrive again on every connect), the revision the daemon says it
// applied (kept with the queue across restarts), and the one being applied now. The player's own document
// wins over its groups' (the first listed group first); a document is applied when its `rev` is newer than
// the applied one — so an old retained document replayed after a reconnect or a restart changes nothing —
// or when the player's own document is withdrawn (an empty retained message), which hands the screen back
// to its groups. A document that cannot be read or applied is refused whole, its reason reported, and the
// screen goes on with what it had. Pure: owned by the bridge's work queue; returns what to do.

import JSONText

/// Where a desired document came from.
public enum DocumentSource: Hashable, Sendable, CustomStringConvertible {
    case player
    case group(String)

    public var description: String {
        switch self {
        case .player: "player"
        case .group(let name): "group \(name)"
        }
    }
}

/// What the owner does after a decision.
public enum FleetStep: Equatable, Sendable {
    /// Download the document's network items, then swap the queue and settings (then `applyFinished`).
    case apply(DesiredDocument, from: DocumentSource)
    /// Something the `reported` document shows changed: publish it (at most once a second).
    case report
}

public struct DesiredState: Sendable {
    /// The player's groups, in precedence order.
    public let groups: [String]
    /// The readable documents received, by source.
    public private(set) var documents: [DocumentSource: DesiredDocument] = [:]
    /// The revision the daemon has applied (`appliedRev` of player.status); nil until the daemon said.
    public private(set) var appliedRev: Int64?
    /// Being applied now (downloads, then the swap); nothing else starts meanwhile.
    public private(set) var applying: (document: DesiredDocument, source: DocumentSource)?
    /// Why the last document was refused (unreadable, or the daemon refused it); nil after a success.
    public private(set) var error: String?
    /// A document that failed to apply, not tried again until a newer one comes.
    private var refused: (rev: Int64, source: DocumentSource)?
    /// The player's own document was withdrawn: the groups' choice applies even if its rev is not newer.
    private var handedBack = false
    /// The daemon has said what it applied: nothing is applied before (a restart must not re-apply).
    private var daemonKnown = false

    public init(groups: [String]) {
        self.groups = groups
    }

    /// The document that should be showing: the player's own, else the first group's that has one.
    public var chosen: (document: DesiredDocument, source: DocumentSource)? {
        if let own = documents[.player] { return (own, .player) }
        for group in groups {
            if let document = documents[.group(group)] { return (document, .group(group)) }
        }
        return nil
    }

    /// The revision waiting to be applied (being applied, or chosen and newer than the applied one).
    public var pendingRev: Int64? {
        if let applying { return applying.document.rev }
        guard let chosen, wantsApplying(chosen) else { return nil }
        return chosen.document.rev
    }

    /// A retained message arrived on a desired topic: an empty payload withdraws that source's document.
    public mutating func received(_ payload: [UInt8], from source: DocumentSource) -> [FleetStep] {
        if payload.isEmpty {
            guard documents.removeValue(forKey: source) != nil else { return [] }
            if source == .player { handedBack = true }
            return next() + [.report]
        }
        do {
            let document = try DesiredDocument(bytes: payload)
            guard documents[source] != document else { return [] }
            documents[source] = document
            return next() + [.report]
        } catch {
            self.error = "\(source) document refused: \(error.reason)"
            return [.report]
        }
    }

    /// The daemon said which revision it has applied (at connect, and in every status).
    public mutating func daemonApplied(_ rev: Int64?) -> [FleetStep] {
        guard rev != appliedRev || !daemonKnown else { return [] }
        daemonKnown = true
        appliedRev = rev
        return next() + [.report]
    }

    /// The document being applied was applied (`failure` nil) or refused by the daemon or its downloads.
    public mutating func applyFinished(failure: String?) -> [FleetStep] {
        guard let (document, source) = applying else { return [] }
        applying = nil
        if let failure {
            error = "rev \(document.rev) (\(source)) refused: \(failure)"
            refused = (document.rev, source)
        } else {
            error = nil
            refused = nil
            appliedRev = document.rev
            if source != .player { handedBack = false }
        }
        return next() + [.report]
    }

    /// Starts applying the chosen document if it should be and nothing is being applied.
    private mutating func next() -> [FleetStep] {
        guard daemonKnown, applying == nil, let chosen, wantsApplying(chosen)
        else { return [] }
        applying = chosen
        return [.apply(chosen.document, from: chosen.source)]
    }

    private func wantsApplying(_ chosen: (document: DesiredDocument, source: DocumentSource)) -> Bool {
        if let refused, refused.rev == chosen.document.rev, refused.source == chosen.source { return false }
        guard let appliedRev else { return true }
        if chosen.document.rev > appliedRev { return true }
        // Handed back to the groups: their document applies even if the player's own had a higher rev.
        return handedBack && chosen.source != .player && chosen.document.rev != appliedRev
    }
}
