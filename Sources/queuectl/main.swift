// queuectl's entry point. Not swift-argument-parser's `main()`: that exits 64 (EX_USAGE) on usage errors,
// and queuectl promises 2 (see ExitStatus), so parsing and running are done here and every outcome goes
// through ExitStatus.

import ArgumentParser
import Glibc

func runQueuectl(_ arguments: [String]) -> Int32 {
    var command: ParsableCommand
    do {
        command = try Queuectl.parseAsRoot(arguments)
    } catch {
        return ExitStatus.reportParseOutcome(error)
    }
    do {
        try command.run()
        return ExitStatus.ok.rawValue
    } catch {
        return ExitStatus.reportRunFailure(error)
    }
}

exit(runQueuectl(Array(CommandLine.arguments.dropFirst())))
