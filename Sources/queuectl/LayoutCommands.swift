// `queuectl layout …`: the screen's zones (layout.get, layout.set). `layout set FILE` sends the zones of a
// JSON file ({"zones": [...]}, as `--layout` takes it); `--zone NAME` on any queue or player command then
// acts on that zone's queue.

import ArgumentParser
import FoundationEssentials
import QueueClient
import QueueRPC

struct LayoutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layout", abstract: "Show or set the screen's zones (each with its own queue: --zone NAME).",
        subcommands: [LayoutShow.self, LayoutSet.self], defaultSubcommand: LayoutShow.self)

    /// One line per zone: its name, where it is, what it is for.
    static func describe(_ zones: [RPCZone]) -> String {
        zones.map { zone in
            guard let rect = zone.rect else {
                return "\(zone.name)  music (ducked \(zone.duck ?? -18) dB over \(zone.duckRamp ?? 0.5) s)"
            }
            let place = [rect.x, rect.y, rect.w, rect.h].map(\.text)
            let extras = [
                zone.audio == true ? "sound" : nil, zone.content.map(\.rawValue), zone.fit.map(\.rawValue),
                zone.z.flatMap { $0 == 0 ? nil : "z \($0)" }, zone.rotate.flatMap { $0 == 0 ? nil : "\($0)°" },
                zone.background,
            ].compactMap { $0 }
            return "\(zone.name)  at \(place[0]),\(place[1]) size \(place[2])x\(place[3])  \(extras.joined(separator: " "))"
        }.joined(separator: "\n")
    }
}

extension RPCZoneLength {
    var text: String {
        switch self {
        case .pixels(let value): value == value.rounded() ? "\(Int64(value))" : "\(value)"
        case .percent(let value): (value == value.rounded() ? "\(Int64(value))" : "\(value)") + "%"
        }
    }
}

struct LayoutShow: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "get", abstract: "The zones in force.")
    @OptionGroup(title: "Global Options") var options: GlobalOptions

    func run() throws {
        let session = try Session(options)
        try session.show(try session.call(API.LayoutGet.self)) { LayoutCommand.describe($0.zones) }
    }
}

struct LayoutSet: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set", abstract: "Cut the screen into the zones of a JSON file ({\"zones\": [...]}).")
    @OptionGroup(title: "Global Options") var options: GlobalOptions
    @Argument(help: ArgumentHelp("The layout file.", valueName: "file"), completion: .file()) var file: String
    @Flag(help: "Wait for the main zone's current item to end.") var atItemEnd = false

    func run() throws {
        guard let data = FileManager.default.contents(atPath: file) else { throw QueuectlError("cannot read \(file)") }
        let params: API.LayoutSet.Params
        do {
            let json = try JSON.parse([UInt8](data))
            guard let object = json.objectValue else { throw QueuectlError("\(file): expected an object {\"zones\": [...]}") }
            params = try API.LayoutSet.Params(reading: try ParamReader(.byName(object), order: API.LayoutSet.Params.order))
        } catch let error as RPCError {
            throw QueuectlError("\(file): \(error.message)")
        } catch let error as QueuectlError {
            throw error
        } catch {
            throw QueuectlError("\(file): not JSON: \(error)")
        }
        var sent = params
        sent.at = atItemEnd ? .itemEnd : params.at
        let session = try Session(options)
        try session.show(try session.call(API.LayoutSet.self, sent)) { result in
            (result.pending ? "waiting for the main zone's item to end; in force now:\n" : "")
                + LayoutCommand.describe(result.zones)
        }
    }
}
