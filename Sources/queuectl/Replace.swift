// `queuectl replace`: swaps the whole queue for files, directories and playlists in one step
// (`queue.replace`), now or once the play under way has ended. Paths are made absolute here, as `add` does.

import ArgumentParser
import MediaPaths
import QueueClient
import QueueRPC

struct Replace: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Replace the whole queue with files, directories or playlists, in one step.",
        discussion: """
            By default what plays ends at once and the new queue plays from its top. With --at-item-end the \
            play under way ends whole first, and the new queue follows it without a gap.
            """)

    @OptionGroup(title: "Global Options") var options: GlobalOptions

    @Argument(
        help: ArgumentHelp("Media files, directories or playlists (none: the queue is emptied).", valueName: "path"),
        completion: .file())
    var paths: [String] = []

    @Flag(help: "Let the play under way end whole, then play the new queue.")
    var atItemEnd = false

    @Option(help: ArgumentHelp("Replace only if the queue is still at this version.", valueName: "version"))
    var ifVersion: Int64?

    @Option(help: ArgumentHelp("Passes through the new queue (0 = forever).", valueName: "n"))
    var queueLoops: Int64?

    func validate() throws {
        if let ifVersion, ifVersion < 0 { throw ValidationError("--if-version must be 0 or more") }
        if let queueLoops, queueLoops < 0 { throw ValidationError("--queue-loops must be 0 (forever) or more") }
    }

    func run() throws {
        let uris = try MediaPaths.expand(paths, cwd: try Session.currentDirectory())
        let session = try Session(options)
        let params = API.QueueReplace.Params(
            items: uris.map { RPCItemInput(uri: $0) }, at: atItemEnd ? .itemEnd : .now, ifVersion: ifVersion,
            loops: queueLoops)
        try session.show(try session.call(API.QueueReplace.self, params)) { result in
            "replaced: " + Add.describe(ids: result.ids) + " (queue version \(result.version))"
        }
    }
}
