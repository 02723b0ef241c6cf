// What can go wrong between a client and queued, from the client's side. queuectl turns these into exit
// codes (see queuectl's ExitStatus); tests match on the cases. Daemon-reported errors keep the RPCError
// intact so callers can look at its code and data, not only its sentence.

import MediaPaths
import QueueRPC

public enum ClientError: Error, CustomStringConvertible, Sendable {
    /// Neither --socket, QUEUED_SOCKET nor XDG_RUNTIME_DIR gave a socket path.
    case noSocketPath
    /// Nothing listens at the path (ENOENT / ECONNREFUSED): the daemon is not running there.
    case notRunning(path: String)
    /// A system call failed, or the daemon closed the connection mid-conversation.
    case io(String)
    /// The daemon sent something that is not JSON-RPC 2.0 as Protocol/README.md describes it.
    case protocolViolation(String)
    /// The daemon answered with a JSON-RPC error.
    case rpc(RPCError)
    /// No answer within this many seconds.
    case timeout(Double)

    public var description: String {
        switch self {
        case .noSocketPath:
            return SocketPathError().description
        case .notRunning(let path):
            return "queued is not running at \(path)"
        case .io(let message):
            return message
        case .protocolViolation(let message):
            return "protocol error: \(message)"
        case .rpc(let error):
            return error.message
        case .timeout(let seconds):
            return "queued did not answer within \(seconds) s"
        }
    }
}
