// Files uploaded from the browser into the media folder: the body is streamed to disk as it arrives (never
// held in memory), refused before a byte is written when it declares more than the cap, the folder's quota
// or the disk can take (keeping a reserve free), cut off the moment it passes any of them — a chunked body
// (no Content-Length) is counted as it arrives, and uploads at the same time share one UploadBudget — and
// written under a temporary name that becomes the server's chosen name only when complete: a refused or
// broken upload leaves no file. The name is the server's: the browser's name reduced to letters, digits,
// `.`, `-`, `_` (no directory part, no leading dot), made unique in the folder.

import Foundation
import Hummingbird
import _NIOFileSystem

public struct UploadLimits: Sendable {
    /// Largest file accepted.
    public var maxBytes: Int64
    /// Left free on the media folder's disk after an upload.
    public var reserveBytes: Int64
    /// The most the media folder may hold (its files, and uploads in flight); nil: no quota.
    public var quotaBytes: Int64?

    public init(maxBytes: Int64 = 4 << 30, reserveBytes: Int64 = 256 << 20, quotaBytes: Int64? = nil) {
        self.maxBytes = maxBytes
        self.reserveBytes = reserveBytes
        self.quotaBytes = quotaBytes
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
    /// Shared by every upload into this folder.
    let budget: UploadBudget
    /// False on a file system without hard links (vfat, exFAT): names are claimed with O_EXCL instead.
    let hardLinks: Bool
    /// A chunked body's reservation grows by this much at a time.
    static let reservationStep: Int64 = 4 << 20

    init(path: String, limits: UploadLimits, hardLinks: Bool = true) {
        self.path = path
        self.limits = limits
        self.hardLinks = hardLinks
        budget = UploadBudget(
            limits: limits, folderBytes: { Self.bytesStored(under: path) },
            freeBytes: { Self.freeBytes(on: path) })
    }

    /// Bytes free for an unprivileged writer on `path`'s file system.
    static func freeBytes(on path: String) -> Int64? {
        var stats = statvfs()
        guard statvfs(path, &stats) == 0 else { return nil }
        return Int64(stats.f_bavail) * Int64(stats.f_frsize)
    }

    /// Whether `name` is an upload's temporary file (`.upload-….part`), named only once complete.
    static func isTemporary(_ name: String) -> Bool { name.hasPrefix(".upload-") && name.hasSuffix(".part") }

    /// The sizes of the regular files under `path` (symbolic links not followed). Uploads' temporaries are left
    /// out: what they hold is counted by their reservations in the budget (counted here too, an upload's own
    /// bytes would count twice and the quota refuse it early).
    static func bytesStored(under path: String) -> Int64 {
        var total: Int64 = 0
        guard let walk = FileManager.default.enumerator(atPath: path) else { return 0 }
        while let name = walk.nextObject() as? String {
            if isTemporary((name as NSString).lastPathComponent) { continue }
            var info = stat()
            if lstat(path + "/" + name, &info) == 0, info.st_mode & S_IFMT == S_IFREG { total += Int64(info.st_size) }
        }
        return total
    }

    static func tooLarge(_ limits: UploadLimits) -> HTTPError {
        HTTPError(.contentTooLarge, message: "the file is larger than the \(limits.maxBytes / (1 << 20)) MiB cap")
    }

    static func noRoom(_ refusal: UploadBudget.Refusal) -> HTTPError {
        switch refusal {
        case .quota(let used, let quota):
            HTTPError(
                .init(code: 507, reasonPhrase: "Insufficient Storage"),
                message: "the media folder's quota is full (\(used / (1 << 20)) of \(quota / (1 << 20)) MiB used)")
        case .disk(let available):
            HTTPError(
                .init(code: 507, reasonPhrase: "Insufficient Storage"),
                message: "not enough free space on the screen (\(available / (1 << 20)) MiB free to use)")
        }
    }

    /// Any task: streams `body` into the folder as `requestedName` (made safe and unique).
    func receive(_ body: RequestBody, requestedName: String, declaredLength: Int64?) async throws -> UploadResult {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        if let declaredLength, declaredLength > limits.maxBytes { throw Self.tooLarge(limits) }
        let upload = UUID()
        defer { Task { await budget.release(upload) } }
        do throws(UploadBudget.Refusal) {
            try await budget.reserve(upload, total: declaredLength ?? 0)
        } catch {
            throw Self.noRoom(error)
        }
        var reserved = declaredLength ?? 0
        let temporary = path + "/.upload-" + randomText(bytes: 9) + ".part"
        var written: Int64 = 0
        do {
            try await FileSystem.shared.withFileHandle(
                forWritingAt: FilePath(temporary), options: .newFile(replaceExisting: false)
            ) { handle in
                var writer = handle.bufferedWriter()
                for try await buffer in body {
                    written += Int64(buffer.readableBytes)
                    guard written <= limits.maxBytes else { throw Self.tooLarge(limits) }
                    if written > reserved {
                        // Counted as it arrives: a body without a length (or longer than it said) reserves a step
                        // ahead, or — near the quota or the reserve — just what has arrived.
                        do throws(UploadBudget.Refusal) {
                            let ahead = min(limits.maxBytes, written + Self.reservationStep)
                            if (try? await budget.reserve(upload, total: ahead)) != nil {
                                reserved = ahead
                            } else {
                                try await budget.reserve(upload, total: written)
                                reserved = written
                            }
                        } catch {
                            throw Self.noRoom(error)
                        }
                    }
                    try await writer.write(contentsOf: buffer)
                }
                try await writer.flush()
            }
            let name = try name(temporary, as: UploadName.safe(requestedName))
            await budget.release(upload)
            return UploadResult(name: name, path: path + "/" + name, bytes: written)
        } catch {
            unlink(temporary)
            throw error
        }
    }

    /// Gives the complete `temporary` file its final name, `safe` made unique: the name appears only for a
    /// complete file and never replaces another. With hard links: link (fails rather than replaces), then
    /// unlink the temporary. Without (vfat, exFAT: EPERM/EOPNOTSUPP): claim the name with O_CREAT|O_EXCL, then
    /// rename the temporary over the (empty) claim.
    private func name(_ temporary: String, as safe: String) throws -> String {
        var useLinks = hardLinks
        for _ in 0..<5 {
            let name = UploadName.unique(safe) { FileManager.default.fileExists(atPath: path + "/" + $0) }
            let final = path + "/" + name
            if useLinks {
                if link(temporary, final) == 0 {
                    unlink(temporary)
                    return name
                }
                if errno == EPERM || errno == EOPNOTSUPP || errno == ENOSYS { useLinks = false } else { continue }
            }
            let claim = open(final, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            guard claim >= 0 else { continue }
            close(claim)
            if rename(temporary, final) == 0 { return name }
            unlink(final)
        }
        throw HTTPError(.internalServerError, message: "could not name the uploaded file")
    }
}
