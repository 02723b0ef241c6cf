// queued-sync: reads queued-sync.conf (the same `option=value` lines as queued.conf; the command line wins),
// blocks SIGINT/SIGTERM in every thread (the main thread takes them with sigwait), runs.

import ArgumentParser
import ConfigFile
import FoundationEssentials
import Glibc

var shutdownSignals = sigset_t()
sigemptyset(&shutdownSignals)
sigaddset(&shutdownSignals, SIGINT)
sigaddset(&shutdownSignals, SIGTERM)
pthread_sigmask(SIG_BLOCK, &shutdownSignals, nil)

do {
    let arguments = try ConfigFile.arguments(
        Array(CommandLine.arguments.dropFirst()), name: "queued-sync.conf",
        environment: ProcessInfo.processInfo.environment)
    SyncCommand.main(arguments)
} catch {
    let line = Array("queued-sync: \(error)\n".utf8)
    _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    exit(64)
}
