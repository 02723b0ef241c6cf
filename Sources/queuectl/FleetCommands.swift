// `queuectl fleet`: the operator's side of a fleet, through the broker alone (Protocol/queued.asyncapi.yaml):
// every player with its status and reported state, a desired document pushed to a group or a player, proof
// of play as it comes, a JSON-RPC call to one screen, a screen's picture. Here rather than in a tool of its
// own so that one client does both jobs; the broker library is loaded only when a fleet command runs. Topic
// names and documents are Fleet's (Topics, ReportedDocument, PlayRecord), the same the bridge writes.

import ArgumentParser
import Fleet
import FoundationEssentials
import Glibc
import SystemSupport
import JSONText
import MQTT

struct Fleet: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a fleet of screens through an MQTT broker (see queued-mqtt).",
        subcommands: [FleetList.self, FleetPush.self, FleetEvents.self, FleetCall.self, FleetScreenshot.self])
}

struct FleetList: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ls", abstract: "Every player: online or offline, applied and pending rev, what it plays, errors.")

    /// A topic of this client's own under the prefix (one level deeper than players' topics, so no player
    /// pattern matches it).
    static func marker(_ prefix: String) -> String {
        prefix + "queuectl/marker/" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
    }
    @OptionGroup var fleet: FleetOptions
    @OptionGroup(title: "Global Options") var options: GlobalOptions

    func run() throws {
        let broker = try FleetBroker(fleet, timeout: options.timeout ?? 5)
        let prefix = fleet.topicPrefix
        let everyPlayer = Topics(prefix: prefix, player: "+")
        let messages = try broker.retained(
            [everyPlayer.status, everyPlayer.reported], markerTopic: Self.marker(prefix), timeout: options.timeout ?? 5)
        var players: [String: (status: JSONValue?, reported: JSONValue?)] = [:]
        for message in messages {
            guard let (name, kind) = Topics.parse(message.topic, prefix: prefix), let value = try? JSON.parse(message.payload)
            else { continue }
            if kind == .status { players[name, default: (nil, nil)].status = value }
            if kind == .reported { players[name, default: (nil, nil)].reported = value }
        }
        let names = players.keys.sorted()
        if options.json {
            let rows: [JSONValue] = names.map { name in
                ["player": .string(name), "status": players[name]?.status ?? .null, "reported": players[name]?.reported ?? .null]
            }
            Output.json(.array(rows))
            return
        }
        Output.line("PLAYER\tSTATUS\tAPPLIED\tPENDING\tSTATE\tCURRENT\tERROR")
        for name in names {
            let status = players[name]?.status?["state"]?.stringValue
            let reported = players[name]?.reported.flatMap(ReportedDocument.init(json:))
            let current = reported?.current.flatMap { $0.title ?? $0.uri }
            Output.line(
                [
                    name, status ?? "-", reported?.appliedRev.map(String.init) ?? "-",
                    reported?.pendingRev.map(String.init) ?? "-", reported?.state.rawValue ?? "-", current ?? "-",
                    reported?.error ?? "-",
                ].joined(separator: "\t"))
        }
    }
}

struct FleetPush: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push",
        abstract: "Publish a desired-state document (retained) to a group or a player.",
        discussion: "Without a \"rev\" in the file, it gets one newer than the topic's current document (milliseconds since the epoch, or that document's rev + 1).")
    @OptionGroup var fleet: FleetOptions
    @OptionGroup(title: "Global Options") var options: GlobalOptions
    @Argument(help: ArgumentHelp("The document (JSON).", valueName: "file.json")) var file: String
    @Option(help: ArgumentHelp("The group it is for.", valueName: "name")) var group: String?
    @Option(help: ArgumentHelp("The player it is for.", valueName: "id")) var player: String?

    func validate() throws {
        guard (group == nil) != (player == nil) else { throw ValidationError("give exactly one of --group and --player") }
    }

    func run() throws {
        guard let data = FileManager.default.contents(atPath: file), var document = (try? JSON.parse([UInt8](data)))?.objectValue
        else { throw QueuectlError("\(file): not a JSON object") }
        let topic = group.map { Topics.groupDesired(prefix: fleet.topicPrefix, $0) }
            ?? Topics(prefix: fleet.topicPrefix, player: player ?? "").desired
        let broker = try FleetBroker(fleet, timeout: options.timeout ?? 5)
        if document["rev"] == nil {
            let current = try broker.retained([topic], markerTopic: FleetList.marker(fleet.topicPrefix), timeout: options.timeout ?? 5)
                .last { $0.topic == topic }
            let previous = current.flatMap { try? JSON.parse($0.payload) }?["rev"]?.intValue ?? 0
            document["rev"] = .int(max(previous + 1, Int64(Date().timeIntervalSince1970 * 1000)))
        }
        try broker.publishAcknowledged(topic, JSON.serialize(.object(document)), retain: true, timeout: (options.timeout ?? 5))
        Output.line(options.json ? JSON.string(["topic": .string(topic), "rev": document["rev"] ?? .null]) : "pushed rev \(document["rev"]?.intValue ?? 0) to \(topic)")
    }
}

