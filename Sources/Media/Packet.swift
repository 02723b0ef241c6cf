// An owned AVPacket. Lives on the decode thread, queued per stream between the demuxer and a decoder.

import CFFmpeg

final class Packet {
    let pointer: UnsafeMutablePointer<AVPacket>

    init() throws(MediaError) {
        guard let packet = av_packet_alloc() else {
            throw MediaError(operation: "read", message: "out of memory")
        }
        pointer = packet
    }

    deinit {
        var optional: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&optional)
    }

    var streamIndex: Int { Int(pointer.pointee.stream_index) }
}
