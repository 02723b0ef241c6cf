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

    /// The layout saved, nil when none is (or `problem` says why the file was set aside).
    func read() -> (layout: Layout?, problem: String?) {
        guard let data = FileManager.default.contents(atPath: path) else { return (nil, nil) }
        do {
            let json = try JSON.parse([UInt8](data))
            let params = try API.LayoutSet.Params(reading: try ParamReader(.byName(json.objectValue ?? [:]), order: API.LayoutSet.Params.order))
            return (try LayoutWire.layout(params.zones).validated(), nil)
        } catch {
            let aside = path + ".damaged"
            _ = rename(path, aside)
            return (nil, "\(path) could not be read (\(error)); set aside as \(aside)")
        }
    }

    /// Replaces the file with `layout` (the full screen: the file is removed). Throws when it cannot.
    func write(_ layout: Layout) throws {
        if layout == .fullScreen {
            if unlink(path) != 0 && errno != ENOENT { throw LayoutFileError("cannot remove \(path): \(String(cString: strerror(errno)))") }
            syncDirectory()
            return
        }
        let bytes = JSON.serialize(.object(["zones": .array(LayoutWire.zones(layout).map(\.json))]))
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
