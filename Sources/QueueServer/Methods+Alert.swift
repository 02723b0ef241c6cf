// alert.* methods: carried out by the daemon's AlertController, which keeps each change in the alert file
// before it is answered (on its own queue, never the event loop) and shows the alert on screen.

import Alerts
import Dispatch
import NIOCore
import QueueRPC
import SystemClock

extension Dispatcher {
    static func alertMethods(_ alerts: AlertController?) -> [RPCMethod] {
        @Sendable func listing(_ controller: AlertController) -> API.AlertListing {
            .init(alerts: controller.alerts.map { alert in
                .init(
                    id: alert.id, items: alert.items, text: alert.text, priority: Int64(alert.priority),
                    expires: alert.expires.map(AlertTime.text), raisedAt: AlertTime.text(alert.raisedAt))
            })
        }
        @Sendable func controller() throws(RPCError) -> AlertController {
            guard let alerts else { throw RPCError.badState("this daemon keeps no alerts") }
            return alerts
        }
        return [
            .answeringLater(API.AlertRaise.self) { (params: API.AlertRaise.Params, session: Session, loop: EventLoop) in
                let alerts = try controller()
                // The items are read now (a bad one is refused with its place, a confined caller's outside its
                // folders too) and again at each showing, from the same URIs.
                _ = try ItemInputs.mediaItems(params.items, confinement: session.confinement)
                var expires: Double?
                if let text = params.expires {
                    guard let seconds = AlertTime.seconds(text) else {
                        throw RPCError.invalidParams(param: "expires", reason: "an RFC 3339 time with its zone, e.g. 2026-11-29T18:00:00Z")
                    }
                    expires = seconds
                }
                let alert = Alert(
                    id: params.id, items: params.items.map(\.json), text: params.text, priority: Int(params.priority),
                    expires: expires, raisedAt: Monotonic.wallClock())
                let promise = loop.makePromise(of: API.AlertListing.self)
                alerts.raise(alert) { failure in
                    if let failure { promise.fail(RPCError.badState(failure)) } else { promise.succeed(listing(alerts)) }
                }
                return promise.futureResult
            },
            .answeringLater(API.AlertClear.self) { params, loop in
                let alerts = try controller()
                let promise = loop.makePromise(of: API.AlertClear.Result.self)
                alerts.clear(params.id) { result in
                    switch result {
                    case .success(let cleared): promise.succeed(.init(cleared: cleared, active: alerts.activeID))
                    case .failure(let failure): promise.fail(RPCError.badState(failure.description))
                    }
                }
                return promise.futureResult
            },
            .answering(API.AlertList.self, .query) { _, _ in listing(try controller()) },
        ]
    }
}
