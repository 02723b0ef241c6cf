// libavfilter, opened the first time a filter graph is built (an item played at a rate other than 1), not
// linked into the daemon.
//
// Why by hand: Debian's libavfilter brings about thirty libraries with it (flite's speech voices, LAPACK,
// Vulkan, libplacebo, pocketsphinx…), and their relocated data is resident in every process that links it —
// about 8 MB of an idle daemon that uses one filter, atempo, and only when a rate is asked for. Opened with
// dlopen, none of that is mapped until then. Only the eight functions AudioTempo calls are looked up; their
// types are the C declarations in libavfilter/avfilter.h, buffersrc.h and buffersink.h (FFmpeg 5.1). The
// library stays open for the life of the process.

import CFFmpeg
import Glibc

struct FilterLibrary: @unchecked Sendable {
    typealias Graph = UnsafeMutablePointer<AVFilterGraph>
    typealias Context = UnsafeMutablePointer<AVFilterContext>

    let graphAlloc: @convention(c) () -> Graph?
    let graphFree: @convention(c) (UnsafeMutablePointer<Graph?>?) -> Void
    let filterByName: @convention(c) (UnsafePointer<CChar>?) -> UnsafePointer<AVFilter>?
    let createFilter:
        @convention(c) (
            UnsafeMutablePointer<Context?>?, UnsafePointer<AVFilter>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
            UnsafeMutableRawPointer?, Graph?
        ) -> Int32
    let link: @convention(c) (Context?, UInt32, Context?, UInt32) -> Int32
    let graphConfig: @convention(c) (Graph?, UnsafeMutableRawPointer?) -> Int32
    let addFrame: @convention(c) (Context?, UnsafeMutablePointer<AVFrame>?) -> Int32
    let takeFrame: @convention(c) (Context?, UnsafeMutablePointer<AVFrame>?) -> Int32

    /// The file name of the libavfilter the headers describe (its major version is its ABI).
    static let fileName = "libavfilter.so.\(LIBAVFILTER_VERSION_MAJOR)"

    /// Opened once, on first use, by whichever thread needs it first (Swift runs the initializer once).
    static let shared: Result<FilterLibrary, MediaError> = open()

    private static func open() -> Result<FilterLibrary, MediaError> {
        guard let handle = dlopen(fileName, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "not found"
            return .failure(MediaError(operation: "load filters", message: "cannot load \(fileName): \(reason)"))
        }
        func symbol<T>(_ name: String, as type: T.Type) throws(MediaError) -> T {
            guard let address = dlsym(handle, name) else {
                throw MediaError(operation: "load filters", message: "\(fileName) has no \(name)")
            }
            return unsafeBitCast(address, to: type)
        }
        do {
            return .success(
                FilterLibrary(
                    graphAlloc: try symbol("avfilter_graph_alloc", as: (@convention(c) () -> Graph?).self),
                    graphFree: try symbol(
                        "avfilter_graph_free", as: (@convention(c) (UnsafeMutablePointer<Graph?>?) -> Void).self),
                    filterByName: try symbol(
                        "avfilter_get_by_name",
                        as: (@convention(c) (UnsafePointer<CChar>?) -> UnsafePointer<AVFilter>?).self),
                    createFilter: try symbol(
                        "avfilter_graph_create_filter",
                        as: (@convention(c) (
                            UnsafeMutablePointer<Context?>?, UnsafePointer<AVFilter>?, UnsafePointer<CChar>?,
                            UnsafePointer<CChar>?, UnsafeMutableRawPointer?, Graph?
                        ) -> Int32).self),
                    link: try symbol(
                        "avfilter_link", as: (@convention(c) (Context?, UInt32, Context?, UInt32) -> Int32).self),
                    graphConfig: try symbol(
                        "avfilter_graph_config",
                        as: (@convention(c) (Graph?, UnsafeMutableRawPointer?) -> Int32).self),
                    addFrame: try symbol(
                        "av_buffersrc_add_frame",
                        as: (@convention(c) (Context?, UnsafeMutablePointer<AVFrame>?) -> Int32).self),
                    takeFrame: try symbol(
                        "av_buffersink_get_frame",
                        as: (@convention(c) (Context?, UnsafeMutablePointer<AVFrame>?) -> Int32).self)))
        } catch {
            return .failure(error)
        }
    }
}
