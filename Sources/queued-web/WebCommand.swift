// queued-web's command line and config file (`queued-web.conf`, the same `option=value` lines as queued's;
// the command line wins). Sign-in needs the access token, made at first start into a file only its owner
// may read and never printed unasked (a service's stderr is its journal): `--show-token` shows it — or a
// password whose bcrypt hash the operator stored (`--password-hash-file`; `queued-web --hash-password` makes
// one). There is no default password. Listening beyond loopback without TLS is refused unless the operator
// says how it is protected (`--behind-https`) or that it is not (`--insecure-listen`).

import ArgumentParser
import ConfigFile
import Dispatch
import Foundation
import HummingbirdBcrypt
import Logging
import MediaPaths
import WebControl

struct WebCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "queued-web",
        abstract: "A web page to run a queued screen: what plays, the queue, uploads, a live preview.",
        discussion: """
            One more client of the daemon's control socket. Listens on 127.0.0.1:8080 unless told otherwise; \
            every page and request needs a sign-in (the access token, or a password stored as a bcrypt hash). \
            Beyond loopback it listens only behind an https:// reverse proxy (--behind-https) or when told \
            --insecure-listen.
            """)

    @Option(help: ArgumentHelp("Address and port to listen on (beyond loopback: with --behind-https or --insecure-listen).", valueName: "addr:port"))
    var listen = "127.0.0.1:8080"

    @Option(help: ArgumentHelp("The daemon's control socket (default: as queuectl finds it).", valueName: "path"))
    var socket: String?

    @Option(help: ArgumentHelp("Where uploads go (default: media beside the daemon's state).", valueName: "dir"))
    var mediaDir: String?

    @Option(help: ArgumentHelp("The access token's file (default: web-token in the daemon's state directory).", valueName: "file"))
    var tokenFile: String?

    @Option(help: ArgumentHelp("A file holding a bcrypt hash of the sign-in password (mode 0600).", valueName: "file"))
    var passwordHashFile: String?

    @Option(help: ArgumentHelp("A host name the page may be reached by, besides IP addresses and this machine's name (repeat).", valueName: "name"))
    var allowHost: [String] = []

    @Option(help: ArgumentHelp("Largest upload in MiB.", valueName: "MiB"))
    var uploadLimit: Int = 4096

    @Option(help: ArgumentHelp("The most the media folder may hold, in MiB (default: no quota).", valueName: "MiB"))
    var mediaQuota: Int?

    @Flag(help: "The page is reached through an https:// reverse proxy (secure cookie, https origin, HSTS).")
    var behindHttps = false

    @Flag(help: "Listen beyond loopback without TLS all the same (the token and passwords cross the network in clear).")
    var insecureListen = false

    @Flag(help: "Print the access token and exit.")
    var showToken = false

    @Flag(help: "Read a password on standard input, print its bcrypt hash and exit.")
    var hashPassword = false

    @Option(help: ArgumentHelp("Read options from this file (default: queued-web.conf in the usual places).", valueName: "file"))
    var config: String?

    @Flag(help: "Read no config file.")
    var noConfig = false

    @Option(help: ArgumentHelp("trace, debug, info, notice, warning, error.", valueName: "level"))
    var logLevel: String = "info"

    func validate() throws {
        guard parsedListen != nil else { throw ValidationError("--listen takes ADDRESS:PORT, e.g. 127.0.0.1:8080 or [::1]:8080") }
        guard (1...1_048_576).contains(uploadLimit) else { throw ValidationError("--upload-limit takes 1 to 1048576 MiB") }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("unknown --log-level \(logLevel)") }
        if let mediaQuota, !(1...(1 << 30)).contains(mediaQuota) {
            throw ValidationError("--media-quota takes 1 to \(1 << 30) MiB")
        }
        if let host = parsedListen?.host, !ListenAddress.isLoopback(host), !behindHttps, !insecureListen, !showToken, !hashPassword {
            throw ValidationError(
                "refusing to listen on \(listen) without TLS: the sign-in token and session cookies would cross the "
                    + "network in clear. Put the page behind an https:// reverse proxy and say --behind-https (README "
                    + "\"A web page\"), keep --listen on 127.0.0.1, or say --insecure-listen to accept the risk.")
        }
    }

    var parsedListen: (host: String, port: Int)? { ListenAddress.parse(listen) }

    static var stateDirectory: String { StatePath.default(environment: ProcessInfo.processInfo.environment) }

    /// Main thread: waits while the server runs on Swift's concurrency threads (a ParsableCommand, because
    /// an async root command called with arguments from a config file would take the synchronous path).
    func run() throws {
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        Task {
            do { try await serve() } catch { outcome.error = error }
            done.signal()
        }
        done.wait()
        if let error = outcome.error { throw error }
    }

    private final class Outcome: @unchecked Sendable {
        /// Written by the server task before `done` is signalled, read after.
        var error: (any Error)?
    }

    func serve() async throws {
        if hashPassword {
            guard let password = readLine(strippingNewline: true), !password.isEmpty else {
                throw ValidationError("no password on standard input")
            }
            print(Bcrypt.hash(password, cost: 12))
            return
        }
        let tokenPath = tokenFile ?? Self.stateDirectory + "/web-token"
        let (token, made) = try AccessToken.loadOrMake(path: tokenPath)
        if showToken {
            print(token)
            return
        }
        var logger = Logger(label: "queued-web")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        if made {
            // Never the token itself: a service's stderr is its journal, readable by more than its owner.
            logger.notice("made an access token in \(tokenPath) (only its owner may read it): `queued-web --show-token` shows it")
        }
        if let host = parsedListen?.host, !ListenAddress.isLoopback(host), insecureListen, !behindHttps {
            logger.warning(
                "listening on \(listen) without TLS (--insecure-listen): anyone on the network can read the token and session cookies")
        }
        OpenFiles.raiseLimit(logger: logger)
        var access = AccessKey.token(token)
        if let passwordHashFile {
            let hash = try AccessToken.readPrivate(path: passwordHashFile).trimmingCharacters(in: .whitespacesAndNewlines)
            guard hash.hasPrefix("$2") else { throw ValidationError("\(passwordHashFile) holds no bcrypt hash") }
            access = .passwordHash(hash, token: token)
        }
        let socketPath = try SocketPath.resolve(explicit: socket, environment: ProcessInfo.processInfo.environment)
        let (host, port) = parsedListen!
        var settings = WebSettings(mediaDirectory: mediaDir ?? Self.stateDirectory + "/media", access: access)
        settings.host = host
        settings.port = port
        settings.hosts = HostPolicy(allowed: allowHost)
        settings.uploads.maxBytes = Int64(uploadLimit) << 20
        settings.uploads.quotaBytes = mediaQuota.map { Int64($0) << 20 }
        settings.secureOrigin = behindHttps
        // Room for the connection cap, the daemon's sockets and the uploads' files under the open-files limit.
        settings.maxConnections = max(64, min(settings.maxConnections, OpenFiles.softLimit - 64))
        let link = DaemonLink(socketPath: socketPath, confinement: settings.callerPolicy.confinement)
        let application = WebServer.application(settings: settings, link: link, logger: logger) { port in
            // A line tests and scripts can wait for (the port is the real one when --listen asked for 0).
            FileHandle.standardError.write(Data("queued-web: listening on \(host):\(port)\n".utf8))
        }
        try await application.runService()
    }
}

/// The access token's file: made once (32 random bytes, mode 0600), then read; refused if others may read it.
enum AccessToken {
    static func loadOrMake(path: String) throws -> (token: String, made: Bool) {
        if FileManager.default.fileExists(atPath: path) {
            let token = try readPrivate(path: path).trimmingCharacters(in: .whitespacesAndNewlines)
            guard token.count >= 16 else { throw ValidationError("\(path) holds no usable token") }
            return (token, false)
        }
        let token = AccessKey.makeToken()
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw ValidationError("cannot create \(path): \(String(cString: strerror(errno)))") }
        let line = Array((token + "\n").utf8)
        let written = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        fsync(fd)
        close(fd)
        guard written == line.count else { throw ValidationError("cannot write \(path)") }
        return (token, true)
    }

    /// A secret file's text; refused unless only its owner may read it.
    static func readPrivate(path: String) throws -> String {
        do throws(ConfigFile.ParseError) {
            try ConfigFile.checkPrivate(path: path)
        } catch {
            throw ValidationError(error.description)
        }
        return try String(contentsOfFile: path, encoding: .utf8)
    }
}
