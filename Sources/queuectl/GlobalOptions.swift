// Options every queuectl subcommand takes (an @OptionGroup in each, as in swift-argument-parser's math
// example), so they may be written after the subcommand: `queuectl ls --json`.

import ArgumentParser

struct GlobalOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Control socket of the daemon (default: $QUEUED_SOCKET, else $XDG_RUNTIME_DIR/queued/queued.sock).",
            valueName: "path"), completion: .file())
    var socket: String?

    @Flag(name: .long, help: "Print the method's JSON result (one line) instead of text, for scripts.")
    var json = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Seconds to wait for each answer from the daemon (default 10); for `wait`, for the event (default: no limit).",
            valueName: "seconds"))
    var timeout: Double?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The zone whose queue and player the command acts on (see `queuectl layout`; default: main).",
            valueName: "name"))
    var zone: String?

    /// How long a call waits for its answer.
    var answerTimeout: Double { timeout ?? 10 }

    func validate() throws {
        if let timeout, !(timeout > 0 && timeout.isFinite) {
            throw ValidationError("--timeout must be a positive number of seconds")
        }
    }
}
