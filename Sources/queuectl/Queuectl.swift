// The root of queuectl's command tree. Each subcommand is a small struct that turns its arguments into
// one or two JSON-RPC calls (Protocol/README.md) and prints the result as text or, with --json, as the result JSON.

import ArgumentParser
import QueueRPC

struct Queuectl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "queuectl",
        abstract: "Control queued, the gapless media-queue playback daemon.",
        discussion: """
            queuectl talks JSON-RPC 2.0 to queued over its Unix socket: --socket PATH, else $QUEUED_SOCKET, \
            else $XDG_RUNTIME_DIR/queued/queued.sock.

            Exit status: 0 success, 1 the daemon reported an error, 2 usage error, 3 queued is not \
            reachable (not running, no socket path, no answer in time), 4 `wait` timed out.
            """,
        version: "queuectl \(QueuedVersion.number)",
        subcommands: [
            Add.self, Replace.self, Next.self, Prev.self, Play.self, Pause.self, Toggle.self, Stop.self, Seek.self,
            Remove.self, Move.self, Clear.self, List.self, Status.self, Loop.self, Loops.self,
            Volume.self, Mute.self, Unmute.self, Fit.self, Rotate.self, Display.self, Screenshot.self, Watch.self, Current.self, Wait.self, Crop.self,
            Interrupt.self, OverlayCommand.self, Save.self, Cache.self, Call.self, Fleet.self, LayoutCommand.self, SyncCommand.self,
        ])

    // Declared here too so the options may also come before the subcommand (`queuectl --json ls`); the
    // subcommand's own group receives them.
    @OptionGroup var options: GlobalOptions
}
