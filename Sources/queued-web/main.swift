// queued-web: reads queued-web.conf (the same `option=value` lines as queued.conf; the command line wins), then
// serves the page until SIGINT/SIGTERM.

import ConfigFile
import Foundation

let commandLine = Array(CommandLine.arguments.dropFirst())
var arguments = commandLine
do {
    let file: ConfigFile?
    switch ConfigFile.choice(in: commandLine) {
    case .none: file = nil
    case .explicit(let path): file = try ConfigFile.read(path: path)
    case .search: file = try ConfigFile.find(name: "queued-web.conf", environment: ProcessInfo.processInfo.environment)
    }
    if let file { arguments = file.arguments + commandLine }
} catch {
    FileHandle.standardError.write(Data("queued-web: \(error)\n".utf8))
    exit(64)
}
WebCommand.main(arguments)
