// A unique scratch directory under /tmp, removed recursively on deinit or remove().
// Tests keep the object alive for as long as they use the path.

import Foundation
import Glibc

/// Thread-safety: `path` is immutable; `removed` is guarded by `lock`, so remove() is idempotent.
public final class TemporaryDirectory: @unchecked Sendable {
    public let path: String
    private let lock = NSLock()
    private var removed = false

    /// Creates /tmp/<prefix>-XXXXXX with mkdtemp (atomic and unique across processes).
    public init(prefix: String = "queued-test") throws {
        var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
        let created = template.withUnsafeMutableBufferPointer { buffer -> Bool in
            mkdtemp(buffer.baseAddress!) != nil
        }
        guard created else {
            throw TestSupportError.io("mkdtemp /tmp/\(prefix)-XXXXXX: \(String(cString: strerror(errno)))")
        }
        path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    deinit { remove() }

    /// A path inside the directory (not created).
    public func file(_ name: String) -> String { "\(path)/\(name)" }

    /// Removes the directory and everything in it. Safe to call more than once.
    public func remove() {
        let shouldRemove = lock.withLock { () -> Bool in
            defer { removed = true }
            return !removed
        }
        if shouldRemove { try? FileManager.default.removeItem(atPath: path) }
    }
}
