// Errors thrown by the test harness. Each case carries enough text to diagnose a failing test
// from its failure message alone (command line, exit status, stderr or log tail).

import Glibc

public enum TestSupportError: Error, CustomStringConvertible, Sendable {
    /// A bare executable name was not found on PATH.
    case executableNotFound(String)
    /// posix_spawn itself failed (errno value).
    case spawnFailed(command: String, errno: Int32)
    /// A process or condition did not finish in time.
    case timeout(String)
    /// A helper command ran but exited unsuccessfully.
    case commandFailed(command: String, status: Int32, stderr: String)
    /// A file-system or parse step failed.
    case io(String)

    public var description: String {
        switch self {
        case .executableNotFound(let name):
            return "executable not found on PATH: \(name)"
        case .spawnFailed(let command, let code):
            return "posix_spawn failed (\(String(cString: strerror(code)))): \(command)"
        case .timeout(let what):
            return "timed out: \(what)"
        case .commandFailed(let command, let status, let stderr):
            return "command failed with status \(status): \(command)\n\(stderr)"
        case .io(let what):
            return "I/O error: \(what)"
        }
    }
}
