// A desired document read through the daemon's own typed definition of `state.apply` before anything
// changes: what the daemon would refuse (an item's field, `rotate: 45`, an overlay's shape, a local file the
// screen's door does not let the fleet name) is refused here, for good and in the daemon's own words, before
// a byte is downloaded — so a refused document leaves the queue, the overlays, the settings and `appliedRev`
// exactly as they were. Then the whole of it goes to the daemon in one `state.apply`, which checks it all
// again and swaps it in one step. Built on the work queue; applied by an ApplyJob on its own connection.

import CallerPolicy
import Fleet
import JSONText
import MediaPaths
import QueueClient
import QueueRPC

struct DocumentPlan: Sendable {
    let rev: Int64
    let params: API.StateApply.Params
    /// The distinct http(s) URIs of the items, in queue order: fetched into the cache before the swap.
    let downloads: [String]
    /// URI → the SHA-256 its file must have, where an item gives one.
    let digests: [String: String]

    /// Throws the first refusal: the definition's own -32602, or the door's (`policy`) for a file it may not
    /// name (the daemon's confinement of the job's connection would refuse it too, but only after downloads).
    init(_ document: DesiredDocument, policy: CallerPolicy) throws(RPCError) {
        params = try API.StateApply.Params(
            reading: ParamReader(.byName(document.applyParams), order: API.StateApply.Params.order))
        // The door's rule for what may be named, on the files these params name.
        if let refusal = policy.refusal(references: params.references) {
            throw RPCError(code: RPCError.Code.uriNotAllowed, message: refusal)
        }
        rev = document.rev
        var seen = Set<String>()
        // http(s) files only: a stream (HLS and DASH are http(s) too) is read live and a web page loaded by its
        // web engine, never cached.
        let zoneItems = (params.zones ?? [:]).sorted { $0.key < $1.key }.flatMap(\.value.items)
        downloads = (params.items + zoneItems).filter { $0.web == nil }.map(\.uri).filter {
            ($0.hasPrefix("http://") || $0.hasPrefix("https://")) && StreamKind(uri: $0) == nil
                && seen.insert($0).inserted
        }
        var digests: [String: String] = [:]
        for item in params.items + zoneItems where seen.contains(item.uri) && digests[item.uri] == nil {
            if let digest = item.sha256?.lowercased() { digests[item.uri] = digest }
        }
        self.digests = digests
    }

    /// Applies the whole document in one request on `client`'s connection; returns the queue version it
    /// made. Job thread.
    func apply(with client: QueueClient) throws(ClientError) -> Int64 {
        try client.call(API.StateApply.self, params).version
    }
}
