// `--cap-feed URL`: CAP 1.2 feeds polled as a source of alerts (CAPFeed), carried out on the daemon's
// alerts: what a feed carries is raised (an unchanged alert is left as it is), what it cancels or no longer
// carries is withdrawn.

import Alerts
import CAPFeed
import FoundationEssentials
import Logging

enum CAPAlerts {
    static func poller(options: QueuedCommand, alerts: AlertController, logger: Logger) -> CAPPoller {
        let statuses = Set(options.capStatus.split(separator: ",").map { $0.prefix(1).uppercased() + $0.dropFirst().lowercased() })
        return CAPPoller(
            feeds: options.capFeeds, interval: options.capInterval, statuses: statuses, logger: logger,
            standing: { alerts.alerts.map(\.id) }
        ) { plan in
            for id in plan.clear {
                alerts.clear(id) { result in
                    if case .failure(let failure) = result { logger.error("CAP: \(id) not withdrawn: \(failure)") }
                }
            }
            let standing = alerts.alerts
            for raise in plan.raise {
                if let same = standing.first(where: { $0.id == raise.id }), same.text == raise.text, same.priority == raise.priority,
                    same.expires == raise.expires
                {
                    continue
                }
                let alert = Alert(
                    id: raise.id, items: [], text: raise.text, priority: raise.priority, expires: raise.expires,
                    raisedAt: Date().timeIntervalSince1970)
                alerts.raise(alert) { failure in
                    if let failure { logger.error("CAP: \(raise.id) not raised: \(failure)") }
                }
            }
        }
    }
}
