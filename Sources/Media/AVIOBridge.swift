// Owns the custom AVIOContext through which FFmpeg reads a ByteSource. Lives exactly as long as the
// Demuxer that uses it; FFmpeg calls the callbacks on the decode thread, inside av_read_frame & co.

import CFFmpeg
import Glibc

final class AVIOBridge {
    private(set) var context: UnsafeMutablePointer<AVIOContext>
    private let state: Unmanaged<State>

    /// The callbacks' view of the source: position tracking for SEEK_CUR, and the last error to report.
    final class State {
        let source: ByteSource
        var position: Int64 = 0
        var lastError: MediaError?
        init(source: ByteSource) { self.source = source }
    }

    init(source: ByteSource, bufferSize: Int = 64 * 1024) throws(MediaError) {
        guard let buffer = av_malloc(bufferSize) else {
            throw MediaError(operation: "open", message: "out of memory")
        }
        let state = Unmanaged.passRetained(State(source: source))
        guard
            let context = avio_alloc_context(
                buffer.assumingMemoryBound(to: UInt8.self), Int32(bufferSize), 0, state.toOpaque(),
                AVIOBridge.readPacket, nil, source.isSeekable ? AVIOBridge.seek : nil)
        else {
            av_free(buffer)
            state.release()
            throw MediaError(operation: "open", message: "out of memory")
        }
        self.context = context
        self.state = state
    }

    deinit {
        // FFmpeg may have replaced the buffer; free whatever it holds now.
        av_freep(&context.pointee.buffer)
        var optional: UnsafeMutablePointer<AVIOContext>? = context
        avio_context_free(&optional)
        state.release()
    }

    var lastError: MediaError? { state.takeUnretainedValue().lastError }

    private static let readPacket:
        @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32 = {
            opaque, buffer, size in
            guard let opaque, let buffer else { return qd_averror(EINVAL) }
            let state = Unmanaged<State>.fromOpaque(opaque).takeUnretainedValue()
            do throws(MediaError) {
                let count = try state.source.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: Int(size)))
                if count == 0 { return qd_averror_eof() }
                state.position += Int64(count)
                return Int32(count)
            } catch {
                state.lastError = error
                return error.code < 0 ? error.code : qd_averror(EIO)
            }
        }

    private static let seek: @convention(c) (UnsafeMutableRawPointer?, Int64, Int32) -> Int64 = {
        opaque, offset, whence in
        guard let opaque else { return Int64(qd_averror(EINVAL)) }
        let state = Unmanaged<State>.fromOpaque(opaque).takeUnretainedValue()
        let mode = whence & ~Int32(AVSEEK_FORCE)
        if mode == AVSEEK_SIZE {
            return state.source.size ?? -1
        }
        let target: Int64
        switch mode {
        case SEEK_SET: target = offset
        case SEEK_CUR: target = state.position + offset
        case SEEK_END:
            guard let size = state.source.size else { return Int64(qd_averror(ENOSYS)) }
            target = size + offset
        default: return Int64(qd_averror(EINVAL))
        }
        do throws(MediaError) {
            try state.source.seek(to: target)
            state.position = target
            return target
        } catch {
            state.lastError = error
            return Int64(error.code < 0 ? error.code : qd_averror(EIO))
        }
    }
}
