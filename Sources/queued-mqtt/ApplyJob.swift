// One desired document being applied, on a thread and a daemon connection of its own, so the bridge's work
// queue keeps answering requests, reporting and delivering plays meanwhile: fed a checked DocumentPlan by the
// work queue, it has the daemon fetch the document's http(s) files (`cache.fetch`, polled twice a second),
// reports how far it got, then swaps everything in and reports how it ended. Cancellable: a newer document
// stops it at its next check (the wait between polls wakes at once), and a cancelled job never swaps. It must
// never touch the bridge's state: everything it learns goes to the work queue through `report`/`finish`.

import CallerPolicy
import Fleet
import FoundationEssentials
import Glibc
import JSONText
import QueueClient
import QueueRPC
import SystemSupport

final class ApplyJob: @unchecked Sendable {
    let job: Int
    let plan: DocumentPlan
    private let socketPath: String
    /// Confines the job's connection: a document names no more than a request could.
    private let policy: CallerPolicy
    /// Called on the job's thread; they hand over to the work queue.
    private let report: @Sendable (ApplyProgress) -> Void
    private let finish: @Sendable (ApplyOutcome, _ version: Int64?) -> Void
    /// Guards `cancelled`; the job's wait between polls waits on it.
    private let condition = ThreadCondition()
    /// Guarded by condition.
    private var cancelled = false
    /// One swap at a time, in the order the jobs reach it: a job superseded while its swap is on the wire
    /// finishes it before its successor's begins, so the newer document is always the last one applied.
    private static let swapLock = ThreadLock()
    /// How long downloads may make no progress at all before the attempt counts as failed (and is retried).
    static let stallLimit = 300.0
    static let pollInterval = 0.5

    init(
        job: Int, plan: DocumentPlan, socketPath: String, policy: CallerPolicy, report: @escaping @Sendable (ApplyProgress) -> Void,
        finish: @escaping @Sendable (ApplyOutcome, Int64?) -> Void
    ) {
        self.job = job
        self.plan = plan
        self.socketPath = socketPath
        self.policy = policy
        self.report = report
        self.finish = finish
    }

    /// Work queue: starts the job's thread.
    func start() {
        Threads.start(named: "queued-mqtt.apply") { [self] in
            let (outcome, version) = run()
            finish(outcome, version)
        }
    }

    /// Any thread: the job stops at its next check and never swaps.
    func cancel() {
        condition.withLock {
            cancelled = true
            condition.broadcast()
        }
    }

    private var isCancelled: Bool { condition.withLock { cancelled } }

    /// Job thread: waits `seconds` unless cancelled first; true if cancelled.
    private func pause(_ seconds: Double) -> Bool {
        let limit = Date(timeIntervalSinceNow: seconds)
        return condition.withLock {
            while !cancelled, limit.timeIntervalSinceNow > 0 { _ = condition.wait(seconds: limit.timeIntervalSinceNow) }
            return cancelled
        }
    }

    /// Job thread.
    private func run() -> (ApplyOutcome, Int64?) {
        let client: QueueClient
        do {
            client = try .confined(socketPath: socketPath, confinement: policy.confinement, timeout: 30)
        } catch {
            return (.failed(.transport("the daemon did not answer: \(error)")), nil)
        }
        defer { client.close() }
        do throws(ClientError) {
            if let failure = try download(client) { return (failure, nil) }
            return try Self.swapLock.withLock { () throws(ClientError) -> (ApplyOutcome, Int64?) in
                if isCancelled { return (.cancelled, nil) }
                report(ApplyProgress(stage: .swapping, complete: plan.downloads.count, total: plan.downloads.count))
                let version = try plan.apply(with: client)
                let status = try client.call(API.PlayerStatus.self, NoParams())
                if status.state == "idle" || status.state == "stopped" { _ = try client.call(API.PlayerPlay.self, .init()) }
                // Every zone the document gave a queue plays it, as main does.
                for zone in (plan.params.zones ?? [:]).keys.sorted() {
                    client.zone = zone
                    defer { client.zone = nil }
                    let zoneStatus = try client.call(API.PlayerStatus.self, NoParams())
                    if zoneStatus.state == "idle" || zoneStatus.state == "stopped" {
                        _ = try client.call(API.PlayerPlay.self, .init())
                    }
                }
                return (.applied, version)
            }
        } catch {
            if case .rpc(let rpcError) = error {
                return (.failed(.daemonRefused(code: rpcError.code, message: rpcError.message)), nil)
            }
            return (.failed(.transport("the daemon did not answer: \(error)")), nil)
        }
    }

    /// Has the daemon fetch the plan's files and waits until each is complete (with its digest, if the
    /// document gives one); nil when all are, else how the attempt ended.
    private func download(_ client: QueueClient) throws(ClientError) -> ApplyOutcome? {
        guard !plan.downloads.isEmpty else { return nil }
        var lastBytes: Int64 = -1
        var lastProgress = Date()
        while true {
            if isCancelled { return .cancelled }
            let result = try client.call(API.CacheFetch.self, .init(uris: plan.downloads, sha256: plan.digests))
            // A first digest mismatch is fetched again by the daemon ("…; fetching it again"): not an end yet.
            if let failed = result.items.first(where: {
                $0.cache.state == "error" && !($0.cache.error ?? "").hasSuffix("fetching it again")
            }) {
                return .failed(.download(uri: failed.uri, error: failed.cache.error ?? "download failed"))
            }
            let complete = result.items.filter { $0.cache.state == "complete" }.count
            report(ApplyProgress(stage: .downloading, complete: complete, total: plan.downloads.count))
            if complete == plan.downloads.count { return nil }
            let bytes = result.items.reduce(0) { $0 + $1.cache.bytes }
            if bytes != lastBytes {
                lastBytes = bytes
                lastProgress = Date()
            } else if -lastProgress.timeIntervalSinceNow > Self.stallLimit {
                return .failed(.transport("the downloads made no progress for \(Int(Self.stallLimit)) s"))
            }
            if pause(Self.pollInterval) { return .cancelled }
        }
    }
}
