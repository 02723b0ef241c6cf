// FFmpeg's own log lines ("moov atom not found", "partial file"…) go to swift-log under the label
// `queued.ffmpeg` instead of raw stderr, each distinct text at most a few times in a while (LogRepeatFilter).
// Installed once by whoever bootstraps logging (the daemon).

import CFFmpeg
import CFFmpegLog
import Logging
import Synchronization
import SystemClock

public enum FFmpegLog {
    /// The logger FFmpeg's lines go to. Written once at install, before FFmpeg runs; read by FFmpeg's
    /// threads afterwards.
    nonisolated(unsafe) private static var logger = Logger(label: "queued.ffmpeg")
    /// FFmpeg's threads (any of them logs): which lines pass. Held only to decide, never while logging.
    private static let repeats = Mutex(LogRepeatFilter())

    /// Sends FFmpeg's messages at `level` and more severe to `logger`.
    public static func install(_ logger: Logger, level: Logger.Level = .warning) {
        Self.logger = logger
        qd_avlog_install(forward, avLevel(for: level))
    }

    private static let forward: @convention(c) (Int32, UnsafePointer<CChar>?) -> Void = { level, line in
        guard let line else { return }
        let now = Monotonic.now()
        guard let text = FFmpegLog.repeats.withLock({ $0.admit(String(cString: line), now: now) }) else { return }
        switch level {
        case ...AV_LOG_ERROR: FFmpegLog.logger.error("\(text)")
        case ...AV_LOG_WARNING: FFmpegLog.logger.warning("\(text)")
        case ...AV_LOG_INFO: FFmpegLog.logger.info("\(text)")
        default: FFmpegLog.logger.debug("\(text)")
        }
    }

    private static func avLevel(for level: Logger.Level) -> Int32 {
        switch level {
        case .trace, .debug: return AV_LOG_DEBUG
        case .info, .notice: return AV_LOG_INFO
        case .warning: return AV_LOG_WARNING
        case .error, .critical: return AV_LOG_ERROR
        }
    }
}
