// Polls CAP feeds over http(s) (async-http-client, the client the network cache uses) and hands each plan
// to the daemon. A feed that cannot be fetched or read changes nothing: its alerts stay until the next good
// poll, or their own expiry. One poll at a time per feed, every `interval` seconds.

import AsyncHTTPClient
import Dispatch
import FoundationEssentials
import Logging
import NIOCore
import QueueRPC

public final class CAPPoller: @unchecked Sendable {
    public let feeds: [String]
    private let interval: Double
    private let statuses: Set<String>
    private let logger: Logger
    /// The alert ids standing now.
    private let standing: @Sendable () -> [String]
    /// Carries a plan out (raises and clears), on the poller's own task.
    private let apply: @Sendable (CAPPlan) -> Void
    private var task: Task<Void, Never>?

    public init(
        feeds: [String], interval: Double, statuses: Set<String>, logger: Logger, standing: @escaping @Sendable () -> [String],
        apply: @escaping @Sendable (CAPPlan) -> Void
    ) {
        (self.feeds, self.interval, self.statuses, self.logger, self.standing, self.apply) = (feeds, interval, statuses, logger, standing, apply)
    }

    public func start() {
        guard !feeds.isEmpty else { return }
        task = Task { [self] in
            while !Task.isCancelled {
                for feed in feeds { await poll(feed) }
                try? await Task.sleep(nanoseconds: UInt64(interval * 1e9))
            }
        }
    }

    public func stop() { task?.cancel() }

    private func poll(_ feed: String) async {
        do {
            var request = HTTPClientRequest(url: feed)
            request.headers.add(name: "Accept", value: "application/cap+xml, application/atom+xml, application/xml, text/xml")
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(20))
            guard response.status == .ok else { throw CAPError("HTTP \(response.status.code)") }
            let body = try await response.body.collect(upTo: XMLReader.maximumBytes)
            let (alerts, skipped) = try CAPDocument.read(Array(buffer: body))
            for reason in skipped { logger.warning("CAP feed \(feed): an alert left out: \(reason)") }
            let plan = CAPPlan.plan(
                feed: feed, alerts: alerts, now: Date().timeIntervalSince1970, statuses: statuses, standing: standing())
            logger.debug("CAP \(feed): \(alerts.count) alerts, \(plan.raise.count) on screen, \(plan.clear.count) withdrawn")
            apply(plan)
        } catch {
            logger.warning("CAP feed \(feed) not read: \(error); its alerts stay as they were")
        }
    }
}
