// The thread that runs the operator's screen commands (`--display-off-command`, `--display-on-command`):
// a command may take seconds (HDMI-CEC waits for the TV) and must never run under the engine lock, so the
// engine only leaves the wanted state here (latest wins: an off and an on asked while a command runs
// become the last of them) and this thread runs it, logs a failure and reports it to the state.
// Runs on its own thread, `queued.display`; `tell` and `stop` from any thread (they only enqueue).

import Logging
import SystemSupport

final class ScreenTeller: @unchecked Sendable {
    typealias Runner = @Sendable ([String], Double) -> ChildCommand.Outcome

    private let commands: ScreenPowerCommands
    private let runner: Runner
    private let logger: Logger
    private let report: @Sendable (Bool, ScreenPowerOutcome) -> Void
    private let mailbox = ThreadCondition()
    /// Guarded by `mailbox`: the state still to tell (nil: nothing), and whether the thread should leave.
    private var wanted: Bool?
    private var stopping = false

    init(
        commands: ScreenPowerCommands, runner: @escaping Runner, logger: Logger,
        report: @escaping @Sendable (Bool, ScreenPowerOutcome) -> Void
    ) {
        self.commands = commands
        self.runner = runner
        self.logger = logger
        self.report = report
    }

    func start() {
        Threads.start(named: "queued.display") { [self] in run() }
    }

    /// Asks for the screen to be `on`; returns at once.
    func tell(on: Bool) {
        mailbox.withLock {
            wanted = on
            mailbox.broadcast()
        }
    }

    /// The thread leaves after the command it runs (whose timeout bounds it).
    func stop() {
        mailbox.withLock {
            stopping = true
            mailbox.broadcast()
        }
    }

    private func run() {
        while let on = nextWanted() {
            let words = on ? commands.on : commands.off
            let outcome = runner(words, commands.timeout)
            if outcome.succeeded {
                logger.info("display \(on ? "on" : "off"): \(words.joined(separator: " ")) done")
                report(on, .done)
            } else {
                logger.warning("display \(on ? "on" : "off"): \(words.joined(separator: " ")) failed: \(outcome)")
                report(on, .failed("\(words.first ?? "") \(outcome)"))
            }
        }
    }

    private func nextWanted() -> Bool? {
        mailbox.withLock {
            while wanted == nil && !stopping { mailbox.wait() }
            if stopping { return nil }
            defer { wanted = nil }
            return wanted
        }
    }
}
