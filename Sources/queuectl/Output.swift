// Where queuectl's text goes: results to stdout, messages to stderr. Flushed per line because `watch` is
// often piped (`queuectl watch | grep …`), where stdout would otherwise sit in a block buffer. The C
// `stdout`/`stderr` globals are avoided (strict concurrency rejects them): fflush(nil) flushes every
// stream, and messages go straight to descriptor 2, which is unbuffered anyway.

import Glibc
import QueueRPC

enum Output {
    static func line(_ text: String) {
        print(text)
        fflush(nil)
    }

    static func json(_ value: JSONValue) {
        line(JSON.string(value))
    }

    static func error(_ text: String) {
        fflush(nil)
        let bytes = Array((text.hasSuffix("\n") ? text : text + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                write(STDERR_FILENO, raw.baseAddress.map { $0 + offset }, bytes.count - offset)
            }
            if written < 0, errno == EINTR { continue }
            // Nowhere left to report a failing stderr: give up quietly.
            guard written > 0 else { return }
            offset += written
        }
    }
}
