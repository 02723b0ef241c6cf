@testable import QueueModel

/// `n` distinct valid items, `/m/<prefix><i>.flac`.
func makeItems(_ n: Int, prefix: String = "", loops: Int = 1) -> [MediaItem] {
    (0..<n).map { MediaItem(uri: "/m/\(prefix)\($0).flac", loops: loops) }
}

/// A queue holding `n` items, with their ids.
func makeQueue(_ n: Int, loops: Int = 1, itemLoops: Int = 1) throws -> (PlayQueue, [ItemID]) {
    var queue = PlayQueue(loops: loops)
    let ids = try queue.append(makeItems(n, loops: itemLoops))
    return (queue, ids)
}

func ids(_ queue: PlayQueue) -> [ItemID] {
    queue.entries.map(\.id)
}

func cursor(_ id: ItemID, play: Int = 1, pass: Int = 1) -> Cursor {
    Cursor(id: id, play: play, pass: pass)
}

/// Everything observable about a queue plus its private bookkeeping (the queue's own snapshot), to prove
/// that a failed call changed nothing at all.
typealias Snapshot = PlayQueue.Snapshot

extension PlayQueue.Snapshot {
    init(_ queue: PlayQueue) { self = queue.snapshot }
}

/// Plays the queue the way the engine does when nobody intervenes: begin, finish with eof, successor.
/// Returns the cursors played, at most `limit`.
func playThrough(_ queue: inout PlayQueue, from start: Cursor? = nil, limit: Int) -> [Cursor] {
    var played: [Cursor] = []
    var next = start ?? queue.first()
    while let cursor = next, played.count < limit {
        queue.begin(cursor)
        played.append(cursor)
        queue.finish(cursor, reason: .eof, error: nil)
        next = queue.successor(of: cursor)
    }
    return played
}
