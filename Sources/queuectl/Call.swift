// `queuectl call METHOD [JSON]`: any method with raw params, printing the raw result; for scripts and
// for trying the API. The params must be a JSON object (by name) or array (by position), as JSON-RPC
// allows; the daemon checks the rest.

import ArgumentParser
import QueueRPC

struct Call: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Send any JSON-RPC request and print its result as JSON.",
        discussion: #"Example: queuectl call queue.list '{"limit": 5}'"#)

    @OptionGroup(title: "Global Options") var options: GlobalOptions
    @Argument(help: ArgumentHelp("Method name, e.g. player.status.", valueName: "method")) var method: String
    @Argument(help: ArgumentHelp("Params: a JSON object or array.", valueName: "json")) var params: String?

    func validate() throws {
        _ = try parsedParams()
    }

    func run() throws {
        let parsed = try parsedParams()
        let session = try Session(options)
        Output.json(try session.client.call(method, parsed))
    }

    private func parsedParams() throws -> JSONValue? {
        guard let params else { return nil }
        let value: JSONValue
        do {
            value = try JSON.parse(params)
        } catch {
            throw ValidationError("params are not valid JSON: \(error)")
        }
        switch value {
        case .object, .array: return value
        default: throw ValidationError("params must be a JSON object or array")
        }
    }
}
