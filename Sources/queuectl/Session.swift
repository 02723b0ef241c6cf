// One queuectl invocation's conversation with the daemon: resolves the socket path from the global
// options and the environment, connects, and holds the helpers several commands share (showing a Status
// with the current item's name, paging through queue.list, honouring --json).

import Glibc
import QueueClient
import QueueRPC
import QueuectlPresentation

struct Session {
    let client: QueueClient
    let options: GlobalOptions

    init(_ options: GlobalOptions) throws {
        self.options = options
        let path = try SocketPath.resolve(explicit: options.socket, environment: Session.environment())
        client = try QueueClient(socketPath: path, timeout: options.answerTimeout)
    }

    /// The variables SocketPath reads (getenv instead of Foundation's ProcessInfo; see Output).
    static func environment() -> [String: String] {
        var values: [String: String] = [:]
        for name in ["QUEUED_SOCKET", "XDG_RUNTIME_DIR"] {
            if let value = getenv(name) { values[name] = String(cString: value) }
        }
        return values
    }

    /// The working directory relative paths are resolved against.
    static func currentDirectory() throws -> String {
        guard let buffer = getcwd(nil, 0) else {
            throw QueuectlError("cannot read the current directory: \(String(cString: strerror(errno)))")
        }
        defer { free(buffer) }
        return String(cString: buffer)
    }

    func call(_ method: String, _ params: JSONValue? = nil) throws -> JSONValue {
        try client.call(method, params)
    }

    /// `--json`: the result as one line; otherwise the text `human` makes from it.
    func show(_ result: JSONValue, _ human: (JSONValue) throws -> String) throws {
        if options.json {
            Output.json(result)
        } else {
            Output.line(try human(result))
        }
    }

    /// A Status result as the status block (the Status names its current item itself), or as JSON.
    func showStatus(_ result: JSONValue) throws {
        try show(result) { json in
            guard let status = PlayerStatusView(json: json) else {
                throw QueuectlError("queued answered with something that is not a Status: \(json)")
            }
            return StatusBlock.render(status, item: status.currentItem)
        }
    }

    /// The whole queue: queue.list pages of 1000 until `total` items are in. Returns one result object
    /// in queue.list's shape (items, total, version, currentId of the last page).
    func listAll() throws -> JSONValue {
        var items: [JSONValue] = []
        var last: JSONValue = .null
        while true {
            last = try call("queue.list", ["offset": .int(Int64(items.count)), "limit": 1000])
            let page = last["items"]?.arrayValue ?? []
            items += page
            let total = last["total"]?.intValue ?? 0
            // An empty page ends the loop even if `total` says more: the queue shrank meanwhile.
            if page.isEmpty || Int64(items.count) >= total { break }
        }
        guard var object = last.objectValue else {
            throw QueuectlError("queued answered queue.list with something that is not an object: \(last)")
        }
        object["items"] = .array(items)
        return .object(object)
    }
}
