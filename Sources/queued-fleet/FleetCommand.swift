// queued-fleet's command line: which broker (the operator's credentials), where the page listens, the users
// file, the store, the alert rules and their webhook, the thumbnails' schedule. A program of its own, not a
// mode of queued-web: it runs on any machine (not a screen), talks to the broker rather than a socket, keeps a
// store of its own and has several users with roles, where queued-web is one screen's page with one key.
// `--add-user NAME --role ROLE` reads a password on standard input, stores its hash and exits: the first
// admin is made so, and there is no default password.

import ArgumentParser
import ConfigFile
import Dispatch
import FleetConsole
import FleetStore
import Foundation
import Logging
import MQTT
import WebControl

struct FleetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "queued-fleet",
        abstract: "A web page to run a fleet of queued screens through an MQTT broker.",
        discussion: """
            Every screen at a glance, pushes to a group and their progress, rollbacks, commands, proof-of-play \
            reports, alerts by webhook. It reads and writes only the broker (as queuectl fleet does) and keeps \
            the proof-of-play records and the pushed documents in an SQLite file. Listens on 127.0.0.1:8090 \
            unless told otherwise; beyond loopback only behind an https:// proxy (--behind-https) or with \
            --insecure-listen. Make the first user with --add-user NAME --role admin (password on stdin).
            """)

    @Option(help: ArgumentHelp("The broker: mqtt://host[:port] or mqtts://host[:port].", valueName: "url"))
    var broker: String?

    @Option(help: ArgumentHelp("A file of username= and password= lines for the broker, mode 0600.", valueName: "file"))
    var credentials: String?

    @Option(help: ArgumentHelp("CA certificates to trust for mqtts:// (PEM).", valueName: "file"))
    var ca: String?

    @Option(help: ArgumentHelp("The console's MQTT client id: the broker keeps the records sent while it is away under it (default: queued-fleet-HOST). Give each console on one broker its own.", valueName: "id"))
    var clientId: String?

    @Option(help: ArgumentHelp("Prefix of every topic.", valueName: "prefix"))
    var topicPrefix: String = "queued/"

    @Option(help: ArgumentHelp("Address and port to listen on.", valueName: "addr:port"))
    var listen = "127.0.0.1:8090"

    @Option(help: ArgumentHelp("Where the users file and the store live (default: ~/.local/state/queued-fleet or $STATE_DIRECTORY).", valueName: "dir"))
    var stateDir: String?

    @Option(help: ArgumentHelp("The users file: name:role:bcrypt-hash lines (default: users in the state directory).", valueName: "file"))
    var users: String?

    @Option(help: ArgumentHelp("The SQLite store (default: fleet.sqlite in the state directory).", valueName: "file"))
    var store: String?

    @Option(help: ArgumentHelp("Alerts go to this URL as JSON POSTs.", valueName: "url"))
    var webhook: String?

    @Option(help: ArgumentHelp("Alerts also go by mail through this SMTP server: smtp://host[:port] (STARTTLS when offered) or smtps://host[:port].", valueName: "url"))
    var smtp: String?

    @Option(help: ArgumentHelp("The alerts' sender address.", valueName: "address"))
    var mailFrom: String = "queued-fleet@localhost"

    @Option(help: ArgumentHelp("Where alert mails go (repeat).", valueName: "address"))
    var mailTo: [String] = []

    @Option(help: ArgumentHelp("username= and password= lines for the SMTP server, mode 0600.", valueName: "file"))
    var smtpCredentials: String?

    @Flag(help: "Send no mail without TLS (STARTTLS or smtps://).")
    var smtpRequireTls = false

    @Option(help: ArgumentHelp("Alert when a screen is offline this many minutes (0: never).", valueName: "min"))
    var offlineAlert: Double = 10

    @Option(help: ArgumentHelp("Alert when an online screen sends no play for this many minutes.", valueName: "min"))
    var noPlayAlert: Double?

    @Option(help: ArgumentHelp("Alert when a screen's free disk falls under this percentage.", valueName: "percent"))
    var diskAlert: Double?

    @Flag(help: "No alert for a refused rev.")
    var noRefusedAlert = false

    @Option(help: ArgumentHelp("Ask every online screen for a screenshot this often: 30s, 5m, 1h (0: only on click).", valueName: "interval"))
    var thumbnails: String = "5m"

    @Option(help: ArgumentHelp("A host name the page may be reached by, besides IP addresses and this machine's name (repeat).", valueName: "name"))
    var allowHost: [String] = []

    @Flag(help: "The page is reached through an https:// reverse proxy (secure cookie, https origin, HSTS).")
    var behindHttps = false

    @Flag(help: "Listen beyond loopback without TLS all the same.")
    var insecureListen = false

    @Option(help: ArgumentHelp("Add (or change) this user, reading the password on stdin, and exit.", valueName: "name"))
    var addUser: String?

    @Option(help: ArgumentHelp("The role --add-user gives: viewer, operator, admin.", valueName: "role"))
    var role: String = "viewer"

    @Option(help: ArgumentHelp("Read options from this file (default: queued-fleet.conf in the usual places).", valueName: "file"))
    var config: String?

    @Flag(help: "Read no config file.")
    var noConfig = false

    @Option(help: ArgumentHelp("trace, debug, info, notice, warning, error.", valueName: "level"))
    var logLevel: String = "info"

    func validate() throws {
        guard parsedListen != nil else { throw ValidationError("--listen takes ADDRESS:PORT, e.g. 127.0.0.1:8090") }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("unknown --log-level \(logLevel)") }
        guard Role(rawValue: role) != nil else { throw ValidationError("--role takes viewer, operator or admin") }
        guard thumbnailSeconds != nil else { throw ValidationError("--thumbnails takes 0 or a duration: 30s, 5m, 1h") }
        if addUser == nil {
            guard let broker, broker.hasPrefix("mqtt://") || broker.hasPrefix("mqtts://") else {
                throw ValidationError("--broker must be mqtt://host[:port] or mqtts://host[:port]")
            }
        }
        if let smtp {
            guard smtp.hasPrefix("smtp://") || smtp.hasPrefix("smtps://") else {
                throw ValidationError("--smtp takes smtp://host[:port] or smtps://host[:port]")
            }
            guard !mailTo.isEmpty else { throw ValidationError("--smtp needs --mail-to") }
        }
        for address in mailTo + [mailFrom] where !Self.isMailAddress(address) {
            throw ValidationError("not a mail address: \(address)")
        }
        if let webhook, !(webhook.hasPrefix("http://") || webhook.hasPrefix("https://")) {
            throw ValidationError("--webhook takes an http(s) URL")
        }
        if let host = parsedListen?.host, !ListenAddress.isLoopback(host), !behindHttps, !insecureListen, addUser == nil {
            throw ValidationError(
                "refusing to listen on \(listen) without TLS: passwords and session cookies would cross the network in "
                    + "clear. Put the page behind an https:// reverse proxy and say --behind-https, keep --listen on "
                    + "127.0.0.1, or say --insecure-listen to accept the risk.")
        }
    }

    var parsedListen: (host: String, port: Int)? { ListenAddress.parse(listen) }

    /// name@domain with nothing an SMTP command or a header could be broken by.
    static func isMailAddress(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty && text.utf8.count <= 254
            && !text.utf8.contains { $0 <= 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: ",") }
    }

    var thumbnailSeconds: Double? {
        if thumbnails == "0" { return 0 }
        guard let unit = thumbnails.last, let number = Double(thumbnails.dropLast()), number > 0 else { return nil }
        let seconds: Double
        switch unit {
        case "s": seconds = number
        case "m": seconds = number * 60
        case "h": seconds = number * 3600
        default: return nil
        }
        // At least 10 s between sweeps, however it is written.
        return max(10, seconds)
    }

    var stateDirectory: String {
        let environment = ProcessInfo.processInfo.environment
        if let stateDir { return stateDir }
        if let systemd = environment["STATE_DIRECTORY"], !systemd.isEmpty { return systemd }
        let home = environment["XDG_STATE_HOME"] ?? ((environment["HOME"] ?? "/tmp") + "/.local/state")
        return home + "/queued-fleet"
    }

    func run() throws {
        try FileManager.default.createDirectory(atPath: stateDirectory, withIntermediateDirectories: true)
        let usersPath = users ?? stateDirectory + "/users"
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        Task {
            do {
                if let addUser {
                    guard let password = readLine(strippingNewline: true), !password.isEmpty else {
                        throw ValidationError("no password on standard input")
                    }
                    try await ConsoleUsers(path: usersPath).set(name: addUser, role: Role(rawValue: role)!, password: password)
                    print("queued-fleet: \(addUser) is a\(role == "admin" || role == "operator" ? "n" : "") \(role) in \(usersPath)")
                } else {
                    try await serve(usersPath: usersPath)
                }
            } catch { outcome.error = error }
            done.signal()
        }
        done.wait()
        if let error = outcome.error { throw error }
    }

    private final class Outcome: @unchecked Sendable {
        /// Written by the task before `done` is signalled, read after.
        var error: (any Error)?
    }

    func serve(usersPath: String) async throws {
        var logger = Logger(label: "queued-fleet")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        let people = try ConsoleUsers(path: usersPath)
        guard await !people.list.isEmpty else {
            throw ValidationError("nobody can sign in: add a user first with `queued-fleet --add-user NAME --role admin` (password on stdin)")
        }
        var brokerCredentials = Credentials()
        if let credentials {
            do { brokerCredentials = try Credentials.read(path: credentials) } catch { throw ValidationError(error.description) }
        }
        let configuration = try MQTTConfiguration(
            url: broker!, clientID: clientId ?? "queued-fleet-\(ProcessInfo.processInfo.hostName.prefix(40))",
            username: brokerCredentials.username, password: brokerCredentials.password,
            tls: ca.map { MQTTConfiguration.TLS(caFile: $0) })
        let fleetStore = try FleetStore(path: store ?? stateDirectory + "/fleet.sqlite")
        let link = try FleetLink(configuration: configuration, prefix: topicPrefix, store: fleetStore, logger: logger)
        let rules = AlertRules(
            offlineMinutes: offlineAlert > 0 ? offlineAlert : nil, refusedRev: !noRefusedAlert, noPlayMinutes: noPlayAlert,
            diskBelowPercent: diskAlert)
        var mail: MailSettings?
        if let smtp {
            var settings = MailSettings(url: smtp, from: mailFrom, to: mailTo)
            settings.requireTLS = smtpRequireTls
            if let smtpCredentials {
                do {
                    let read = try Credentials.read(path: smtpCredentials)
                    settings.username = read.username
                    settings.password = read.password
                } catch { throw ValidationError(error.description) }
            }
            mail = settings
        }
        let alerter = Alerter(link: link, rules: rules, webhook: webhook, mail: mail, logger: logger)
        let console = Console(link: link, store: fleetStore, users: people, alerter: alerter)
        link.start()
        let (host, port) = parsedListen!
        var settings = ConsoleSettings()
        settings.host = host
        settings.port = port
        settings.hosts = HostPolicy(allowed: allowHost)
        settings.secureOrigin = behindHttps
        let application = ConsoleServer.application(settings: settings, console: console, logger: logger) { port in
            FileHandle.standardError.write(Data("queued-fleet: listening on \(host):\(port)\n".utf8))
        }
        let alerts = Task { await alerter.run() }
        let interval = thumbnailSeconds ?? 0
        let pictures = Task {
            guard interval > 0 else { return }
            while !Task.isCancelled {
                await Thumbnails.takeAll(link: link, parallel: settings.parallelCalls)
                try? await Task.sleep(for: .seconds(interval))
            }
        }
        defer {
            alerts.cancel()
            pictures.cancel()
            link.stop()
        }
        try await application.runService()
    }
}
