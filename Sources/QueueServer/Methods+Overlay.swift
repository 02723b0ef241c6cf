// overlay.* methods: layers above the video, carried out on the engine (which keeps them with the player's
// state, so each change is answered once it is kept). Params and results are QueueRPC's API definitions.

import Alerts
import Overlays
import Playback
import MediaPaths
import QueueRPC

extension Dispatcher {
    static func overlayMethods(_ engine: PlayerEngine) -> [RPCMethod] {
        [
            .answering(API.OverlayAdd.self, .change) { params, session in
                try confineImage(params.overlay, session.confinement)
                let overlay = try OverlayInput.overlay(from: params.overlay)
                return .init(id: Int64(try engine.addOverlay(overlay)))
            },
            .answering(API.OverlayUpdate.self, .change) { params, session in
                try confineImage(params.changes, session.confinement)
                let id = Int(params.id)
                // Checked on a copy first: the fields a layer accepts depend only on its type, which no
                // update changes, so the change under the lock cannot fail.
                guard var trial = engine.overlays().first(where: { $0.id == id }) else {
                    throw PlayerError.overlayNotFound(id)
                }
                try OverlayInput.apply(params.changes, to: &trial)
                let updated = try engine.updateOverlay(id) { try? OverlayInput.apply(params.changes, to: &$0) }
                return .init(overlay: OverlayInput.wire(updated))
            },
            .answering(API.OverlayRemove.self, .change) { params, _ in
                try engine.removeOverlays(params.ids.map { Int($0) })
                return .init(removed: params.ids)
            },
            .answering(API.OverlayList.self, .query) { _, _ in
                // An alert's layer is the alert's (alert.list shows it), not one of the caller's layers.
                .init(overlays: engine.overlays().filter { $0.z != AlertController.overlayZ }.map(OverlayInput.wire))
            },
        ]
    }
}

extension Dispatcher {
    /// Refuses an image layer's path that a confined connection may not name.
    static func confineImage(_ fields: RPCOverlay, _ confinement: FolderConfinement?) throws(RPCError) {
        guard let confinement, let path = fields.path, let refusal = confinement.refusal(path: path) else { return }
        throw RPCError.uriNotAllowed(path, reason: refusal)
    }
}
