// The overlays a daemon keeps: added, updated and removed by the control side (under the engine lock), kept
// in the state journal, read by the presenter thread as a copy. Ids grow and are never reused, across
// restarts too (`nextID` is kept with the layers).

public struct OverlaySet: Equatable, Sendable, Codable {
    /// In drawing order (z, then id).
    public private(set) var overlays: [Overlay] = []
    public private(set) var nextID = 1

    public init() {}

    public var isEmpty: Bool { overlays.isEmpty }

    public func overlay(_ id: Int) -> Overlay? { overlays.first { $0.id == id } }

    /// Adds `overlay` under a new id (its own id is ignored); returns the id.
    public mutating func add(_ overlay: Overlay) -> Int {
        var added = overlay
        added.id = nextID
        nextID += 1
        overlays.append(added)
        sort()
        return added.id
    }

    /// Applies `change` to the overlay `id` (its id stays); false when there is none.
    public mutating func update(_ id: Int, _ change: (inout Overlay) -> Void) -> Bool {
        guard let index = overlays.firstIndex(where: { $0.id == id }) else { return false }
        change(&overlays[index])
        overlays[index].id = id
        sort()
        return true
    }

    /// Removes the overlays with these ids; returns the ids that were there.
    @discardableResult
    public mutating func remove(_ ids: [Int]) -> [Int] {
        let wanted = Set(ids)
        let removed = overlays.filter { wanted.contains($0.id) }.map(\.id)
        overlays.removeAll { wanted.contains($0.id) }
        return removed
    }

    /// The items layers are tied to (a few; a queue edit checks these rather than every queued id).
    public var scopedItems: Set<Int> {
        Set(overlays.compactMap { overlay -> Int? in
            if case .item(let item) = overlay.scope { return item }
            return nil
        })
    }

    /// Removes the overlays tied to these queue items (removed from the queue: their layers can never show).
    @discardableResult
    public mutating func removeScoped(to items: Set<Int>) -> [Int] {
        let ids = overlays.compactMap { overlay -> Int? in
            if case .item(let item) = overlay.scope, items.contains(item) { return overlay.id }
            return nil
        }
        return remove(ids)
    }

    /// Whether some visible layer moves by itself (a ticker): the screen needs redrawing at display rate.
    public var animates: Bool {
        overlays.contains { overlay in
            if case .ticker = overlay.content { return overlay.visible && overlay.opacity > 0 }
            return false
        }
    }

    private mutating func sort() {
        overlays.sort { ($0.z, $0.id) < ($1.z, $1.id) }
    }
}
