// What keeping a complete copy true decides (CacheEntry+Upkeep.swift carries it out): whether to ask the
// server again (conditional HEAD), keeping a digest only for the version it was computed from, and what the
// scrub of damaged pieces drops and fetches again.

import CacheControl
import Logging

extension CacheEntryState {
    /// Whether to ask the server if this complete version is still current (when it was last confirmed
    /// `interval` or more seconds ago; nil: now): the meta and URL to ask with, nil for no.
    mutating func beginRevalidation(every interval: Double?, now: Double) -> (meta: CacheMeta, location: String)? {
        guard isComplete, !revalidating, !retired, !superseded, let known = meta,
            interval.map({ interval in validatedAt.map { now - $0 >= interval } ?? true }) ?? true
        else { return nil }
        revalidating = true
        return (known, location)
    }

    /// The revalidation ended: `confirmed`, the server still has this version (nil: no answer either way).
    mutating func endRevalidation(confirmed: Bool?, now: Double) {
        revalidating = false
        if confirmed == true { validatedAt = now }
    }

    /// The complete file's meta (to hash it), nil while incomplete.
    var completeMeta: CacheMeta? { isComplete ? meta : nil }

    /// The file hashed to `digest` while its meta was `known`: kept unless a new version came meanwhile.
    mutating func recordDigest(_ digest: String, of known: CacheMeta) -> [CacheEntryAction] {
        guard meta == known, var updated = meta else { return [] }
        updated.sha256 = digest
        meta = updated
        return [.writeMeta(updated)]
    }

    /// Whether this run's one scrub is to begin now.
    mutating func beginScrub() -> Bool {
        defer { scrubbed = true }
        return !scrubbed && !retired
    }

    /// The scrub read the pieces back: `verified` still match their checksum. The others are dropped and
    /// fetched again; the digest, no longer known true, is forgotten.
    mutating func endScrub(verified: ByteRanges, now: Double) -> [CacheEntryAction] {
        let kept = present.intersection(verified)
        guard !retired, kept.count < present.count else { return [] }
        var actions: [CacheEntryAction] = [
            .log(
                .warning,
                "cache: \(present.count - kept.count) cached bytes no longer match their checksum; fetching them again")
        ]
        present = kept
        toldComplete = false
        if var known = meta, known.sha256 != nil {
            known.sha256 = nil
            meta = known
            actions.append(.writeMeta(known))
        }
        actions += progressNews(force: true, now: now)
        actions += fillNextGap(now: now)
        return actions
    }
}
