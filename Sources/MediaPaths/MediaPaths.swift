// Turns `queuectl add` arguments into the uris Protocol/README.md accepts: absolute paths. Relative paths are
// resolved against the client's cwd (the daemon's cwd is not the user's); directories expand to their
// media files in name order; playlists (.m3u/.m3u8) and URLs pass through for the daemon to expand or
// refuse. Paths are normalised lexically (no symlink resolution), so the daemon sees what the user named.

import Glibc

public enum MediaPaths {
    /// Extensions (lowercase) that a directory contributes: common audio, video and still formats.
    public static let mediaExtensions: Set<String> = [
        "mp3", "flac", "ogg", "oga", "opus", "wav", "m4a", "aac", "wma", "aif", "aiff", "ape", "wv", "mka",
        "ac3", "mp4", "m4v", "mkv", "webm", "mov", "avi", "wmv", "flv", "mpg", "mpeg", "ts", "m2ts", "mts",
        "ogv", "3gp", "png", "jpg", "jpeg", "bmp", "gif", "webp", "tif", "tiff",
    ]
    public static let playlistExtensions: Set<String> = ["m3u", "m3u8"]

    /// The uris for `arguments`, in order, directories expanded in place.
    public static func expand(_ arguments: [String], cwd: String) throws(MediaPathError) -> [String] {
        var uris: [String] = []
        for argument in arguments {
            // Anything with a scheme is the daemon's to accept (file://) or refuse (-32003).
            if argument.contains("://") || argument.hasPrefix("file:") {
                uris.append(argument)
                continue
            }
            let path = absolute(argument, cwd: cwd)
            var info = stat()
            guard stat(path, &info) == 0 else {
                throw .notFound(path: argument, reason: String(cString: strerror(errno)))
            }
            if info.st_mode & S_IFMT == S_IFDIR {
                let files = try mediaFiles(in: path)
                guard !files.isEmpty else { throw .noMediaFiles(directory: argument) }
                uris += files
            } else {
                uris.append(path)
            }
        }
        return uris
    }

    /// `path` made absolute against `cwd`, with ".", ".." and repeated slashes removed.
    public static func absolute(_ path: String, cwd: String) -> String {
        let joined = path.hasPrefix("/") ? path : cwd + "/" + path
        var parts: [Substring] = []
        for part in joined.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// Regular files (symlinks followed) with a media extension directly in `directory`, natural order;
    /// hidden files and playlists are left out (a folder's playlist usually lists the same files).
    public static func mediaFiles(in directory: String) throws(MediaPathError) -> [String] {
        guard let handle = opendir(directory) else {
            throw .unreadableDirectory(path: directory, reason: String(cString: strerror(errno)))
        }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard !name.hasPrefix("."), mediaExtensions.contains(fileExtension(name)) else { continue }
            var info = stat()
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG { names.append(name) }
        }
        let base = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        return names.sorted(by: NaturalOrder.isBefore).map { base + "/" + $0 }
    }

    /// Lowercased extension without the dot; "" when there is none.
    public static func fileExtension(_ name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...]).lowercased()
    }

    public static func isPlaylist(_ path: String) -> Bool { playlistExtensions.contains(fileExtension(path)) }
}
