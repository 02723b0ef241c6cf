// queued-mqtt: reads queued-mqtt.conf (the same `option=value` lines as queued.conf; the command line wins),
// blocks SIGINT/SIGTERM in every thread (the main thread takes them with sigwait and says offline), runs.

import ArgumentParser
import ConfigFile
import FoundationEssentials
import Glibc
import SystemSupport

var shutdownSignals = sigset_t()
sigemptyset(&shutdownSignals)
sigaddset(&shutdownSignals, SIGINT)
sigaddset(&shutdownSignals, SIGTERM)
pthread_sigmask(SIG_BLOCK, &shutdownSignals, nil)

do {
    let arguments = try ConfigFile.arguments(
        Array(CommandLine.arguments.dropFirst()), name: "queued-mqtt.conf",
        environment: ProcessInfo.processInfo.environment)
    BridgeCommand.main(arguments)
} catch {
    let line = Array("queued-mqtt: \(error)\n".utf8)
    _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    exit(64)
}
