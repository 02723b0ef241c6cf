// queued-fleet: reads queued-fleet.conf (the same `option=value` lines as queued.conf; the command line wins),
// then serves the fleet page until SIGINT/SIGTERM.

import ConfigFile
import Foundation

do {
    let arguments = try ConfigFile.arguments(
        Array(CommandLine.arguments.dropFirst()), name: "queued-fleet.conf",
        environment: ProcessInfo.processInfo.environment)
    FleetCommand.main(arguments)
} catch {
    FileHandle.standardError.write(Data("queued-fleet: \(error)\n".utf8))
    exit(64)
}
