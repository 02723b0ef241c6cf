// A decoded picture, owned: the AVFrame is freed when the last reference goes.
// Made by the decode thread (Media), shown by a video sink on its own thread; never mutated after creation.

import CFFmpeg

/// Pixel layouts a sink can take without conversion. Anything else is converted to `.yuv420p` by Media.
public enum PixelLayout: Sendable, Equatable {
    case yuv420p  // three planes Y, U, V; chroma halved both ways (SDL IYUV)
    case nv12  // two planes Y, interleaved UV (SDL NV12)
    case rgba  // one plane, bytes R,G,B,A (SDL ABGR8888 on little-endian)
    case bgra  // one plane, bytes B,G,R,A (SDL ARGB8888 on little-endian): web pages as their engine paints them

    /// One plane of four bytes a pixel.
    public var isPacked: Bool { self == .rgba || self == .bgra }
}

/// One plane of pixel data, valid only inside `VideoFrame.withPlanes`.
public struct VideoPlane {
    public let base: UnsafePointer<UInt8>
    public let bytesPerRow: Int
}

public final class VideoFrame: @unchecked Sendable {
    /// Owned; freed in deinit.
    let avFrame: UnsafeMutablePointer<AVFrame>
    public let width: Int
    public let height: Int
    public let layout: PixelLayout
    /// Presentation time in seconds from the start of the item (after any `start` trim): 0 is the item's first instant.
    public let pts: Double
    /// Display duration in seconds as the stream says (1 / frame rate when unknown).
    public let duration: Double
    /// How the file says the picture is seen: turned and mirrored (applied by the sink when it draws).
    public let orientation: PictureOrientation
    /// Width of a pixel over its height as the file says (1: square; 64/45: PAL 16:9 anamorphic).
    public let sampleAspect: Double
    /// The picture's size in the file, which `width`×`height` is smaller than when a still was decoded
    /// for the screen (StillScale): what the file's size is reported as.
    public let fileSize: PixelSize

    init(
        taking avFrame: UnsafeMutablePointer<AVFrame>, layout: PixelLayout, pts: Double, duration: Double,
        orientation: PictureOrientation = .upright, sampleAspect: Double = 1, fileSize: PixelSize? = nil
    ) {
        self.avFrame = avFrame
        self.width = Int(avFrame.pointee.width)
        self.height = Int(avFrame.pointee.height)
        self.fileSize = fileSize ?? PixelSize(width: Int(avFrame.pointee.width), height: Int(avFrame.pointee.height))
        self.layout = layout
        self.pts = pts
        self.duration = duration
        self.orientation = orientation
        self.sampleAspect = sampleAspect
    }

    /// The size the file's picture is seen at: stretched to its pixels' aspect, then turned.
    public var displaySize: (width: Int, height: Int) {
        PictureOrientation.displayedSize(
            width: fileSize.width, height: fileSize.height, sampleAspect: sampleAspect, orientation: orientation)
    }

    /// Bytes of pixel data the picture holds (its planes' rows, padding included): what one queued
    /// picture costs in memory.
    public var byteCount: Int {
        withPlanes { planes in
            planes.enumerated().reduce(0) { total, plane in
                let rows = plane.offset == 0 || layout.isPacked ? height : (height + 1) / 2
                return total + plane.element.bytesPerRow * rows
            }
        }
    }

    deinit {
        var frame: UnsafeMutablePointer<AVFrame>? = avFrame
        av_frame_free(&frame)
    }

    /// Calls `body` with the frame's planes (1 for rgba, 2 for nv12, 3 for yuv420p).
    public func withPlanes<R>(_ body: ([VideoPlane]) throws -> R) rethrows -> R {
        let count: Int
        switch layout {
        case .yuv420p: count = 3
        case .nv12: count = 2
        case .rgba, .bgra: count = 1
        }
        var planes: [VideoPlane] = []
        planes.reserveCapacity(count)
        for index in 0..<count {
            if let base = avFrame.planePointers[index] {
                planes.append(VideoPlane(base: UnsafePointer(base), bytesPerRow: Int(avFrame.planeStrides[index])))
            }
        }
        return try body(planes)
    }

    /// The luma (or, for rgba, the green) value at a pixel: lets tests and probes read a picture without a renderer.
    public func luma(x: Int, y: Int) -> UInt8 {
        withPlanes { planes in
            switch layout {
            case .yuv420p, .nv12: return planes[0].base[y * planes[0].bytesPerRow + x]
            case .rgba, .bgra: return planes[0].base[y * planes[0].bytesPerRow + x * 4 + 1]
            }
        }
    }
}
