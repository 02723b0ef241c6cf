// Overlays in the engine: the set the control side edits (kept with the player's state, so the journal
// has it), and what the presenter thread needs to draw them — the item whose picture or sound is on, for
// item-scoped layers and placeholders. Runs under the engine lock, like every EngineState method.

import Overlays
import QueueModel

extension EngineState {
    /// Adds a layer; one tied to an item needs that item in the queue.
    mutating func addOverlay(_ overlay: Overlay) throws(PlayerError) -> Int {
        try checkScope(overlay.scope)
        defer { wakeWaiters = true }
        return overlays.add(overlay)
    }

    /// Changes the layer `id` in place (its id stays).
    mutating func updateOverlay(_ id: Int, _ change: (inout Overlay) -> Void) throws(PlayerError) {
        guard var changed = overlays.overlay(id) else { throw .overlayNotFound(id) }
        change(&changed)
        try checkScope(changed.scope)
        _ = overlays.update(id) { $0 = changed }
        wakeWaiters = true
    }

    /// Removes layers; all or nothing (an unknown id removes none).
    mutating func removeOverlays(_ ids: [Int]) throws(PlayerError) {
        if let unknown = ids.first(where: { overlays.overlay($0) == nil }) { throw .overlayNotFound(unknown) }
        overlays.remove(ids)
        wakeWaiters = true
    }

    /// Every layer replaced by `replacements`, all or nothing (each one's scope is checked first).
    mutating func replaceOverlays(with replacements: [Overlay]) throws(PlayerError) -> [Int] {
        for overlay in replacements { try checkScope(overlay.scope) }
        _ = overlays.remove(overlays.overlays.map(\.id))
        wakeWaiters = true
        return replacements.map { overlays.add($0) }
    }

    private func checkScope(_ scope: OverlayScope) throws(PlayerError) {
        if case .item(let id) = scope, queue.entry(ItemID(id)) == nil { throw .itemNotFound(ItemID(id)) }
    }

    /// Placeholders' view of a play at `position` seconds into it.
    func playingItem(_ cursor: Cursor, position: Double, duration: Double?) -> PlayingItem {
        let item = self.item(for: cursor)
        // The title, else the file name (as queuectl names an item).
        var title = item?.title ?? ""
        if title.isEmpty, let uri = item?.uri { title = uri.split(separator: "/").last.map(String.init) ?? uri }
        return PlayingItem(
            id: cursor.id.rawValue, title: title, position: position,
            duration: duration ?? item.flatMap { $0.duration })
    }

    /// The play overlays describe while no picture is being shown: none when nothing plays; the heard play
    /// when it shows no pictures (an audio item over black); otherwise the item of the picture on screen
    /// stays (`keepsPictureItem`), so an item's layers leave with its last picture, not with its sound —
    /// `item` is then the heard play, whose position the picture's item takes when it is the same item
    /// (a still's `{position}` moves on).
    func overlayItemWithoutPicture(heard: Int64) -> (item: PlayingItem?, keepsPictureItem: Bool) {
        if phase.run == nil { return (nil, false) }
        guard let segment = audibleSegment else { return (nil, true) }
        let item = playingItem(segment.cursor, position: position(in: segment, heard: heard), duration: segment.duration)
        return (item, segment.showsVideo)
    }

    /// The overlays to draw with the presenter's `step` and the play they describe, noted on `screen` (the
    /// presenter hands them to the video sink when they change). A dark screen draws none, not even a clock.
    func noteOverlays(for step: PresenterStep, heard: Int64, screen: inout ScreenShows) {
        screen.overlays = status.display.on ? overlays : OverlaySet()
        // Without overlays nothing needs the playing item: the loop does no more work than before them.
        guard !screen.overlays.isEmpty else { return }
        if case .show(let timed, _) = step {
            let duration = segments.first { $0.cursor == timed.cursor }?.duration
            screen.overlayItem = playingItem(timed.cursor, position: timed.frame.pts, duration: duration)
            return
        }
        let now = overlayItemWithoutPicture(heard: heard)
        if !now.keepsPictureItem {
            screen.overlayItem = now.item
        } else if let heard = now.item, heard.id == screen.shownItem?.cursor.id.rawValue {
            screen.overlayItem = heard
        } else if let shown = screen.shownItem, screen.overlayItem?.id != shown.cursor.id.rawValue {
            screen.overlayItem = playingItem(shown.cursor, position: shown.time, duration: nil)
        }
    }
}
