// Overlay commands from any thread (the control side): each is one EngineState decision under the lock;
// the presenter thread picks the change up at its next turn and the state recorder keeps it.

import Overlays

extension PlayerEngine {
    /// Adds a layer; returns its id. A layer tied to an item needs the item in the queue.
    public func addOverlay(_ overlay: Overlay) throws -> Int {
        try core.locked { (state: inout EngineState) throws(PlayerError) in try state.addOverlay(overlay) }
    }

    /// Changes the layer `id` (its id stays); returns it as changed.
    @discardableResult
    public func updateOverlay(_ id: Int, _ change: (inout Overlay) -> Void) throws -> Overlay {
        try core.locked { (state: inout EngineState) throws(PlayerError) in
            try state.updateOverlay(id, change)
            guard let overlay = state.overlays.overlay(id) else { throw PlayerError.overlayNotFound(id) }
            return overlay
        }
    }

    /// Removes layers: all of them, or none when an id is unknown.
    public func removeOverlays(_ ids: [Int]) throws {
        try core.locked { (state: inout EngineState) throws(PlayerError) in try state.removeOverlays(ids) }
    }

    /// Replaces every layer with `overlays` in one step (state.apply); returns the new ids.
    public func replaceOverlays(with overlays: [Overlay]) throws -> [Int] {
        try core.locked { (state: inout EngineState) throws(PlayerError) in try state.replaceOverlays(with: overlays) }
    }

    /// The layers in drawing order.
    public func overlays() -> [Overlay] {
        core.locked { $0.overlays.overlays }
    }
}
