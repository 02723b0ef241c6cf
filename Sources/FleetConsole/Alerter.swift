// The alerts' owner: every few seconds it judges the roster against the rules (AlertBook, pure) and sends
// each notice — raised once, recovered once — as a JSON POST to the operator's webhook and as a mail, in the
// order they happened (one sender each, a notice tried again with backoff while its receiver is down, so a
// recovery never arrives before its alert). The log of recent notices is what the page's alerts list
// shows. Threads: an actor; the roster is read through FleetLink's lock; HTTP runs on AsyncHTTPClient's loop.

import AsyncHTTPClient
import Foundation
import JSONText
import Logging
import NIOCore
import NIOPosix

public actor Alerter {
    private let link: FleetLink
    private let rules: AlertRules
    private let webhook: String?
    private let mail: MailSettings?
    private let logger: Logger
    private var book: AlertBook
    private var recent: [AlertNotice] = []
    private let http = HTTPClient(eventLoopGroupProvider: .singleton)
    /// The notices waiting for each sender, in order.
    private let hooks: AsyncStream<AlertNotice>.Continuation
    private let hookQueue: AsyncStream<AlertNotice>
    private let mails: AsyncStream<AlertNotice>.Continuation
    private let mailQueue: AsyncStream<AlertNotice>
    /// Notices kept for the page.
    static let recentLimit = 200

    public init(link: FleetLink, rules: AlertRules, webhook: String?, mail: MailSettings? = nil, logger: Logger) {
        self.link = link
        self.rules = rules
        self.webhook = webhook
        self.mail = mail
        self.logger = logger
        book = AlertBook(watchingSince: Date().timeIntervalSince1970)
        (hookQueue, hooks) = AsyncStream.makeStream(of: AlertNotice.self)
        (mailQueue, mails) = AsyncStream.makeStream(of: AlertNotice.self)
    }

    /// Runs until cancelled, judging every `interval` seconds.
    public func run(interval: Double = 2) async {
        let (webhook, mail, logger, hookQueue, mailQueue) = (self.webhook, self.mail, self.logger, self.hookQueue, self.mailQueue)
        let senders = [
            Task { for await notice in hookQueue { if let webhook { await self.send(notice, to: webhook) } } },
            Task.detached { for await notice in mailQueue { if let mail { await Self.mail(notice, with: mail, logger: logger) } } },
        ]
        while !Task.isCancelled {
            evaluate()
            try? await Task.sleep(for: .seconds(interval))
        }
        hooks.finish()
        mails.finish()
        for sender in senders { sender.cancel() }
        try? await http.shutdown()
    }

    func evaluate() {
        let now = Date().timeIntervalSince1970
        let roster = link.withRoster { $0 }  // a copy on write: the lock is held only for the copy
        let notices = book.evaluate(roster, rules: rules, now: now)
        guard !notices.isEmpty else { return }
        recent = Array((recent + notices).suffix(Self.recentLimit))
        for notice in notices {
            logger.notice("alert \(notice.state.rawValue): \(notice.alert.kind.rawValue) on \(notice.alert.player): \(notice.detail)")
            if webhook != nil { hooks.yield(notice) }
            if mail != nil { mails.yield(notice) }
        }
    }

    public var active: [AlertNotice] { book.active.values.sorted { $0.at < $1.at } }
    public var log: [AlertNotice] { recent }

    /// One message per notice, up to 6 tries over about a minute (libcurl blocks: a detached task's thread).
    private static func mail(_ notice: AlertNotice, with settings: MailSettings, logger: Logger) async {
        let subject = "queued: \(notice.alert.player) \(notice.alert.kind.rawValue) \(notice.state.rawValue)"
        let body = [
            "Screen: \(notice.alert.player)", "Alert: \(notice.alert.kind.rawValue), \(notice.state.rawValue)", notice.detail,
            "At: \(Date(timeIntervalSince1970: notice.at))",
        ].joined(separator: "\n")
        var delay = 2.0
        for attempt in 1...6 {
            do {
                // libcurl blocks for up to its timeout: on the I/O pool, never on a task thread.
                try await NIOThreadPool.singleton.runIfActive { try MailSender.send(settings, subject: subject, body: body) }
                return
            } catch {
                logger.warning("alert mail: \(error) (try \(attempt))")
            }
            try? await Task.sleep(for: .seconds(delay))
            delay = min(delay * 2, 30)
        }
        logger.error("alert not delivered by mail: \(notice.alert.kind.rawValue) on \(notice.alert.player)")
    }

    /// Up to 6 tries over about a minute; then the notice is logged as not delivered.
    private func send(_ notice: AlertNotice, to url: String) async {
        var delay = 2.0
        for attempt in 1...6 {
            var request = HTTPClientRequest(url: url)
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.headers.add(name: "User-Agent", value: "queued-fleet")
            request.body = .bytes(ByteBuffer(bytes: JSON.serialize(notice.json)))
            do {
                let response = try await http.execute(request, timeout: .seconds(10))
                if (200..<300).contains(Int(response.status.code)) { return }
                logger.warning("webhook answered HTTP \(response.status.code) (try \(attempt))")
            } catch {
                logger.warning("webhook not reached: \(error) (try \(attempt))")
            }
            try? await Task.sleep(for: .seconds(delay))
            delay = min(delay * 2, 30)
        }
        logger.error("alert not delivered to the webhook: \(notice.alert.kind.rawValue) on \(notice.alert.player)")
    }
}
