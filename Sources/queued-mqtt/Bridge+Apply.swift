// Carrying out DesiredState's steps on the work queue: a document to apply is read through the daemon's
// definitions here (DocumentPlan: refused at once, for good, if the daemon would refuse it) and handed to an
// ApplyJob of its own; a superseded job is cancelled; a failed one that may pass is tried again after the
// backoff DesiredState chose. The jobs' progress and endings come back here, so the work queue never waits
// for a download.

import Dispatch
import Fleet
import JSONText
import QueueRPC

extension Bridge {
    /// Work queue: carries out what DesiredState decided.
    func carryOut(_ steps: [FleetStep]) {
        for step in steps {
            switch step {
            case .report:
                reporting.changed = true
            case .apply(let document, let source, let job):
                startJob(job, document, from: source)
            case .cancel(let job):
                if let running = jobs[job] {
                    log.info("rev \(running.plan.rev): superseded, stopping its application")
                    running.cancel()
                }
            case .retry(let wait, let job):
                let seconds = Double(wait / .milliseconds(1)) / 1000
                work.asyncAfter(deadline: .now() + seconds) { [weak self] in
                    guard let self else { return }
                    carryOut(desired.retryDue(job: job))
                }
            }
        }
        reportIfDue(force: false)
    }

    /// Work queue: checks the document with the daemon's own rules, then starts its job.
    private func startJob(_ job: Int, _ document: DesiredDocument, from source: DocumentSource) {
        let plan: DocumentPlan
        do {
            plan = try DocumentPlan(document, policy: policy)
        } catch {
            log.warning("rev \(document.rev) from \(source) refused: \(error.message)")
            carryOut(desired.applyFinished(job: job, .failed(.invalidDocument(error.message))))
            return
        }
        log.info("applying rev \(document.rev) from \(source) (\(plan.downloads.count) files to fetch)")
        let running = ApplyJob(
            job: job, plan: plan, socketPath: socketPath, policy: policy,
            report: { [weak self] progress in self?.jobProgressed(job, progress) },
            finish: { [weak self] outcome, version in self?.jobFinished(job, outcome, version: version) })
        jobs[job] = running
        running.start()
    }

    /// Job thread: hands the progress to the work queue.
    private func jobProgressed(_ job: Int, _ progress: ApplyProgress) {
        work.async { self.carryOut(self.desired.applyProgress(job: job, progress)) }
    }

    /// Job thread: hands the ending to the work queue.
    private func jobFinished(_ job: Int, _ outcome: ApplyOutcome, version: Int64?) {
        work.async { self.jobEnded(job, outcome, version: version) }
    }

    /// Work queue.
    private func jobEnded(_ job: Int, _ outcome: ApplyOutcome, version: Int64?) {
        guard let running = jobs.removeValue(forKey: job) else { return }
        if let version { replacedVersion = max(replacedVersion ?? 0, version) }
        switch outcome {
        case .applied: log.info("applied rev \(running.plan.rev)")
        case .cancelled: log.info("rev \(running.plan.rev): stopped")
        case .failed(let failure):
            log.warning("rev \(running.plan.rev) \(failure.permanent ? "refused" : "not applied yet"): \(failure.reason)")
        }
        carryOut(desired.applyFinished(job: job, outcome))
    }
}
