// What DesiredState asks its owner (the bridge's work queue) to do. Each job — the application of one
// document — has a number, so an answer from a job that was cancelled or superseded meanwhile is recognised
// and dropped.

public enum FleetStep: Equatable, Sendable {
    /// Start job `job` for this document: checked, its network files fetched, then applied in one request.
    /// It answers with `applyProgress` (as it goes) and `applyFinished` (once).
    case apply(DesiredDocument, from: DocumentSource, job: Int)
    /// Stop job `job` at its next check (between polls); it has been superseded. Its answer is ignored.
    case cancel(job: Int)
    /// Call `retryDue(job:)` after this wait: the job's document failed for a reason that may pass.
    case retry(after: Duration, job: Int)
    /// Something the `reported` document shows changed: publish it (at most once a second).
    case report
}
