// Room for uploads, shared by every upload at once: the media folder's quota (`--media-quota`, none by
// default) and the free-space reserve on its disk hold for the sum of what is on disk and what is in flight.
// Each upload reserves its bytes here before writing them — all at once for a declared Content-Length, in
// steps as they arrive for a chunked body — and gives the reservation back when its file is named (its bytes
// are then on disk) or refused. One actor, so two uploads can never both take the same last megabytes.

import Foundation

actor UploadBudget {
    enum Refusal: Error, Equatable {
        /// The folder's quota would be passed: what it holds and the quota, in bytes.
        case quota(used: Int64, quota: Int64)
        /// The disk's reserve would be eaten into: bytes free beyond it.
        case disk(available: Int64)
    }

    let limits: UploadLimits
    /// Measures the folder's files, in bytes (the quota counts them).
    private let folderBytes: @Sendable () -> Int64
    /// Bytes free for an unprivileged writer on the folder's file system.
    private let freeBytes: @Sendable () -> Int64?
    /// Bytes reserved by uploads not yet named, by upload.
    private var inFlight: [UUID: Int64] = [:]

    init(
        limits: UploadLimits, folderBytes: @escaping @Sendable () -> Int64, freeBytes: @escaping @Sendable () -> Int64?
    ) {
        self.limits = limits
        self.folderBytes = folderBytes
        self.freeBytes = freeBytes
    }

    /// Grows `upload`'s reservation to `total` bytes, or refuses (the reservation stays as it was).
    func reserve(_ upload: UUID, total: Int64) throws(Refusal) {
        let held = inFlight[upload, default: 0]
        guard total > held else { return }
        let others = inFlight.values.reduce(0, +) - held
        if let quota = limits.quotaBytes {
            let used = folderBytes() + others
            guard used + total <= quota else { throw .quota(used: used, quota: quota) }
        }
        if let free = freeBytes() {
            // What is written already is off `free`; what is reserved but not yet written is not.
            let available = free - limits.reserveBytes - others
            guard total - held <= available else { throw .disk(available: max(0, available)) }
        }
        inFlight[upload] = total
    }

    /// The upload is named (on disk) or refused: its reservation goes.
    func release(_ upload: UUID) { inFlight[upload] = nil }

    /// Bytes reserved by uploads in flight (tests).
    var reserved: Int64 { inFlight.values.reduce(0, +) }
}
