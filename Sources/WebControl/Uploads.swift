// Files uploaded from the browser into the media folder: the body is streamed to disk as it arrives (never
// held in memory), refused before a byte is written when it declares more than the cap or than the disk
// can take (keeping a reserve free), cut off with 413 the moment it passes the cap, and written under a
// temporary name that becomes the server's chosen name only when complete — a refused or broken upload
// leaves no file. The name is the server's: the browser's name reduced to letters, digits, `.`, `-`, `_`
// (no directory part, no leading dot), made unique in the folder.

import Foundation
import Hummingbird
import _NIOFileSystem

public struct UploadLimits: Sendable {
    /// Largest file accepted.
    public var maxBytes: Int64
    /// Left free on the media folder's disk after an upload.
    public var reserveBytes: Int64

    public init(maxBytes: Int64 = 4 << 30, reserveBytes: Int64 = 256 << 20) {
        self.maxBytes = maxBytes
        self.reserveBytes = reserveBytes
    }
}

public enum UploadName {
    /// A name that cannot leave the folder or hide in it: `../../etc/x` → `x`, `a b?.mp4` → `a_b_.mp4`.
    public static func safe(_ raw: String) -> String {
        let last = raw.replacingOccurrences(of: "\\", with: "/").split(separator: "/").last.map(String.init) ?? ""
        var name = String(
            last.unicodeScalars.map { scalar -> Character in
                let ascii = scalar.isASCII ? Character(scalar) : "_"
                return ascii.isLetter || ascii.isNumber || ascii == "." || ascii == "-" || ascii == "_" ? ascii : "_"
            })
        while name.hasPrefix(".") { name.removeFirst() }
        if name.count > 120 {
            let dot = name.lastIndex(of: ".").map { name.distance(from: $0, to: name.endIndex) } ?? 0
            let suffix = dot > 0 && dot <= 10 ? String(name.suffix(dot)) : ""
            name = String(name.prefix(120 - suffix.count)) + suffix
        }
        return name.isEmpty ? "upload" : name
    }

    /// `name`, or `stem-2.ext`, `stem-3.ext`… : the first that `exists` says is free.
    static func unique(_ name: String, exists: (String) -> Bool) -> String {
        guard exists(name) else { return name }
        let dot = name.lastIndex(of: ".")
        let stem = dot.map { String(name[..<$0]) } ?? name
        let ext = dot.map { String(name[$0...]) } ?? ""
        for number in 2...10_000 where !exists("\(stem)-\(number)\(ext)") { return "\(stem)-\(number)\(ext)" }
        return "\(stem)-\(randomText(bytes: 6))\(ext)"
    }
}

public struct UploadResult: Sendable {
    public var name: String
    public var path: String
    public var bytes: Int64
}

struct MediaFolder: Sendable {
    let path: String
    let limits: UploadLimits

    /// Bytes free for an unprivileged writer on the folder's file system.
    func freeBytes() -> Int64? {
        var stats = statvfs()
        guard statvfs(path, &stats) == 0 else { return nil }
        return Int64(stats.f_bavail) * Int64(stats.f_frsize)
    }

    /// Streams `body` into the folder as `requestedName` (made safe and unique).
    func receive(_ body: RequestBody, requestedName: String, declaredLength: Int64?) async throws -> UploadResult {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        if let declaredLength {
            if declaredLength > limits.maxBytes {
                throw HTTPError(.contentTooLarge, message: "the file is larger than the \(limits.maxBytes / (1 << 20)) MiB cap")
            }
            if let free = freeBytes(), declaredLength > free - limits.reserveBytes {
                throw HTTPError(
                    .init(code: 507, reasonPhrase: "Insufficient Storage"), message: "not enough free space on the screen (\(max(0, free) / (1 << 20)) MiB free)")
            }
        }
        let temporary = path + "/.upload-" + randomText(bytes: 9) + ".part"
        var written: Int64 = 0
        do {
            try await FileSystem.shared.withFileHandle(
                forWritingAt: FilePath(temporary), options: .newFile(replaceExisting: false)
            ) { handle in
                var writer = handle.bufferedWriter()
                for try await buffer in body {
                    written += Int64(buffer.readableBytes)
                    guard written <= limits.maxBytes else {
                        throw HTTPError(.contentTooLarge, message: "the file is larger than the \(limits.maxBytes / (1 << 20)) MiB cap")
                    }
                    try await writer.write(contentsOf: buffer)
                }
                try await writer.flush()
            }
        } catch {
            unlink(temporary)
            throw error
        }
        // Named last: the chosen name appears only for a complete file (link fails rather than replaces).
        let safe = UploadName.safe(requestedName)
        for _ in 0..<5 {
            let name = UploadName.unique(safe) { FileManager.default.fileExists(atPath: path + "/" + $0) }
            if link(temporary, path + "/" + name) == 0 {
                unlink(temporary)
                return UploadResult(name: name, path: path + "/" + name, bytes: written)
            }
        }
        unlink(temporary)
        throw HTTPError(.internalServerError, message: "could not name the uploaded file")
    }
}
