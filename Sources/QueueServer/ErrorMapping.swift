// Every domain error → JSON-RPC error mapping lives here (after MPD's CommandError.cxx).

import Playback
import QueueModel
import QueueRPC

enum ErrorMapping {
    static func rpcError(_ error: any Error) -> RPCError {
        switch error {
        case let error as RPCError:
            return error
        case let error as QueueError:
            switch error {
            case .itemNotFound(let id): return .itemNotFound(Int64(id.rawValue))
            case .indexOutOfRange: return .invalidParams(param: "index", reason: error.description)
            case .invalidLoops: return .invalidParams(param: "loops", reason: error.description)
            case .invalidWindow, .invalidDigest, .invalidTransition, .invalidMotion:
                return .invalidParams(param: nil, reason: error.description)
            }
        case let error as PlayerError:
            switch error {
            case .queueEmpty: return .queueEmpty()
            case .itemNotFound(let id): return .itemNotFound(Int64(id.rawValue))
            case .nothingPlaying, .noVideoOutput, .nothingOnScreen: return .badState(error.description)
            case .rateOutOfRange: return .invalidParams(param: "rate", reason: "must be between 0.5 and 2")
            case .overlayNotFound: return .invalidParams(param: nil, reason: error.description)
            case .queueChanged(let expected, let actual): return .queueChanged(expected: Int64(expected), actual: Int64(actual))
            }
        default:
            return .internalError(String(describing: error))
        }
    }
}
