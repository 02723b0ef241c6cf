// The layout kept in the state directory (`layout.json`): replaced whole with each layout.set (DurableFile),
// so that after a crash or a power cut the file holds the old layout or the new one, never a part. A damaged file is set aside and the screen starts
// as one zone. Called on the thread that applies layouts (one at a time).

import FoundationEssentials
import Glibc
import JSONText
import QueueRPC
import QueueServer
import ScreenLayout
import SystemSupport

struct LayoutFile {
    let path: String

    init(directory: String) { path = directory + "/layout.json" }

    /// The layout saved (as a plan: one layout without a schedule, or layouts by daypart), nil when none is
    /// (or `problem` says why the file was set aside).
    func read() -> (plan: LayoutPlan?, problem: String?) {
        guard let data = FileManager.default.contents(atPath: path) else { return (nil, nil) }
        do {
            return (try Self.plan(from: [UInt8](data)), nil)
        } catch {
            let aside = path + ".damaged"
            _ = rename(path, aside)
            return (nil, "\(path) could not be read (\(error)); set aside as \(aside)")
        }
    }

    /// A layout file's plan: {"zones": [...]} (one layout) or {"layouts": [{name, schedule, zones}]}.
    static func plan(from bytes: [UInt8]) throws -> LayoutPlan {
        let json = try JSON.parse(bytes)
        guard let object = json.objectValue else { throw LayoutFileError("expected an object {\"zones\": [...]} or {\"layouts\": [...]}") }
        let params = try API.LayoutSet.Params(reading: try ParamReader(.byName(object), order: API.LayoutSet.Params.order))
        if let layouts = params.layouts { return try LayoutWire.plan(layouts).validated() }
        return LayoutPlan(layouts: [try LayoutWire.layout(params.zones).validated()])
    }

    /// Replaces the file with layouts by daypart.
    func write(_ plan: LayoutPlan) throws {
        try replace(with: JSON.serialize(.object(["layouts": .array(LayoutWire.layouts(plan).map(\.json))])))
    }

    /// Replaces the file with `layout` (the full screen: the file is removed). Throws when it cannot.
    func write(_ layout: Layout) throws {
        if layout == .fullScreen {
            try DurableFile.remove(path)
            return
        }
        try replace(with: JSON.serialize(.object(["zones": .array(LayoutWire.zones(layout).map(\.json))])))
    }

    private func replace(with bytes: [UInt8]) throws { try DurableFile.replace(path, with: bytes) }
}

struct LayoutFileError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
