// Which desired document a player should be showing, as decisions: the documents it has received (its own
// and its groups', retained, so all of them arrive again on every connect), the revision the daemon says it
// applied (kept with the queue across restarts), and the job applying one now. The player's own document
// wins over its groups' (the first listed group first); a document is applied when its `rev` is newer than
// the applied one — so an old retained document replayed after a reconnect or a restart changes nothing —
// or when the player's own document is withdrawn (an empty retained message), which hands the screen back
// to its groups. A newer choice while a job runs cancels it and starts its own. A job that fails for a
// reason that may pass (a server down, a download cut) is tried again with backoff (RetryBackoff), the rev
// pending meanwhile; one that can never succeed (ApplyFailure.permanent) is refused whole, its reason
// reported, and the screen goes on with what it had. Pure: owned by the bridge's work queue; returns steps.

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

public struct DesiredState: Sendable {
    /// One document on its way: being applied by job `job`, or waiting to be tried again.
    public struct Attempt: Sendable, Equatable {
        public var document: DesiredDocument
        public var source: DocumentSource
        public var job: Int
    }

    /// The player's groups, in precedence order.
    public let groups: [String]
    /// The readable documents received, by source.
    public private(set) var documents: [DocumentSource: DesiredDocument] = [:]
    /// The revision the daemon has applied (`appliedRev` of player.status); nil until the daemon said.
    public private(set) var appliedRev: Int64?
    /// The job running now; nothing else starts meanwhile.
    public private(set) var applying: Attempt?
    /// The document whose last attempt failed for a reason that may pass, until its retry is due.
    public private(set) var waiting: Attempt?
    /// How far the running (or waiting) job has got; nil when none is.
    public private(set) var progress: ApplyProgress?
    /// Why the last document was refused or is not applied yet; nil after a success.
    public private(set) var error: String?
    /// A document refused for good, not tried again until a newer one comes.
    private var refused: (rev: Int64, source: DocumentSource)?
    /// The retry waits of the document being tried (reset when another document starts).
    private var backoff = RetryBackoff()
    private var backoffFor: (rev: Int64, source: DocumentSource)?
    /// The player's own document was withdrawn: the groups' choice applies even if its rev is not newer.
    private var handedBack = false
    /// The daemon has said what it applied: nothing is applied before (a restart must not re-apply).
    private var daemonKnown = false
    private var lastJob = 0

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

    /// The revision waiting to be applied (being applied, waiting for a retry, or chosen and newer).
    public var pendingRev: Int64? {
        if let applying { return applying.document.rev }
        if let waiting { return waiting.document.rev }
        guard let chosen, wantsApplying(chosen) else { return nil }
        return chosen.document.rev
    }

    /// A retained message arrived on a desired topic: an empty payload withdraws that source's document.
    public mutating func received(_ payload: [UInt8], from source: DocumentSource) -> [FleetStep] {
        if payload.isEmpty {
            guard documents.removeValue(forKey: source) != nil else { return [] }
            if source == .player { handedBack = true }
            return reconsider() + [.report]
        }
        do {
            let document = try DesiredDocument(bytes: payload)
            guard documents[source] != document else { return [] }
            documents[source] = document
            return reconsider() + [.report]
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
        return reconsider() + [.report]
    }

    /// Job `job` got further.
    public mutating func applyProgress(job: Int, _ progress: ApplyProgress) -> [FleetStep] {
        guard applying?.job == job, self.progress != progress else { return [] }
        self.progress = progress
        return [.report]
    }

    /// Job `job` ended. Answers of a job cancelled meanwhile change nothing.
    public mutating func applyFinished(job: Int, _ outcome: ApplyOutcome) -> [FleetStep] {
        guard let attempt = applying, attempt.job == job else { return [] }
        applying = nil
        progress = nil
        let document = attempt.document
        switch outcome {
        case .applied:
            error = nil
            refused = nil
            backoffFor = nil
            appliedRev = document.rev
            if attempt.source != .player { handedBack = false }
        case .cancelled:
            break
        case .failed(let failure) where failure.permanent:
            error = "rev \(document.rev) (\(attempt.source)) refused: \(failure.reason)"
            refused = (document.rev, attempt.source)
            backoffFor = nil
        case .failed(let failure):
            var random = SystemRandomNumberGenerator()
            let delay = backoff.nextDelay(using: &random)
            let seconds = Double(delay / .milliseconds(100)).rounded() / 10
            error =
                "rev \(document.rev) (\(attempt.source)) not applied yet: \(failure.reason)"
                + " (attempt \(backoff.failures); trying again in \(seconds) s)"
            waiting = attempt
            progress = ApplyProgress(stage: .waiting)
            return [.retry(after: delay, job: job), .report]
        }
        return next() + [.report]
    }

    /// The wait of `retry(after:job:)` is over: that document is tried again if it is still the one to apply.
    public mutating func retryDue(job: Int) -> [FleetStep] {
        guard waiting?.job == job else { return [] }
        waiting = nil
        progress = nil
        return next() + [.report]
    }

    /// After a change of documents or of the applied rev: cancels a job (or a retry) whose document is no
    /// longer the one to apply, then starts the chosen one if it should be.
    private mutating func reconsider() -> [FleetStep] {
        var steps: [FleetStep] = []
        if let running = applying, !isStillWanted(running) {
            steps.append(.cancel(job: running.job))
            applying = nil
            progress = nil
        }
        if let waiting, !isStillWanted(waiting) {
            self.waiting = nil
            progress = nil
        }
        return steps + next()
    }

    private func isStillWanted(_ attempt: Attempt) -> Bool {
        guard let chosen else { return false }
        return chosen.source == attempt.source && chosen.document == attempt.document
    }

    /// Starts applying the chosen document if it should be and nothing is running or waiting.
    private mutating func next() -> [FleetStep] {
        guard daemonKnown, applying == nil, waiting == nil, let chosen, wantsApplying(chosen) else { return [] }
        if backoffFor?.rev != chosen.document.rev || backoffFor?.source != chosen.source {
            backoff = RetryBackoff()
            backoffFor = (chosen.document.rev, chosen.source)
        }
        lastJob += 1
        applying = Attempt(document: chosen.document, source: chosen.source, job: lastJob)
        progress = nil
        return [.apply(chosen.document, from: chosen.source, job: lastJob)]
    }

    private func wantsApplying(_ chosen: (document: DesiredDocument, source: DocumentSource)) -> Bool {
        if let refused, refused.rev == chosen.document.rev, refused.source == chosen.source { return false }
        guard let appliedRev else { return true }
        if chosen.document.rev > appliedRev { return true }
        // Handed back to the groups: their document applies even if the player's own had a higher rev.
        return handedBack && chosen.source != .player && chosen.document.rev != appliedRev
    }
}
