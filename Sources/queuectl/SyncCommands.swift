// `queuectl sync status`: how this screen's sync group stands, as its queued-sync last told the daemon
// (sync.status): who leads, and each member's offset to the leader over the last minute, drift and trim.

import ArgumentParser
import QueueClient
import QueueRPC

struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync", abstract: "The screen's sync group (a video wall; queued-sync).",
        subcommands: [SyncStatusCommand.self], defaultSubcommand: SyncStatusCommand.self)

    /// A line per member: id, role, offset p50/p99 (ms), drift and trim (ppm), re-alignments, last heard.
    static func describe(_ result: API.SyncStatus.Result) -> String {
        func number(_ value: Double?, _ digits: Int) -> String {
            guard let value else { return "-" }
            let scale = digits == 2 ? 100.0 : 10.0
            return "\((value * scale).rounded() / scale)"
        }
        let report = result.report
        let head = "group \(report.group): \(report.me) here, leader \(report.leader ?? "none yet") (told \(number(result.age, 1)) s ago)"
        let rows = report.members.map { member in
            "\(member.id)  \(member.role)  offset p50 \(number(member.offsetP50, 2)) ms  p99 \(number(member.offsetP99, 2)) ms  "
                + "drift \(number(member.driftPPM, 1)) ppm  trim \(number(member.trimPPM, 1)) ppm  "
                + "re-alignments \(member.realignments)  heard \(number(member.seenAgo, 1)) s ago"
        }
        return ([head] + rows).joined(separator: "\n")
    }
}

struct SyncStatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "status", abstract: "Who leads, and how far each member is from it.")
    @OptionGroup(title: "Global Options") var options: GlobalOptions

    func run() throws {
        let session = try Session(options)
        try session.show(try session.call(API.SyncStatus.self)) { SyncCommand.describe($0) }
    }
}
