// AVFrame's `data` and `linesize` import as 8-element tuples; these give them as C arrays, computed from
// the frame's own (heap) address so the pointers stay valid as long as the frame does.

import CFFmpeg

extension UnsafeMutablePointer where Pointee == AVFrame {
    var planePointers: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?> {
        let offset = MemoryLayout<AVFrame>.offset(of: \AVFrame.data) ?? 0
        return UnsafeMutableRawPointer(self).advanced(by: offset)
            .assumingMemoryBound(to: UnsafeMutablePointer<UInt8>?.self)
    }

    var planeStrides: UnsafeMutablePointer<Int32> {
        let offset = MemoryLayout<AVFrame>.offset(of: \AVFrame.linesize) ?? 0
        return UnsafeMutableRawPointer(self).advanced(by: offset).assumingMemoryBound(to: Int32.self)
    }
}