struct FleetEvents: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events", abstract: "Proof of play as it comes: one line (or JSON object) per play.")
    @OptionGroup var fleet: FleetOptions
    @OptionGroup(title: "Global Options") var options: GlobalOptions
    @Option(help: ArgumentHelp("Only this player.", valueName: "id")) var player: String?
    @Flag(help: "Keep printing until interrupted (else: what arrives within --timeout).") var follow = false

    func run() throws {
        let broker = try FleetBroker(fleet, timeout: options.timeout ?? 5)
        let json = options.json
        broker.setOnMessage { message in
            guard let record = (try? JSON.parse(message.payload)).flatMap(PlayRecord.init(json:)) else { return }
            if json {
                Output.json(record.json)
            } else {
                Output.line(
                    "\(record.player ?? "-") #\(record.seq ?? 0) \(record.start ?? "-") \((record.seconds ?? 0).fixed(1))s "
                        + "\(record.reason ?? "-") \(record.uri ?? "-")")
            }
        }
        try broker.client.subscribe(Topics(prefix: fleet.topicPrefix, player: player ?? "+").events, qos: .atLeastOnce)
        if follow {
            while true { Threads.sleep(seconds: 3600) }
        }
        _ = broker.wait((options.timeout ?? 5)) { _ in false }
    }
}

struct FleetCall: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "call", abstract: "Call a JSON-RPC method on one screen, through the broker.")
    @OptionGroup var fleet: FleetOptions
    @OptionGroup(title: "Global Options") var options: GlobalOptions
    @Argument(help: ArgumentHelp("The player.", valueName: "id")) var player: String
    @Argument(help: ArgumentHelp("The method, e.g. player.status.", valueName: "method")) var method: String
    @Argument(help: ArgumentHelp("Its params, as a JSON object.", valueName: "params")) var params: String?

    func run() throws {
        let broker = try FleetBroker(fleet, timeout: options.timeout ?? 5)
        Output.json(try Self.call(broker, fleet, options, player: player, method: method, params: params.map { try JSON.parse($0) }))
    }

    /// The answer's `result`; a JSON-RPC error is thrown (exit 1).
    static func call(
        _ broker: FleetBroker, _ fleet: FleetOptions, _ options: GlobalOptions, player: String, method: String, params: JSONValue?
    ) throws -> JSONValue {
        let token = String(UInt64.random(in: 0...UInt64.max), radix: 36)
        let topics = Topics(prefix: fleet.topicPrefix, player: player)
        // A topic of this caller's own under the player's rpc/res: the bridge answers nowhere else.
        let responseTopic = topics.rpcResponse + "/" + token
        try broker.client.subscribe(responseTopic, qos: .atLeastOnce)
        var request: JSONObject = [
            "jsonrpc": "2.0", "id": 1, "method": .string(method), "expires": .double(Date().timeIntervalSince1970 + (options.timeout ?? 5)),
        ]
        if let params { request["params"] = params }
        _ = try broker.client.publish(
            topic: topics.rpcRequest, payload: JSON.serialize(.object(request)), qos: .atLeastOnce,
            responseTopic: responseTopic, correlationData: Array(token.utf8))
        guard broker.wait((options.timeout ?? 5), { $0.received.contains { $0.topic == responseTopic } }),
            let answer = broker.received.first(where: { $0.topic == responseTopic }).flatMap({ try? JSON.parse($0.payload) })
        else { throw ExitCode(ExitStatus.unreachable.rawValue).withMessage("queuectl: \(player) did not answer within \((options.timeout ?? 5)) s") }
        if let error = answer["error"] { throw QueuectlError(error["message"]?.stringValue ?? JSON.string(error)) }
        return answer["result"] ?? .null
    }
}

struct FleetScreenshot: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "screenshot", abstract: "Save what a screen shows (a JPEG), through the broker.")
    @OptionGroup var fleet: FleetOptions
    @OptionGroup(title: "Global Options") var options: GlobalOptions
    @Argument(help: ArgumentHelp("The player.", valueName: "id")) var player: String
    @Option(name: .shortAndLong, help: ArgumentHelp("Where to write it.", valueName: "file.jpg")) var output: String
    @Option(help: ArgumentHelp("Scale down to at most this width.", valueName: "pixels")) var maxWidth: Int64 = 640

    func run() throws {
        let broker = try FleetBroker(fleet, timeout: options.timeout ?? 5)
        let result = try FleetCall.call(
            broker, fleet, options, player: player, method: "player.screenshot", params: ["format": "jpeg", "maxWidth": .int(maxWidth)])
        guard let text = result["jpeg"]?.stringValue, let data = Data(base64Encoded: text) else {
            throw QueuectlError("the answer has no JPEG")
        }
        try Screenshot.write([UInt8](data), to: output)
        Output.line(options.json ? JSON.string(["file": .string(output), "bytes": .int(Int64(data.count))]) : "wrote \(output) (\(data.count) bytes)")
    }
}
