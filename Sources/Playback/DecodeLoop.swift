// The decode thread: opens items (the next one ahead of time), pulls audio and pictures from their
// MediaReaders and feeds the audio sink and the picture queue, placing every play of an item right after
// the previous one on the output timeline — that adjacency is what makes transitions and loop seams
// gapless. It blocks only in the audio sink's `write` (back-pressure) or waiting for queue space/work.
// Owns the readers; touches shared state only under EngineCore's lock.
import Foundation
import Media
import QueueModel

final class DecodeLoop: @unchecked Sendable {
    private let engine: PlayerEngine
    private var core: EngineCore { engine.core }
    private var rate: Double { Double(engine.audio.format.sampleRate) }
    /// The serial this thread is working for.
    private var serial = -1
    private var active: ActiveItem?
    private let prefetcher = Prefetcher()
    /// The play whose successor was last handed to the prefetcher (or found to have none).
    private var preparedFor: Cursor?

    init(engine: PlayerEngine) {
        self.engine = engine
    }

    func run() {
        while true {
            core.lock()
            // A request stays visible to commands (as what is about to play) until its segment exists.
            func newRequest() -> StartRequest? { core.state.startRequest.flatMap { $0.serial > serial ? $0 : nil } }
            while !core.state.shuttingDown && newRequest() == nil
                && (active == nil || active?.serial != core.state.serial)
            {
                active = nil
                core.wait(timeout: 0.5)
            }
            if core.state.shuttingDown {
                core.unlock()
                break
            }
            let request = newRequest()
            core.unlock()
            if let request {
                begin(request)
            } else {
                step()
            }
        }
        active = nil
        prefetcher.stop()
    }

    // MARK: Starting items

    private func begin(_ request: StartRequest) {
        serial = request.serial
        active = nil
        // The cut flushed already; flush again here in case this thread wrote stale audio after it.
        engine.audio.flush()
        start(request.cursor, position: request.position, at: engine.audio.writtenFrames(), continuesPlay: request.continuesPlay)
        core.locked { shared in
            if shared.startRequest?.serial == request.serial { shared.startRequest = nil }
        }
    }

    /// Opens `cursor`'s item and makes it the active one, starting at `startFrame` on the timeline. An item
    /// that fails to open is recorded as a failed play and the next one is tried, until a full pass of
    /// the queue has failed.
    private func start(_ first: Cursor, position: Double, at startFrame: Int64, continuesPlay: Bool) {
        var cursor = first
        var position = position
        while true {
            guard let (item, speed, repeats) = core.locked({ shared -> (MediaItem, Double, Bool)? in
                guard shared.serial == serial, let item = shared.queue.entry(cursor.id)?.item else { return nil }
                return (item, shared.status.rate, shared.queue.successor(of: cursor)?.id == cursor.id)
            }) else { return }
            let opened = open(cursor, item: item, position: position, repeats: repeats)
            switch opened {
            case .success(let reader):
                let showsVideo = engine.video != nil && reader.hasVideo
                var tempo: AudioTempo?
                if speed != 1 && reader.hasAudio {
                    tempo = try? AudioTempo(rate: speed, sampleRate: engine.audio.format.sampleRate, channels: engine.audio.format.channels)
                }
                var segment = Segment(
                    serial: serial, cursor: cursor, startFrame: startFrame, itemOffset: position,
                    duration: reader.duration, showsVideo: showsVideo, continuesPlay: continuesPlay)
                segment.rate = speed
                let accepted = core.locked { $0.playOpened(segment, knownDuration: reader.duration) }
                if accepted {
                    active = ActiveItem(
                        cursor: cursor, reader: reader, serial: serial, startFrame: startFrame, itemOffset: position,
                        showsVideo: showsVideo, rate: speed, tempo: tempo)
                }
                return
            case .failure(let error):
                core.logger.error("item \(cursor.id) failed: \(error.description)")
                let serial = self.serial
                let next = core.locked { $0.openFailed(cursor, serial: serial, at: startFrame, error: error.description) }
                guard let next else { return }
                cursor = next
                position = 0
            }
        }
    }

