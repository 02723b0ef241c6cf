// The daemon's command-line arguments as queue items, through the code queue.add uses (ItemInputs), so
// `queued DIR list.m3u8` queues what `queuectl add DIR list.m3u8` would: relative paths made absolute
// against the daemon's cwd, directories expanded to their media files in natural order, playlists to
// their entries (EXTINF titles kept). An argument that cannot be queued is logged and skipped: an
// unattended box plays what it can.

import FoundationEssentials
import Glibc
import SystemSupport
import Logging
import MediaPaths
import QueueModel
import QueueRPC
import QueueServer

enum CommandLineItems {
    /// Runs on the main thread at start-up.
    static func expand(_ arguments: [String], loops: Int, logger: Logger) -> [MediaItem] {
        let cwd = FileManager.default.currentDirectoryPath
        var items: [MediaItem] = []
        for argument in arguments {
            let hasScheme = argument.contains("://") || argument.hasPrefix("file:")
            let uri = hasScheme ? argument : MediaPaths.absolute(argument, cwd: cwd)
            do {
                items += try ItemInputs.mediaItems([RPCItemInput(uri: uri, loops: Int64(loops))])
            } catch {
                logger.error("cannot queue \(argument): \(error.message)")
            }
        }
        return items
    }
}
