// queued-mqtt: reads queued-mqtt.conf (the same `option=value` lines as queued.conf; the command line wins),
// blocks SIGINT/SIGTERM in every thread (the main thread takes them with sigwait and says offline), runs.

import ArgumentParser
import ConfigFile
import Foundation

var shutdownSignals = sigset_t()
sigemptyset(&shutdownSignals)
sigaddset(&shutdownSignals, SIGINT)
sigaddset(&shutdownSignals, SIGTERM)
pthread_sigmask(SIG_BLOCK, &shutdownSignals, nil)

let commandLine = Array(CommandLine.arguments.dropFirst())
var arguments = commandLine
do {
    let choice = ConfigFile.choice(in: commandLine)
    let file: ConfigFile?
    switch choice {
    case .none: file = nil
    case .explicit(let path): file = try ConfigFile.read(path: path)
    case .search: file = try ConfigFile.find(name: "queued-mqtt.conf", environment: ProcessInfo.processInfo.environment)
    }
    if let file { arguments = file.arguments + commandLine }
} catch {
    FileHandle.standardError.write(Data("queued-mqtt: \(error)\n".utf8))
    exit(64)
}
BridgeCommand.main(arguments)