    private func open(_ cursor: Cursor, item: MediaItem, position: Double, repeats: Bool) -> Result<MediaReader, MediaError> {
        if position == 0, let opened = prefetcher.take(cursor, item: item) { return opened }
        return Self.openReader(item, position: position, repeats: repeats, engine: engine)
    }

    /// Opens `item` for a play starting at `position`; `repeats`: the same item plays again right after this
    /// play (a loop seam), which `trackEnd: auto` ends at the shortest track so the seam is seamless.
    static func openReader(
        _ item: MediaItem, position: Double, repeats: Bool, engine: PlayerEngine
    ) -> Result<MediaReader, MediaError> {
        var options = MediaReaderOptions()
        options.sampleRate = engine.audio.format.sampleRate
        options.channels = engine.audio.format.channels
        options.start = item.start
        options.end = item.end
        switch item.trackEnd ?? engine.config.trackEnd {
        case .shortest: options.shortestTrack = true
        case .longest: options.shortestTrack = false
        case .auto: options.shortestTrack = repeats
        }
        options.stillDuration = item.duration ?? engine.config.stillDuration
        options.decodeVideo = engine.video != nil
        do {
            let reader = try MediaReader(path: Self.path(of: item.uri), options: options)
            if position > 0 { try reader.seek(to: position) }
            return .success(reader)
        } catch {
            return .failure(error)
        }
    }

    /// Items are absolute paths or file:// URLs.
    static func path(of uri: String) -> String {
        guard uri.hasPrefix("file://") else { return uri }
        let rest = uri.dropFirst("file://".count)
        let path = rest.hasPrefix("/") ? String(rest) : String(rest.drop { $0 != "/" })
        return path.removingPercentEncoding ?? path
    }

    /// Opens the item that follows the active one while the active one plays.
    private func prepareNext(after item: ActiveItem) {
        preparedFor = item.cursor
        guard let (next, entry, repeats) = core.locked({ shared -> (Cursor, MediaItem, Bool)? in
            guard let next = shared.queue.successor(of: item.cursor), let entry = shared.queue.entry(next.id) else { return nil }
            return (next, entry.item, shared.queue.successor(of: next)?.id == next.id)
        }) else { return }
        let engine = self.engine
        prefetcher.request(next, item: entry) {
            Prefetcher.Opened(Self.openReader(entry, position: 0, repeats: repeats, engine: engine))
        }
    }

    // MARK: Feeding

    private func step() {
        guard let item = active else { return }
        if preparedFor != item.cursor && item.audioFrames > 0 { prepareNext(after: item) }
        let audioTime = item.itemOffset + Double(item.itemFrames) / rate
        if item.showsVideo && !item.videoDone && item.videoHorizon < audioTime + engine.config.videoLead {
            let full = core.locked { $0.frames.count >= engine.config.frameQueueCapacity }
            if !full {
                feedVideo(item)
                return
            }
            if item.audioDone {
                core.locked { _ in core.wait(timeout: 0.005) }
                return
            }
        }
        if !item.audioDone {
            feedAudio(item)
            return
        }
        if item.videoDone || !item.showsVideo { finish(item) }
    }

    private func feedVideo(_ item: ActiveItem) {
        do {
            guard let frame = try item.reader.readVideo() else {
                item.videoDone = true
                return
            }
            item.videoHorizon = frame.pts + frame.duration
            item.picturesQueued += 1
            let timed = TimedFrame(
                serial: item.serial, cursor: item.cursor,
                time: Double(item.startFrame) / rate + (frame.pts - item.itemOffset) / item.rate, frame: frame)
            core.locked { shared in
                if shared.serial == item.serial {
                    shared.frames.append(timed)
                    shared.wakeWaiters = true
                }
            }
        } catch {
            fail(item, error)
        }
    }

