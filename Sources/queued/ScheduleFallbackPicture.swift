// `--schedule-fallback`: what the screen shows while every item is outside its schedule. An image is
// decoded once at start-up; one that cannot be read is logged and black is shown instead (a bad setting
// never keeps the daemon from starting).

import Logging
import Media
import Playback

enum ScheduleFallbackPicture {
    static func load(_ setting: String, logger: Logger) -> ScheduleFallback {
        switch setting {
        case "black": return .black
        case "last": return .lastPicture
        default:
            do throws(MediaError) {
                var options = MediaReaderOptions()
                options.decodeVideo = true
                let reader = try MediaReader(path: setting, options: options)
                guard let frame = try reader.readVideo() else {
                    throw MediaError(operation: "decode", path: setting, message: "no picture in it")
                }
                return .still(frame)
            } catch {
                logger.warning("--schedule-fallback: \(error.description); showing black instead")
                return .black
            }
        }
    }
}
