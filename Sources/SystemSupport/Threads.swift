// Starting a named thread on pthreads, in place of Foundation's Thread (see Locks.swift for why not
// Foundation). The name is what `top -H`, `perf` and a core dump show (Linux keeps 15 bytes of it).

import Glibc

public enum Threads {
    /// Starts `body` on a new detached thread named `name`, with `stackSize` bytes of stack (0: the system's
    /// default, 8 MiB on Debian).
    public static func start(named name: String, stackSize: Int = 0, _ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Start(name: name, body: body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        if stackSize > 0 { pthread_attr_setstacksize(&attributes, stackSize) }
        var thread = pthread_t()
        let result = pthread_create(&thread, &attributes, { raw in
            let start = Unmanaged<Start>.fromOpaque(raw!).takeRetainedValue()
            if let setName = Threads.setName { _ = setName(pthread_self(), String(start.name.utf8.prefix(15))!) }
            start.body()
            return nil
        }, box)
        if result != 0 {
            Unmanaged<Start>.fromOpaque(box).release()
            fatalError("cannot start thread \(name): error \(result)")
        }
    }

    /// Sleeps the calling thread for `seconds` (resumed after a signal, so the whole time passes).
    public static func sleep(seconds: Double) {
        guard seconds > 0 else { return }
        let whole = seconds.rounded(.down)
        var request = timespec(tv_sec: Int(whole), tv_nsec: Int((seconds - whole) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) == -1 && errno == EINTR { request = remaining }
    }

    /// glibc's `pthread_setname_np`, which Swift's Glibc module does not show (it is behind _GNU_SOURCE).
    private static let setName: (@convention(c) (pthread_t, UnsafePointer<CChar>) -> Int32)? = {
        guard let symbol = dlsym(nil, "pthread_setname_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (pthread_t, UnsafePointer<CChar>) -> Int32).self)
    }()

    private final class Start {
        let name: String
        let body: @Sendable () -> Void
        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }
}
