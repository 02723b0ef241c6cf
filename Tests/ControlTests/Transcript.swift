// Every message a test saw, written as JSON lines for Tests/conformance/validate.py, which checks each
// against the schemas of Protocol/queued.openrpc.json.

import Foundation
import QueueClient
import QueueRPC
import TestSupport

final class Transcript: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    func request(_ method: String, _ params: JSONValue?) {
        var message: JSONObject = ["jsonrpc": "2.0", "method": .string(method), "id": 0]
        if let params { message["params"] = params }
        add("request", method, .object(message))
    }

    func response(_ method: String, _ message: JSONValue) { add("response", method, message) }

    func notification(_ method: String, _ params: JSONValue?) {
        var message: JSONObject = ["jsonrpc": "2.0", "method": .string(method)]
        if let params { message["params"] = params }
        add("notification", method, .object(message))
    }

    private func add(_ direction: String, _ method: String, _ message: JSONValue) {
        let entry: JSONValue = ["direction": .string(direction), "method": .string(method), "message": message]
        lock.withLock { lines.append(JSON.string(entry)) }
    }

    var count: Int { lock.withLock { lines.count } }

    func write(to path: String) throws {
        try lock.withLock { lines.joined(separator: "\n") + "\n" }.write(
            toFile: path, atomically: true, encoding: .utf8)
    }
}

/// A client that records what it sends and receives.
final class RecordingClient {
    let client: QueueClient
    let transcript: Transcript

    init(_ client: QueueClient, _ transcript: Transcript) {
        self.client = client
        self.transcript = transcript
    }

    @discardableResult
    func call(_ method: String, _ params: JSONValue? = nil, requestIsValid: Bool = true) throws -> JSONValue {
        // Requests made invalid on purpose are not checked against the schemas; their answers are.
        if requestIsValid { transcript.request(method, params) }
        do {
            let result = try client.call(method, params)
            transcript.response(method, ["jsonrpc": "2.0", "result": result, "id": 0])
            return result
        } catch {
            if case .rpc(let rpcError) = error {
                transcript.response(method, ["jsonrpc": "2.0", "error": rpcError.json, "id": 0])
            }
            print("call \(method) \(params.map(JSON.string) ?? "") failed: \(error)")
            throw error
        }
    }

    /// The error a call fails with (nil if it succeeded).
    func failure(_ method: String, _ params: JSONValue? = nil) -> RPCError? {
        do {
            try call(method, params, requestIsValid: false)
            return nil
        } catch {
            if let clientError = error as? ClientError, case .rpc(let rpcError) = clientError { return rpcError }
            return RPCError.internalError("\(error)")
        }
    }

    func notifications(
        timeout: Double, until done: ([(method: String, params: JSONValue?)]) -> Bool
    ) throws
        -> [(method: String, params: JSONValue?)]
    {
        let seen = try collectNotifications(client, timeout: timeout, until: done)
        for note in seen { transcript.notification(note.method, note.params) }
        return seen
    }
}

/// Runs the conformance validator over a transcript; returns its closing line and output.
func validateTranscript(
    _ transcript: Transcript, in directory: String
) throws -> (passed: Int, failed: Int, output: String) {
    let path = directory + "/transcript.jsonl"
    try transcript.write(to: path)
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("conformance/validate.py").path
    let result = try TestSupport.ChildProcess.run("python3", [script, "--transcript", path], timeout: 120)
    let output = result.stdout + result.stderr
    let closing = output.split(separator: "\n").last { $0.contains(" passed, ") } ?? ""
    let numbers = closing.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
    return (numbers.first ?? 0, numbers.count > 1 ? numbers[1] : -1, output)
}
