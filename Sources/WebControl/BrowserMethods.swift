// What the page may ask of the daemon: an allowlist of methods (nothing that stores or acknowledges proof of
// play, swaps the whole queue, evicts the cache or subscribes on the page's behalf), and for the methods
// that add items, only http(s) URLs or files inside the upload folder — never another local path (the
// daemon would read any file its user can). Pure: method and params in, a refusal or nil out.

import Foundation
import JSONText

public struct BrowserMethods: Sendable {
    public static let allowed: Set<String> = [
        "player.status", "player.play", "player.pause", "player.toggle", "player.stop", "player.next",
        "player.previous", "player.seek", "player.set",
        "queue.list", "queue.get", "queue.add", "queue.insert", "queue.remove", "queue.move", "queue.update",
        "queue.interrupt", "queue.setLoops",
        "overlay.list", "overlay.add", "overlay.update", "overlay.remove",
        "cache.status", "cache.usage", "cache.prefetch",
        "daemon.info", "daemon.health",
    ]
    static let addingItems: Set<String> = ["queue.add", "queue.insert", "queue.interrupt"]
    /// Overlays that name a file (an image): the same rule as items.
    static let namingPaths: Set<String> = ["overlay.add", "overlay.update"]

    /// The upload folder, resolved (symlinks followed) once.
    public let mediaDirectory: String

    public init(mediaDirectory: String) {
        self.mediaDirectory = Self.resolved(mediaDirectory) ?? mediaDirectory
    }

    /// Why the page may not call `method` with `params`, or nil.
    public func refusal(method: String, params: JSONValue?) -> String? {
        guard Self.allowed.contains(method) else { return "\(method) is not available from the page" }
        if Self.addingItems.contains(method) {
            let items = (params?["items"]?.arrayValue ?? []) + [params?["item"]].compactMap { $0 }
            for item in items {
                let uri = item.stringValue ?? item["uri"]?.stringValue ?? ""
                if let refusal = refusal(uri: uri) { return refusal }
            }
        }
        if Self.namingPaths.contains(method), let path = params?["path"]?.stringValue, let refusal = refusal(uri: path) {
            return refusal
        }
        return nil
    }

    /// http(s), or a path that is inside the upload folder once resolved.
    func refusal(uri: String) -> String? {
        if uri.hasPrefix("http://") || uri.hasPrefix("https://") { return nil }
        var path = uri
        if path.hasPrefix("file://") { path = String(path.dropFirst(7)).removingPercentEncoding ?? "" }
        guard path.hasPrefix("/"), let real = Self.resolved(path), real == mediaDirectory || real.hasPrefix(mediaDirectory + "/")
        else { return "only http(s) URLs and files uploaded to the media folder may be added (got \(uri))" }
        return nil
    }

    static func resolved(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }
}
