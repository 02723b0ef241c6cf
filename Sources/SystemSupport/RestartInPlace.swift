// Starting a program again in its own process (execv), as daemon.restart does: the same process id, so a
// service manager (systemd's MAINPID) and a supervisor keep following it, and the same arguments and
// environment. Every descriptor but the standard three is closed by the exec, so the new program finds no
// socket, file or audio connection of the old one left open.

import Glibc

public enum RestartInPlace {
    /// The program's own file: the one now on disk at its path when the running one was replaced (an upgrade
    /// writes a new file and the kernel then says "(deleted)"), so a restart runs the upgraded program.
    public static func programPath() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        var path = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let deleted = " (deleted)"
        if path.hasSuffix(deleted) { path.removeLast(deleted.count) }
        return access(path, X_OK) == 0 ? path : nil
    }

    /// Replaces this process with `program` run with `arguments` (argv[0] first). Returns only when the exec
    /// failed, with the reason; the caller then exits.
    public static func exec(_ program: String, arguments: [String]) -> String {
        markEveryDescriptorCloseOnExec()
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        argv.append(nil)
        execv(program, argv)
        let reason = String(cString: strerror(errno))
        for pointer in argv { free(pointer) }
        return "cannot run \(program) again: \(reason)"
    }

    /// FD_CLOEXEC on every open descriptor above stderr (those Swift, SDL, PulseAudio or NIO opened without it).
    private static func markEveryDescriptorCloseOnExec() {
        guard let directory = opendir("/proc/self/fd") else { return }
        var descriptors: [Int32] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if let fd = Int32(name), fd > 2 { descriptors.append(fd) }
        }
        let own = dirfd(directory)
        closedir(directory)
        for fd in descriptors where fd != own {
            let flags = fcntl(fd, F_GETFD)
            if flags >= 0 { _ = fcntl(fd, F_SETFD, flags | FD_CLOEXEC) }
        }
    }
}