    private func feedAudio(_ item: ActiveItem) {
        var chunk: [Float] = []
        do {
            if !item.audioSourceDone {
                if let samples = try item.reader.readAudio() {
                    item.itemFrames += Int64(samples.count / engine.audio.format.channels)
                    chunk = try item.tempo?.process(samples) ?? samples
                } else {
                    item.audioSourceDone = true
                    chunk = try item.tempo?.finish() ?? []
                }
            } else {
                guard let silence = silenceAfterAudio(item) else {
                    // Waiting for pictures to be decoded while the picture queue is full: sleep until the
                    // presenter takes one (it wakes us) rather than spin.
                    if !item.audioDone { core.locked { _ in core.wait(timeout: 0.005) } }
                    return
                }
                chunk = silence
            }
        } catch {
            fail(item, error)
            return
        }
        guard !chunk.isEmpty else { return }
        if engine.audio.write(chunk) {
            item.audioFrames += Int64(chunk.count / engine.audio.format.channels)
        }
    }

    /// Past its own audio (or with none), an item with pictures keeps the clock going with silence up to
    /// where its pictures are decoded, and finally to the picture's end. nil when there is nothing to
    /// write now (done, or waiting for pictures).
    private func silenceAfterAudio(_ item: ActiveItem) -> [Float]? {
        guard item.reader.hasVideo else {
            item.audioDone = true
            return nil
        }
        let pictureEnd = item.showsVideo && !item.videoDone ? item.videoHorizon : (item.reader.videoEnd ?? item.videoHorizon)
        let target = Int64(((pictureEnd - item.itemOffset) * rate).rounded())
        if item.itemFrames >= target {
            if item.videoDone || !item.showsVideo { item.audioDone = true }
            return nil
        }
        let itemCount = min(target - item.itemFrames, Int64(rate / 20))
        item.itemFrames += itemCount
        let count = Int((Double(itemCount) / item.rate).rounded())
        return [Float](repeating: 0, count: count * engine.audio.format.channels)
    }

    /// A read error: the item ends where it got to, reported with reason `error`.
    private func fail(_ item: ActiveItem, _ error: MediaError) {
        core.logger.error("item \(item.cursor.id) failed while playing: \(error.description)")
        item.failure = error.description
        item.audioDone = true
        item.videoDone = true
    }

    /// The active item is fully written: close its segment and start the next play right after it.
    private func finish(_ item: ActiveItem) {
        active = nil
        let endFrame = item.startFrame + item.audioFrames
        let next = core.locked { $0.playWritten(item.cursor, serial: item.serial, endFrame: endFrame, failure: item.failure) }
        if let next {
            start(next, position: 0, at: endFrame, continuesPlay: false)
        } else if core.locked({ $0.serial == item.serial }) {
            engine.audio.drain()
        }
    }
}

/// Decode-side state of the item being fed. Decode thread only.
final class ActiveItem {
    let cursor: Cursor
    let reader: MediaReader
    let serial: Int
    let startFrame: Int64
    let itemOffset: Double
    let showsVideo: Bool
    /// Item seconds per timeline second; `tempo` does the audio's part of it (nil at rate 1).
    let rate: Double
    let tempo: AudioTempo?
    /// Frames of this item written to the audio sink (silence included): its length on the timeline.
    var audioFrames: Int64 = 0
    /// Frames of the item's own audio consumed (before the tempo change): its position in item time.
    var itemFrames: Int64 = 0
    var audioSourceDone = false
    var audioDone = false
    var videoDone = false
    /// Item time up to which pictures are queued.
    var videoHorizon: Double
    /// Pictures handed to the picture queue.
    var picturesQueued = 0
    var failure: String?

    init(
        cursor: Cursor, reader: MediaReader, serial: Int, startFrame: Int64, itemOffset: Double, showsVideo: Bool,
        rate: Double, tempo: AudioTempo?
    ) {
        self.rate = rate
        self.tempo = tempo
        self.cursor = cursor
        self.reader = reader
        self.serial = serial
        self.startFrame = startFrame
        self.itemOffset = itemOffset
        self.showsVideo = showsVideo
        videoHorizon = itemOffset
        videoDone = !showsVideo
    }
}
