// What an item's uri names, read the one way the daemon reads it: an http(s) URL, or a local path (an absolute
// path, or a file:// URL percent-decoded). Shared by the daemon's ItemInputs and the caller policy of the page
// and the fleet bridge, so no spelling of a uri can mean one thing to the door and another to the daemon.
// And FolderConfinement: the folders a confined caller may name, judged on the real path (symlinks and `..`
// resolved by realpath), never on the text.

import Glibc
import SystemSupport

public enum ItemURI: Equatable, Sendable {
    case network(String)
    case local(String)

    /// Why a uri names neither.
    public struct Refusal: Error, Equatable, Sendable, CustomStringConvertible {
        public let reason: String
        public var description: String { reason }
    }

    /// Whether `uri` is an http(s) URL or a stream (StreamKind: rtsp, srt, udp…), the scheme in any case, as
    /// FFmpeg and URL read it.
    public static func isNetwork(_ uri: String) -> Bool {
        let scheme = uri.prefix(8).lowercased()
        return scheme.hasPrefix("http://") || scheme.hasPrefix("https://") || StreamKind(uri: uri) != nil
    }

    static let allowedURIs = "only absolute file paths, file://, http(s):// and stream (rtsp, rtmp, srt, udp, rtp) URLs"

    public init(_ uri: String) throws(Refusal) {
        if Self.isNetwork(uri) {
            self = .network(uri)
            return
        }
        self = .local(try Self.localPath(of: uri))
    }

    /// The local path a uri names: an absolute path as it is, file:///path or file://localhost/path decoded.
    public static func localPath(of uri: String) throws(Refusal) -> String {
        if uri.hasPrefix("/") { return uri }
        if uri.lowercased().hasPrefix("file://") {
            let rest = uri.dropFirst("file://".count)
            let path =
                rest.hasPrefix("/")
                ? String(rest) : rest.lowercased().hasPrefix("localhost/") ? String(rest.dropFirst("localhost".count)) : ""
            guard !path.isEmpty, let decoded = PathText.percentDecoded(path), !decoded.contains("\0") else {
                throw Refusal(reason: "only local file:// URLs (file:///path) are allowed")
            }
            return decoded
        }
        if uri.isEmpty { throw Refusal(reason: "the URI is empty") }
        if let colon = uri.firstIndex(of: ":"), !uri[..<colon].contains("/") {
            throw Refusal(reason: "\(Self.allowedURIs) are allowed, not \(uri[..<colon]):")
        }
        throw Refusal(reason: "relative paths are not allowed: pass an absolute path")
    }
}

/// What a confined caller may name: local files only inside `folders` (real paths), http(s) only if `network`.
public struct FolderConfinement: Equatable, Sendable {
    /// The folders as given; each is resolved again at every check, so a folder made (or made again) after
    /// the confinement counts.
    public let given: [String]
    public let network: Bool

    public init(folders: [String], network: Bool) {
        given = folders
        self.network = network
    }

    /// Real paths (symlinks followed) of the folders that exist now: nothing can be inside one that does not.
    public var folders: [String] { given.compactMap(Self.realPath) }

    /// nil when `path` may be named, else why not. The path must exist: its real path is what is judged.
    public func refusal(path: String) -> String? {
        guard let real = Self.realPath(path) else {
            return "\(path) does not exist or cannot be resolved"
        }
        let folders = self.folders
        for folder in folders where real == folder || real.hasPrefix(folder == "/" ? "/" : folder + "/") {
            return nil
        }
        return folders.isEmpty
            ? "local files may not be named on this connection (\(path))"
            : "\(path) is outside the folders this connection may name (\(folders.joined(separator: ", ")))"
    }

    /// nil when `uri` may be named, else why not.
    public func refusal(uri: String) -> String? {
        do {
            switch try ItemURI(uri) {
            case .network: return network ? nil : "network items (http(s), streams) may not be named on this connection"
            case .local(let path): return refusal(path: path)
            }
        } catch {
            return error.reason
        }
    }

    /// `path` with every symlink and `..` resolved, or nil.
    public static func realPath(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }
}
