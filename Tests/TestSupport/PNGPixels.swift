// A PNG's pixels as the ffmpeg CLI decodes them, to compare a screenshot with what the renderer read back.

import Foundation

public enum PNGPixels {
    /// Width, height and R,G,B,A bytes, top row first.
    public static func decode(_ png: [UInt8]) throws -> (width: Int, height: Int, rgba: [UInt8]) {
        let directory = try TemporaryDirectory(prefix: "queued-png")
        let path = directory.path + "/picture.png"
        try Data(png).write(to: URL(fileURLWithPath: path))
        let size = try ChildProcess.check(
            "ffprobe", ["-v", "error", "-show_entries", "stream=width,height", "-of", "csv=p=0", path])
        let parts = size.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").compactMap { Int($0) }
        let arguments = ["-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", "rgba", "pipe:1"]
        let decoded = try ChildProcess.runCapturingData("ffmpeg", arguments)
        guard decoded.status == 0, parts.count == 2 else {
            throw TestSupportError.commandFailed(
                command: "ffmpeg " + arguments.joined(separator: " "), status: decoded.status,
                stderr: String(decoding: decoded.stderr, as: UTF8.self))
        }
        return (parts[0], parts[1], Array(decoded.stdout))
    }
}
