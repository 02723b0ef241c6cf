// The renderer's events to the daemon: one JSON object per line on standard output. Main loop thread only.

import Glibc
import JSONText

enum EventWriter {
    /// The daemon's end of the protocol (main.swift moves it off standard output).
    nonisolated(unsafe) static var output: Int32 = 1

    static func send(_ members: [(String, JSONValue)]) {
        var bytes = JSON.serialize(.object(JSONObject(members)))
        bytes.append(UInt8(ascii: "\n"))
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(output, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    exit(0)  // the daemon is gone
                }
                offset += written
            }
        }
    }
}
