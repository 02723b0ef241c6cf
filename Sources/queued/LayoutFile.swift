// The layout kept in the state directory (`layout.json`): replaced whole with each layout.set — written
// beside it, synced, renamed over it, the directory synced — so that after a crash or a power cut the file
// holds the old layout or the new one, never a part. A damaged file is set aside and the screen starts
// as one zone. Called on the thread that applies layouts (one at a time).

import FoundationEssentials
import Glibc
import JSONText
import QueueRPC
import QueueServer
import ScreenLayout

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
            if unlink(path) != 0 && errno != ENOENT { throw LayoutFileError("cannot remove \(path): \(String(cString: strerror(errno)))") }
            syncDirectory()
            return
        }
        try replace(with: JSON.serialize(.object(["zones": .array(LayoutWire.zones(layout).map(\.json))])))
    }

    private func replace(with bytes: [UInt8]) throws {
        let temporary = path + ".tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw LayoutFileError("cannot write \(temporary): \(String(cString: strerror(errno)))") }
        let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard written == bytes.count, synced, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw LayoutFileError("cannot write \(path)")
        }
        syncDirectory()
    }

    private func syncDirectory() {
        let directory = open(String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)]), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            _ = fsync(directory)
            close(directory)
        }
    }
}

struct LayoutFileError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
