// queuectl's exit codes, one place for the mapping from every error it can meet to a code and a message:
//   0 ok · 1 the daemon reported an error (or a local step such as writing a file failed)
//   2 usage (bad arguments, including swift-argument-parser's parse errors, which it would exit 64 for)
//   3 the daemon cannot be reached (not running, no socket path, connection lost, no answer in time)
//   4 `wait` gave up: the event did not come within --timeout
// "No socket path" is 3, not 2: nothing is wrong with the command line, and a script asking "is queued
// up?" (e.g. from cron, where XDG_RUNTIME_DIR is unset and no default socket can exist) gets the right
// answer: no daemon reachable.

import ArgumentParser
import QueueClient
import MediaPaths
import QueuectlPresentation

enum ExitStatus: Int32 {
    case ok = 0
    case daemonError = 1
    case usage = 2
    case unreachable = 3
    case timedOut = 4

    static func of(_ error: ClientError) -> ExitStatus {
        switch error {
        case .rpc, .protocolViolation: return .daemonError
        case .noSocketPath, .notRunning, .io, .timeout: return .unreachable
        }
    }

    /// Prints what went wrong when parsing the command line (or help, or a completion script, which
    /// swift-argument-parser also reports by throwing) and returns the exit code: its usage failures,
    /// which it would exit 64 for, become 2.
    static func reportParseOutcome(_ error: Error) -> Int32 {
        let code = Queuectl.exitCode(for: error)
        let text = Queuectl.fullMessage(for: error)
        if code == .success {
            if !text.isEmpty { print(text) }
            return ExitStatus.ok.rawValue
        }
        Output.error(text)
        return ExitStatus.usage.rawValue
    }

    /// Prints an error thrown while running a command ("queuectl: <message>") and returns the exit code.
    static func reportRunFailure(_ error: Error) -> Int32 {
        switch error {
        case let error as ClientError:
            if case .timeout(let seconds) = error {
                Output.error("queuectl: queued did not answer within \(DurationFormat.seconds(seconds)) s")
            } else {
                Output.error("queuectl: \(error)")
            }
            return of(error).rawValue
        case let error as MediaPathError:
            Output.error("queuectl: \(error)")
            return ExitStatus.usage.rawValue
        case let error as QueuectlError:
            Output.error("queuectl: \(error)")
            return ExitStatus.daemonError.rawValue
        case let error as ExitCode:
            return error.rawValue
        default:
            // ValidationError from a run() (e.g. `call` with params that are not JSON), and the help
            // request `queuectl` alone or `queuectl help` raises from run(): swift-argument-parser words
            // and classifies these like its own parse outcomes.
            return reportParseOutcome(error)
        }
    }
}

/// A failure on the client's side after the daemon answered (writing the screenshot, a result that is not
/// what Protocol/README.md promises): exit 1 like a daemon error, since the request itself was fine.
struct QueuectlError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
