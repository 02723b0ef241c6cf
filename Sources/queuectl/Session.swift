// One queuectl invocation's conversation with the daemon: resolves the socket path from the global
// options and the environment, connects, and holds the helpers several commands share (showing a Status
// with the current item's name, paging through queue.list, honouring --json).

import ConfigFile
import Glibc
import MediaPaths
import QueueClient
import QueueRPC
import QueuectlPresentation

struct Session {
    let client: QueueClient
    let options: GlobalOptions

    init(_ options: GlobalOptions) throws {
        self.options = options
        let environment = Session.environment()
        // queuectl.conf is read only when neither --socket nor $QUEUED_SOCKET chose already.
        let chosen = options.socket != nil || !(environment["QUEUED_SOCKET"] ?? "").isEmpty
        let configured = chosen ? nil : try Session.configuredSocket(environment: environment)
        let path: String
        do {
            path = try SocketPath.resolve(explicit: options.socket, environment: environment, configured: configured)
        } catch {
            throw ClientError.noSocketPath
        }
        client = try QueueClient(socketPath: path, timeout: options.answerTimeout)
        client.zone = options.zone
    }

    /// The variables SocketPath and the config search read (getenv instead of Foundation's ProcessInfo;
    /// see Output).
    static func environment() -> [String: String] {
        var values: [String: String] = [:]
        for name in ["QUEUED_SOCKET", "XDG_RUNTIME_DIR", "XDG_CONFIG_HOME", "HOME"] {
            if let value = getenv(name) { values[name] = String(cString: value) }
        }
        return values
    }

    /// `socket=` from queuectl.conf: $XDG_CONFIG_HOME/queued/queuectl.conf (else ~/.config/queued/…),
    /// else /etc/queued/queuectl.conf, the first that exists; nil when none sets it.
    static func configuredSocket(environment: [String: String]) throws -> String? {
        do {
            return try ConfigFile.find(name: "queuectl.conf", environment: environment)?.value(of: "socket")
        } catch {
            throw QueuectlError(error.description)
        }
    }

    /// The working directory relative paths are resolved against.
    static func currentDirectory() throws -> String {
        guard let buffer = getcwd(nil, 0) else {
            throw QueuectlError("cannot read the current directory: \(String(cString: strerror(errno)))")
        }
        defer { free(buffer) }
        return String(cString: buffer)
    }

    /// `method`'s result, typed (QueueRPC's API definitions), with the JSON it was read from.
    func call<Method: RPCMethodDefinition>(
        _ method: Method.Type, _ params: Method.Params
    ) throws
        -> RPCAnswer<Method.Result>
    {
        try client.answer(method, params)
    }

    func call<Method: RPCMethodDefinition>(_ method: Method.Type) throws -> RPCAnswer<Method.Result>
    where Method.Params == NoParams {
        try client.answer(method)
    }

    /// `--json`: the result as the daemon sent it, on one line; otherwise the text `human` makes from it.
    func show<Result>(_ answer: RPCAnswer<Result>, _ human: (Result) throws -> String) throws {
        if options.json {
            Output.json(answer.json)
        } else {
            Output.line(try human(answer.result))
        }
    }

    /// A Status as the status block (the Status names its current item itself), or as JSON.
    func showStatus(_ answer: RPCAnswer<RPCStatus>) throws {
        try show(answer) { status in StatusBlock.render(status, item: status.currentItem) }
    }

    /// A setting's command: with a `change`, player.set and the status block; without, the one line
    /// `describe` makes of the status (`volume: 80%`).
    func setOrShow(_ change: API.PlayerSet.Params?, _ describe: (RPCStatus) -> String) throws {
        guard let change else {
            try show(try call(API.PlayerStatus.self), describe)
            return
        }
        try showStatus(try call(API.PlayerSet.self, change))
    }

    /// The whole queue: queue.list pages of 1000 until `total` items are in, as one result in queue.list's
    /// shape (items, total, version, currentId of the last page).
    func listAll() throws -> RPCAnswer<API.QueueList.Result> {
        var rows: [JSONValue] = []
        var items: [RPCQueueItem] = []
        var last: RPCAnswer<API.QueueList.Result>
        while true {
            last = try call(API.QueueList.self, .init(offset: Int64(rows.count), limit: 1000))
            let page = last.json["items"]?.arrayValue ?? []
            rows += page
            items += last.result.items
            // An empty page ends the loop even if `total` says more: the queue shrank meanwhile.
            if page.isEmpty || Int64(rows.count) >= last.result.total { break }
        }
        var json = last.json.objectValue ?? JSONObject()
        json["items"] = .array(rows)
        var whole = last.result
        whole.items = items
        return RPCAnswer(result: whole, json: .object(json))
    }
}
