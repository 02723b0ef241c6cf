// queued-mqtt's command line and config file (`queued-mqtt.conf`, the same `option=value` lines as queued's,
// command line wins): which broker, who this player is, its groups, credentials and TLS, and the daemon's
// socket. The credentials file holds `username=` and `password=` lines and is refused unless only its owner
// may read it (mode 0600), so a password never sits in a world-readable file or on a command line.

import ArgumentParser
import CallerPolicy
import ConfigFile
import Fleet
import FoundationEssentials
import Glibc
import SystemSupport
import MQTT
import MediaPaths

struct BridgeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "queued-mqtt",
        abstract: "Connect a queued screen to a fleet through an MQTT broker.",
        discussion: """
            Publishes the screen's status (retained, with a Last Will), its reported state and one proof-of-play \
            record per play; applies the desired-state documents of the player and its groups; forwards JSON-RPC \
            requests to the daemon. Talks to the daemon only through its control socket. Topics and payloads: \
            Protocol/queued.asyncapi.yaml.
            """)

    @Option(help: ArgumentHelp("The broker: mqtt://host[:port] or mqtts://host[:port].", valueName: "url"))
    var broker: String

    @Option(help: ArgumentHelp("This player's id in topics (default: the host name).", valueName: "id"))
    var player: String?

    @Option(help: ArgumentHelp("A group this player belongs to; repeat for several (the first wins).", valueName: "name"))
    var group: [String] = []

    @Option(help: ArgumentHelp("A file of username= and password= lines, mode 0600.", valueName: "file"))
    var credentials: String?

    @Option(help: ArgumentHelp("CA certificates to trust for mqtts:// (PEM).", valueName: "file"))
    var ca: String?

    @Option(help: ArgumentHelp("Client certificate for mqtts:// (PEM).", valueName: "file"))
    var cert: String?

    @Option(help: ArgumentHelp("Client key for mqtts:// (PEM).", valueName: "file"))
    var key: String?

    @Option(help: ArgumentHelp("Seconds between keepalives (the broker declares us offline after 1.5 ×).", valueName: "s"))
    var keepalive: Int = 30

    @Option(help: ArgumentHelp("Prefix of every topic.", valueName: "prefix"))
    var topicPrefix: String = "queued/"

    @Option(help: ArgumentHelp("The daemon's control socket (default: as queuectl finds it).", valueName: "path"))
    var socket: String?

    @Option(
        help: ArgumentHelp(
            "Methods the fleet may call through rpc/req: a name, family.* or * (repeat; default: all but plays.ack and events.*).",
            valueName: "pattern"))
    var rpcAllow: [String] = []

    @Option(help: ArgumentHelp("Methods the fleet may not call through rpc/req, even if allowed (repeat).", valueName: "pattern"))
    var rpcDeny: [String] = []

    @Flag(help: "Let the fleet (requests and desired documents) name local files too (default: only network items: http(s) and streams).")
    var rpcLocalFiles = false

    @Option(help: ArgumentHelp("The disk whose free space the fleet sees (default: /).", valueName: "path"))
    var disk: String = "/"

    @Option(help: ArgumentHelp("Read options from this file (default: queued-mqtt.conf in the usual places).", valueName: "file"))
    var config: String?

    @Flag(help: "Read no config file.")
    var noConfig = false

    @Option(help: ArgumentHelp("trace, debug, info, notice, warning, error.", valueName: "level"))
    var logLevel: String = "info"

    func validate() throws {
        let id = playerID
        guard !id.isEmpty, !id.contains("/"), !id.contains("+"), !id.contains("#"), id != "group" else {
            throw ValidationError("--player must be a non-empty topic level without / + # (and not \"group\")")
        }
        for name in group where name.isEmpty || name.contains("/") || name.contains("+") || name.contains("#") {
            throw ValidationError("--group must be a non-empty topic level without / + #")
        }
        guard (5...3600).contains(keepalive) else { throw ValidationError("--keepalive takes 5 to 3600 seconds") }
        for pattern in rpcAllow + rpcDeny where !CallerPolicy.isPattern(pattern) {
            throw ValidationError("--rpc-allow and --rpc-deny take a method name, family.* or * (got \(pattern))")
        }
        guard broker.hasPrefix("mqtt://") || broker.hasPrefix("mqtts://") else {
            throw ValidationError("--broker must be mqtt://host[:port] or mqtts://host[:port]")
        }
    }

    var playerID: String {
        player ?? ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? "player"
    }

    /// `username=` and `password=` from the credentials file, which only its owner may read.
    func readCredentials() throws -> Credentials {
        guard let credentials else { return Credentials() }
        do {
            return try Credentials.read(path: credentials)
        } catch {
            throw ValidationError(error.description)
        }
    }

    func run() throws {
        let credentials = try readCredentials()
        let socketPath = try SocketPath.resolve(explicit: socket, environment: ProcessInfo.processInfo.environment)
        let tls = (ca != nil || cert != nil || key != nil) ? MQTTConfiguration.TLS(caFile: ca, certFile: cert, keyFile: key) : nil
        let topics = Topics(prefix: topicPrefix, player: playerID, groups: group)
        var mqtt = try MQTTConfiguration(
            url: broker, clientID: "queued-mqtt-\(playerID)", username: credentials.username,
            password: credentials.password, tls: tls,
            will: .init(topic: topics.status, payload: Array(#"{"state":"offline"}"#.utf8), qos: .atLeastOnce, retain: true))
        mqtt.keepalive = keepalive
        let policy = CallerPolicy(
            door: .broker, files: rpcLocalFiles ? .any : .networkOnly, allow: rpcAllow.isEmpty ? nil : rpcAllow,
            deny: rpcDeny)
        try Bridge(mqtt: mqtt, topics: topics, socketPath: socketPath, policy: policy, logLevel: logLevel, diskPath: disk).run()
    }
}
