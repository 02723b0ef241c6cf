// Every FFmpeg return code goes through `check`, which turns a negative AVERROR into a MediaError that
// carries FFmpeg's own text, so a failed item can say exactly what went wrong with which file.

import CFFmpeg

public struct MediaError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The AVERROR code (negative), or 0 for errors found by our own checks.
    public let code: Int32
    /// What we were doing, e.g. "open", "find stream info".
    public let operation: String
    /// The file or URI concerned, when known.
    public var path: String?
    public let message: String

    public init(code: Int32 = 0, operation: String, path: String? = nil, message: String) {
        self.code = code
        self.operation = operation
        self.path = path
        self.message = message
    }

    public var description: String {
        let subject = path.map { "\($0): " } ?? ""
        return "\(subject)\(operation): \(message)"
    }

    /// FFmpeg's text for an AVERROR code (what `av_err2str` would give).
    public static func text(for code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        if av_strerror(code, &buffer, buffer.count) < 0 {
            return "error \(code)"
        }
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    func at(_ path: String) -> MediaError {
        var copy = self
        copy.path = copy.path ?? path
        return copy
    }
}

/// Returns `code` when it is not an error, throws a MediaError with FFmpeg's text otherwise.
@discardableResult
func check(_ code: Int32, _ operation: String) throws(MediaError) -> Int32 {
    if code < 0 {
        throw MediaError(code: code, operation: operation, message: MediaError.text(for: code))
    }
    return code
}

enum AVCodes {
    static let eof = qd_averror_eof()
    static let again = qd_averror_eagain()
    static let exit = qd_averror_exit()
    static let noPTS = qd_nopts()
}
