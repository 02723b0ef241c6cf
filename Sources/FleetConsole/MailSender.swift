// Alerts by e-mail: one message per notice through the operator's SMTP server (`--smtp`), sent with libcurl
// (CMail: STARTTLS when the server offers it — required with `--smtp-require-tls` — AUTH with the credentials
// file's username and password). Hand-written SMTP was not an option worth its risk; libcurl's is kept by
// Debian. Threads: `send` blocks (up to its timeout) and runs on the Alerter's detached tasks, never under a lock.

import CMail
import Foundation

public struct MailSettings: Sendable {
    /// smtp://host[:port] or smtps://host[:port].
    public var url: String
    public var from: String
    public var to: [String]
    public var username: String?
    public var password: String?
    public var requireTLS = false
    public var caFile: String?

    public init(url: String, from: String, to: [String]) {
        self.url = url
        self.from = from
        self.to = to
    }
}

public enum MailSender {
    /// Sends `subject` and `body` (plain text); throws with the server's or libcurl's reason.
    public static func send(_ settings: MailSettings, subject: String, body: String, timeout: Int = 30) throws(ConsoleError) {
        let date = DateFormatter()
        date.locale = Locale(identifier: "en_US_POSIX")
        date.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        // Header values never carry a line break: a screen's id or a reason cannot add a header.
        func clean(_ text: String) -> String { text.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ") }
        let lines = [
            "Date: \(date.string(from: Date()))", "From: \(clean(settings.from))", "To: \(settings.to.map(clean).joined(separator: ", "))",
            "Subject: \(clean(subject))", "Message-ID: <\(UUID().uuidString)@queued-fleet>", "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=utf-8", "Content-Transfer-Encoding: 8bit", "",
        ] + body.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // No dot-stuffing here: libcurl escapes a line's leading dot itself. Every line ends CRLF, none bare CR.
        let message = Array(lines.joined(separator: "\r\n").utf8) + Array("\r\n".utf8)
        let recipients = settings.to.map { strdup("<\(clean($0))>") }
        defer { recipients.forEach { free($0) } }
        var error = [CChar](repeating: 0, count: 512)
        let rc: Int32 = settings.url.withCString { url in
            "<\(clean(settings.from))>".withCString { from in
                message.withUnsafeBufferPointer { bytes in
                    recipients.map { UnsafePointer($0) }.withUnsafeBufferPointer { list in
                        withOptional(settings.username) { username in
                            withOptional(settings.password) { password in
                                withOptional(settings.caFile) { ca in
                                    var mail = qd_mail(
                                        url: url, username: username, password: password, from: from,
                                        recipients: list.baseAddress, recipient_count: list.count,
                                        message: UnsafeRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self),
                                        message_length: bytes.count, require_tls: settings.requireTLS ? 1 : 0,
                                        timeout_seconds: timeout, ca_file: ca)
                                    return qd_mail_send(&mail, &error, error.count)
                                }
                            }
                        }
                    }
                }
            }
        }
        guard rc == 0 else { throw ConsoleError("mail not sent: \(String(cString: error))") }
    }

    private static func withOptional<T>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> T) -> T {
        guard let text else { return body(nil) }
        return text.withCString { body($0) }
    }
}
