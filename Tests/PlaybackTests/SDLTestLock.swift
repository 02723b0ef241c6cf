// SDL's init state, hints and environment are process-global: every test that opens an SDL video output
// (in any suite of this test process) runs its SDL part inside `SDLTestLock.run`, so they never overlap.

import Foundation

enum SDLTestLock {
    private static let lock = NSLock()

    static func run<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
