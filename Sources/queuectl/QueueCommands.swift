// Queue-editing subcommands (queue.remove, queue.move, queue.clear, queue.setLoops, queue.update,
// queue.interrupt) and `ls`. Grouped like TransportCommands: each is a call and a line of output.

import ArgumentParser
import MediaPaths
import QueueClient
import QueueRPC
import QueuectlPresentation

struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Remove items by id.")
    @OptionGroup(title: "Global Options") var options: GlobalOptions
    @Argument(help: ArgumentHelp("Items to remove.", valueName: "id")) var ids: [Int64]

    func validate() throws {
        guard !ids.isEmpty else { throw ValidationError("give at least one item id") }
    }

    func run() throws {
        let session = try Session(options)
        try session.show(try session.call(API.QueueRemove.self, .init(ids: ids))) { result in
            let removed = result.removed
            return removed.isEmpty ? "removed nothing" : "removed " + removed.map { "#\($0)" }.joined(separator: " ")
        }
    }
}

struct Move: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mv", abstract: "Move an item to a queue index (0 = first).")
    @OptionGroup(title: "Global Options") var options: GlobalOptions
    @Argument(help: ArgumentHelp("Item to move.", valueName: "id")) var id: Int64
    @Argument(help: ArgumentHelp("Its new index.", valueName: "index")) var index: Int64

    func run() throws {
        let session = try Session(options)
        try session.show(try session.call(API.QueueMove.self, .init(id: id, index: index))) { _ in
            "moved #\(id) to index \(index)"
        }
    }
}

struct Clear: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Remove every item from the queue.")
    @OptionGroup(title: "Global Options") var options: GlobalOptions

    func run() throws {
        let session = try Session(options)
        try session.show(try session.call(API.QueueClear.self)) { _ in "queue cleared" }
    }
}

struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ls", abstract: "List the queue (\(QueueTable.currentMarker) marks the current item).")
    @OptionGroup(title: "Global Options") var options: GlobalOptions

    func run() throws {
        let session = try Session(options)
        try session.show(try session.listAll()) { list in QueueTable.render(list.items, currentId: list.currentId) }
    }
}

struct Loop: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Set how often the whole queue plays: N passes, forever, or off (once).")
    @OptionGroup(title: "Global Options") var options: GlobalOptions
    @Argument(help: ArgumentHelp("N (0 = forever), forever or off.", valueName: "count")) var count: LoopCount

    func run() throws {
        let session = try Session(options)
        let answer = try session.call(API.QueueSetLoops.self, .init(loops: count.count))
        try session.show(answer) { result in "loop: \(StatusBlock.loopText(result.loops))" }
    }
}

struct Loops: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Set how often one item plays: N or forever.")
    @OptionGroup(title: "Global Options") var options: GlobalOptions
    @Argument(help: ArgumentHelp("The item.", valueName: "id")) var id: Int64
    @Argument(help: ArgumentHelp("Plays (0 = forever), forever or off (once).", valueName: "count"))
    var count: LoopCount

    func run() throws {
        let session = try Session(options)
        try session.show(try session.call(API.QueueUpdate.self, .init(id: id, loops: count.count))) { result in
            let item = result.item
            return "#\(item.id) \(item.displayName): loops \(DurationFormat.loops(item.loops))"
        }
    }
}

struct Interrupt: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play one file or URL now, then go back to the queue where it was.",
        discussion: """
            The interrupted item resumes at the position it had, its play count unchanged. An interrupt \
            given during another one plays after it.
            """)
    @OptionGroup(title: "Global Options") var options: GlobalOptions
    @Argument(help: ArgumentHelp("A media file or http(s) URL.", valueName: "path"), completion: .file())
    var path: String
    @Option(help: ArgumentHelp("How many times it plays (1 to 1000).", valueName: "n"))
    var loops: Int64?

    func validate() throws {
        if let loops, !(1...API.QueueInterrupt.maxLoops).contains(loops) {
            throw ValidationError("--loops must be between 1 and \(API.QueueInterrupt.maxLoops)")
        }
    }

    func run() throws {
        let uri = path.contains("://") ? path : MediaPaths.absolute(path, cwd: try Session.currentDirectory())
        let session = try Session(options)
        let params = API.QueueInterrupt.Params(item: RPCItemInput(uri: uri), loops: loops)
        try session.show(try session.call(API.QueueInterrupt.self, params)) { result in
            "interrupting with #\(result.id)" + (loops.map { $0 > 1 ? " (\($0) times)" : "" } ?? "")
        }
    }
}
