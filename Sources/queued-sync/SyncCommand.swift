// queued-sync's command line and config file (`queued-sync.conf`; command line wins): the group, this
// member's id, where it listens and whom it tells (peers, or a multicast group), the group's key, and the
// daemon's socket. The key file is refused unless only its owner may read it (mode 0600) and it holds at
// least 16 bytes: without the key nobody can join, lead or move the group.

import ArgumentParser
import FoundationEssentials
import Glibc
import MediaPaths
import SyncGroup
import SystemClock
import SystemSupport

struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "queued-sync",
        abstract: "Keep this screen in step with the other screens of its sync group (a video wall).",
        discussion: """
            Members of a group find each other over UDP (the peers named, or a multicast group), elect the \
            lowest id that is up as leader, estimate the leader's clock from timed exchanges, mirror its queue \
            and follow its play: small distances by trimming the sound's pace (at most 0.5 %), larger ones \
            by one re-alignment. Talks to the daemon only through its control socket (sync.*). \
            `queuectl sync status` shows how the group stands.
            """)

    @Option(name: .customLong("sync-group"), help: ArgumentHelp("The group's name (the same on every member).", valueName: "name"))
    var group: String

    @Option(help: ArgumentHelp("This member's id (default: the host name). The lowest id that is up leads.", valueName: "id"))
    var id: String?

    @Option(help: ArgumentHelp("Where to listen: IPv4 address and UDP port.", valueName: "host:port"))
    var listen: String = "0.0.0.0:7788"

    @Option(help: ArgumentHelp("Another member's address (repeat); without any, the multicast group is used.", valueName: "host:port"))
    var peer: [String] = []

    @Option(help: ArgumentHelp("The multicast group and port when no peer is named.", valueName: "host:port"))
    var multicast: String = "239.255.77.88:7788"

    @Option(name: .customLong("key-file"), help: ArgumentHelp("The group's shared key (at least 16 bytes, mode 0600).", valueName: "file"))
    var keyFile: String

    @Option(help: ArgumentHelp("Distance beyond which a member re-aligns instead of trimming its pace.", valueName: "ms"))
    var threshold: Double = 40

    @Option(help: ArgumentHelp("The daemon's control socket (default: as queuectl finds it).", valueName: "path"))
    var socket: String?

    func validate() throws {
        guard SyncMessage.isName(group) else { throw ValidationError("--sync-group: 1-64 of letters, digits, -, _ and .") }
        if let id, !SyncMessage.isName(id) { throw ValidationError("--id: 1-64 of letters, digits, -, _ and .") }
        guard threshold > 0, threshold <= 1000 else { throw ValidationError("--threshold: 1 to 1000 ms") }
    }

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let key = try Self.readKey(keyFile)
        let socketPath = try SocketPath.resolve(explicit: socket, environment: environment)
        let me = id ?? Self.hostName()
        guard SyncMessage.isName(me) else { throw ValidationError("the host name is no id; give --id") }
        let peers = try peer.map { try GroupAddress(parsing: $0) }
        let network = try GroupSocket(
            listen: try GroupAddress(parsing: listen), peers: peers,
            multicast: peers.isEmpty ? try GroupAddress(parsing: multicast) : nil, key: key)
        let clock = GroupClock.fromEnvironment(environment)
        let member = GroupMember(
            group: group, me: me, socketPath: socketPath, network: network, clock: clock, threshold: threshold / 1000)
        member.start()
        log("queued-sync: \(me) in group \(group), \(peers.isEmpty ? "multicast \(multicast)" : "peers \(peer.joined(separator: " "))")")
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        var received: Int32 = 0
        sigwait(&signals, &received)
        member.stop()
    }

    static func readKey(_ path: String) throws -> [UInt8] {
        var info = stat()
        guard stat(path, &info) == 0 else { throw ValidationError("--key-file \(path): \(String(cString: strerror(errno)))") }
        guard info.st_mode & 0o077 == 0 else { throw ValidationError("--key-file \(path): others may read it; chmod 600") }
        guard let data = FileManager.default.contents(atPath: path), data.count >= 16, data.count <= 4096 else {
            throw ValidationError("--key-file \(path): must hold 16 to 4096 bytes")
        }
        return [UInt8](data)
    }

    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        gethostname(&buffer, buffer.count - 1)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// One line to standard error.
func log(_ text: String) {
    let line = Array((text + "\n").utf8)
    _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
}
