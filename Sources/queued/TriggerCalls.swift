// The triggers' way in: a client of the daemon's own control socket, so a trigger's call is checked and
// carried out exactly as a client's is (and kept before it is answered). Used only on the trigger runner's
// queue, one call at a time; reconnected after a failure.

import JSONText
import QueueClient
import FoundationEssentials
import SystemSupport
import Triggers

final class TriggerCalls: @unchecked Sendable {
    private let socketPath: String?
    /// The trigger runner's queue only.
    private var client: QueueClient?

    init(socketPath: String?) { self.socketPath = socketPath }

    func call(_ method: String, _ params: JSONObject) throws -> JSONValue {
        guard let socketPath else { throw TriggerRuleError("triggers make their calls through the control socket, and --no-socket is set") }
        if client == nil { client = try QueueClient(socketPath: socketPath, timeout: 10) }
        do throws(ClientError) {
            return try client!.call(method, params.isEmpty ? nil : .object(params))
        } catch {
            if case .rpc = error {} else { client = nil }
            throw error
        }
    }
}

/// The rules set through the socket (triggers.set, outputs.set), kept in the state directory as a JSON array
/// of lines.
enum RuleFile {
    static func read(_ path: String?) -> [String] {
        guard let path, let data = FileManager.default.contents(atPath: path),
            let list = (try? JSON.parse([UInt8](data)))?.arrayValue
        else { return [] }
        return list.compactMap(\.stringValue)
    }

    static func write(_ lines: [String], to path: String?) throws {
        guard let path else { return }
        try DurableFile.replace(path, with: JSON.serialize(.array(lines.map(JSONValue.string))))
    }
}
