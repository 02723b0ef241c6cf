// queued-web: reads queued-web.conf (the same `option=value` lines as queued.conf; the command line wins), then
// serves the page until SIGINT/SIGTERM.

import ConfigFile
import Foundation

do {
    let arguments = try ConfigFile.arguments(
        Array(CommandLine.arguments.dropFirst()), name: "queued-web.conf",
        environment: ProcessInfo.processInfo.environment)
    WebCommand.main(arguments)
} catch {
    FileHandle.standardError.write(Data("queued-web: \(error)\n".utf8))
    exit(64)
}
