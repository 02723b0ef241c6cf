// The decode thread: opens items (the next one ahead of time), pulls audio and pictures from their
// MediaReaders and feeds the audio sink and the picture queue, placing every play of an item right after
// the previous one on the output timeline — that adjacency is what makes transitions and loop seams
// gapless (a crossfade overlaps two plays instead: DecodeLoop+Crossfade). It blocks only in the audio sink's `write` (back-pressure) or waiting for queue space/work.
// Owns the readers; touches shared state only under EngineCore's lock. This file opens plays (the next one
// ahead of time, on the prefetcher); DecodeLoop+Feeding feeds the outputs.

import Dispatch
import FoundationEssentials
import Glibc
import SystemSupport
import Media
import MediaPaths
import QueueModel
import SystemClock

final class DecodeLoop: @unchecked Sendable {
    // Every var here is the decode thread's own (no lock), except `released`, guarded by `leaveLock`.
    let engine: PlayerEngine
    var core: EngineCore { engine.core }
    var rate: Double { Double(engine.audio.format.sampleRate) }
    /// The serial this thread is working for.
    var serial = -1
    var active: ActiveItem?
    /// A play handed over in a crossfade, open beside `active` until its last pictures are decoded.
    var leaving: ActiveItem?
    private let prefetcher = Prefetcher()
    /// The play whose successor was last handed to the prefetcher (or found to have none).
    var preparedFor: Cursor?
    /// EngineState.decoderGeneration this thread was started for; once it moves on, this thread leaves.
    let generation: Int
    /// Whether the engine stopped counting on this thread (it was replaced, or it ended). Guarded by `leaveLock`.
    private var released = false
    private let leaveLock = ThreadLock()

    init(engine: PlayerEngine, generation: Int) {
        self.engine = engine
        self.generation = generation
    }

    /// Takes this thread out of `group` once, whether it ended or was abandoned (either thread may call).
    func release(from group: DispatchGroup) {
        let first = leaveLock.withLock {
            defer { released = true }
            return !released
        }
        if first { group.leave() }
    }

    /// False once a newer decode thread took over.
    func isCurrent(in state: EngineState) -> Bool { state.decoderGeneration == generation }

    /// Asks the state what to do next (EngineState.decoderNext) and does it, until told to leave. An idle
    /// answer waits after its batch (EngineCore.lockedThenWait: a change made in between is not missed); a
    /// stale active play is dropped first, unlocked (closing a reader may take a network source's lock).
    func run() {
        loop: while true {
            let step = core.lockedThenWait { state -> (DecoderStep, wait: Double?) in
                let step = state.decoderNext(generation: generation, serial: serial, activeSerial: active?.serial)
                switch step {
                case .idle(let timeout) where active == nil: return (step, timeout)
                case .hold(let timeout): return (step, timeout)
                default: return (step, nil)
                }
            }
            switch step {
            case .leave: break loop
            case .begin(let request): begin(request)
            case .feed: self.step()
            case .idle:
                active = nil
                leaving = nil
            case .hold: break
            }
        }
        active = nil
        leaving = nil
        prefetcher.stop()
    }

    // MARK: Starting items

    private func begin(_ request: StartRequest) {
        guard core.locked({ isCurrent(in: $0) }) else { return }
        serial = request.serial
        active = nil
        leaving = nil
        let play = NextPlay(cursor: request.cursor, position: request.position, continuesPlay: request.continuesPlay)
        if request.splice {
            // An interrupt: what was written goes on being heard; the play goes where the unsent part began.
            start(play, at: nil, spliceAfter: request.spliceAfter)
        } else {
            // The cut flushed already; flush again here in case this thread wrote stale audio after it.
            engine.audio.flush()
            start(play, at: engine.audio.writtenFrames())
        }
        core.locked { $0.startHandled(request) }
    }

    /// Opens `first`'s item and makes it the active one, starting at `startFrame` on the timeline (nil: an
    /// interrupt's splice, made once the item is open so that opening it costs no gap). An item that fails
    /// to open is recorded as a failed play and the next one is tried, until a full pass of the queue has
    /// failed. `joins`: it follows the play before it on its own (not a cut), so a fade may soften the join.
    /// `crossfade`: the new play starts that many frames before the leaving play ends, its first samples
    /// mixed with the leaving play's (DecodeLoop+Crossfade).
    func start(
        _ first: NextPlay, at startFrame: Int64?, spliceAfter: Int64 = 0, joins: Bool = false,
        crossfade: (mix: CrossfadeMix, leaving: ActiveItem)? = nil
    ) {
        var joins = joins
        var cursor = first.cursor
        var position = first.position
        var continuesPlay = first.continuesPlay
        var pendingStart = startFrame
        while true {
            guard
                let (item, speed, repeats) = core.locked({ shared -> (MediaItem, Double, Bool)? in
                    guard shared.serial == serial, let item = shared.item(for: cursor) else { return nil }
                    return (item, shared.status.rate, shared.playsAgain(after: cursor))
                })
            else { return }
            let opened = open(cursor, item: item, position: position, repeats: repeats)
            // An interrupt's first pictures are decoded before its splice is placed, so the splice waits for
            // nothing but its samples' way to the audio server.
            let ahead = pendingStart == nil ? decodeAhead(opened, from: position) : PicturesAhead()
            let startFrame = pendingStart ?? splice(after: spliceAfter, opened: opened, ahead: ahead)
            pendingStart = startFrame
            switch opened {
            case .success(let reader):
                let showsVideo = engine.video != nil && reader.hasVideo
                var tempo: AudioTempo?
                if speed != 1 && reader.hasAudio {
                    do {
                        tempo = try AudioTempo(
                            rate: speed, sampleRate: engine.audio.format.sampleRate,
                            channels: engine.audio.format.channels)
                    } catch {
                        engine.core.logger.warning("item \(cursor.id): rate \(speed) not applied to its sound: \(error)")
                    }
                }
                var segment = Segment(
                    serial: serial, cursor: cursor, startFrame: startFrame, itemOffset: position,
                    duration: reader.duration, showsVideo: showsVideo, continuesPlay: continuesPlay)
                segment.rate = speed
                segment.joinsPrevious = joins
                segment.overlapFrames = Int64(crossfade?.mix.frames ?? 0)
                segment.isStill = reader.isStill
                segment.decoding = reader.videoDecoding
                segment.web = reader.webPage
                segment.stream = reader.isStream ? StreamState(live: reader.isLiveStream) : nil
                segment.blackWhileDown = reader.isStream && item.onStall == .black
                // A still's size waits for its picture (its EXIF turn), so that no play records it twice.
                segment.pictureSize =
                    reader.isStill ? nil : reader.displaySize.map { PictureSize(width: $0.width, height: $0.height) }
                let accepted = core.locked { $0.playOpened(segment, knownDuration: reader.duration) }
                if accepted, let scheduled = engine.config.onPlayScheduled {
                    let ahead = Double(startFrame - engine.audio.playedFrames()) / rate
                    scheduled(reader.hasAudio, Monotonic.now() + max(0, ahead))
                }
                if accepted {
                    active = ActiveItem(
                        cursor: cursor, reader: reader, serial: serial, startFrame: startFrame, itemOffset: position,
                        showsVideo: showsVideo, rate: speed, tempo: tempo,
                        pictureQueueLimit: engine.config.frameQueueCapacity, comingIn: crossfade)
                    if let active { take(ahead, into: active) }
                }
                return
            case .failure(let error):
                core.logger.error("item \(cursor.id) failed: \(error.description)")
                let serial = self.serial
                let next = core.locked {
                    $0.openFailed(cursor, serial: serial, at: startFrame, error: error.description)
                }
                guard let next else { return }
                cursor = next.cursor
                position = next.position
                continuesPlay = next.continuesPlay
                joins = false  // after a failed play nothing is on screen to fade from
            }
        }
    }

    private func open(
        _ cursor: Cursor, item: MediaItem, position: Double, repeats: Bool
    ) -> Result<any ItemReader, MediaError> {
        let core = self.core
        let serial = self.serial
        if position == 0, let opened = prefetcher.take(cursor, item: item) {
            // A stream opened ahead reads on until its play is cut (its waits are not bounded as a file's).
            if case .success(let reader) = opened, reader.isStream {
                reader.adopt { core.locked { $0.serial != serial || $0.shuttingDown } }
            }
            return opened
        }
        // A wait for a slow source ends as soon as a cut (next, stop, seek) makes this play stale. (A
        // prefetched file's reader has no such check: it may be adopted by a later serial; its waits are
        // bounded.)
        return Self.openReader(item, cursor: cursor, position: position, repeats: repeats, engine: engine) {
            core.locked { $0.serial != serial || $0.shuttingDown }
        }
    }

    /// Opens `item` for a play starting at `position`; `repeats`: the same item plays again right after this
    /// play (a loop seam), which `trackEnd: auto` ends at the shortest track so the seam is seamless.
    /// `isCancelled`: polled while a source keeps the reader waiting (nil: it waits out its timeout).
    static func openReader(
        _ item: MediaItem, cursor: Cursor, position: Double, repeats: Bool, engine: PlayerEngine,
        isCancelled: (@Sendable () -> Bool)? = nil
    ) -> Result<any ItemReader, MediaError> {
        engine.core.locked { $0.noteLoading(cursor, .loading) }
        let opened = makeReader(item, cursor: cursor, position: position, repeats: repeats, engine: engine, isCancelled)
        switch opened {
        case .success: engine.core.locked { $0.noteLoading(cursor, .ready) }
        // An open cut short (a page's wait ended by a user's next) is not the item failing: it is opened again.
        case .failure(let error) where error.message == "interrupted": break
        case .failure(let error): engine.core.locked { $0.noteLoading(cursor, .failed, error: error.description) }
        }
        return opened
    }

    private static func makeReader(
        _ item: MediaItem, cursor: Cursor, position: Double, repeats: Bool, engine: PlayerEngine,
        _ isCancelled: (@Sendable () -> Bool)?
    ) -> Result<any ItemReader, MediaError> {
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
        options.stillOutput = engine.video?.outputSize
        options.sourceLimits.openTimeout = engine.config.sourceTimeout
        options.sourceLimits.readTimeout = engine.config.sourceTimeout
        options.sourceLimits.isCancelled = isCancelled
        options.sourceLimits.expectedSHA256 = item.sha256
        options.hwdec = engine.config.hwdec
        let audio = engine.audio
        let core = engine.core
        options.sourceLimits.onWaiting = { waiting in
            let ahead = Double(audio.writtenFrames() - audio.playedFrames()) / Double(audio.format.sampleRate)
            core.locked { $0.noteSourceWaiting(cursor, waiting: waiting, ahead: ahead) }
        }
        options.outputDelay = {
            Double(max(0, audio.writtenFrames() - audio.playedFrames())) / Double(audio.format.sampleRate)
        }
        options.sourceLimits.onStreamNews = { news in
            if case .paced(let pace, let latency, let target) = news {
                // Told once per change: a stream brought back into its band, or back at its own pace.
                let how = pace > 1 ? "faster" : pace < 1 ? "slower" : "at its own pace"
                core.logger.info(
                    "item \(cursor.id): stream \(Self.seconds(latency)) s behind (target \(Self.seconds(target)) s): playing \(how) (\(Self.percent(pace)))")
            }
            core.locked { $0.noteStreamNews(cursor, news) }
        }
        do throws(MediaError) {
            let reader: any ItemReader
            if item.isWebPage {
                guard let pages = engine.config.webPages else {
                    throw MediaError(operation: "open", path: StreamKind.redacted(item.uri), message: "web pages are not enabled")
                }
                let cancelled = isCancelled ?? { false }
                return .success(try pages.open(item, output: engine.video?.outputSize, position: position, isCancelled: cancelled))
            } else if let kind = StreamKind(uri: item.uri) {
                // Read by FFmpeg itself, never through the cache; it plays for the item's duration.
                let url = engine.config.resolveStreamURL?(item.uri) ?? item.uri
                var playback = StreamPlayback(url: url, kind: kind, duration: item.duration)
                playback.endsAtFirstDrop = item.onStall == .skip
                playback.program = item.program
                if let latency = item.latency { playback.latency = latency }
                reader = try MediaReader(stream: playback, options: options)
            } else if isNetworkURI(item.uri) {
                guard let network = engine.config.networkSources else {
                    throw MediaError(operation: "open", path: item.uri, message: "network items are not enabled")
                }
                let source = try network.source(for: item.uri, limits: options.sourceLimits)
                reader = try MediaReader(source: source, path: item.uri, options: options)
            } else {
                reader = try MediaReader(path: Self.path(of: item.uri), options: options)
            }
            // A stream goes on from what it sends now, placed where the play was left (what is left of its
            // duration follows); a file seeks there.
            if position > 0 {
                if reader.isStream { reader.continueStream(at: position) } else { try reader.seek(to: position) }
            }
            if let decoding = reader.videoDecoding, let hwdec = engine.config.hwdec, hwdec.setting.methods != .no {
                // Chosen while the item is prepared (ahead of its join): said once per play, with the reason.
                if let method = decoding.hwdec {
                    engine.core.logger.info("item \(cursor.id): \(decoding.codec) decoded with \(method.rawValue)")
                } else {
                    engine.core.logger.info(
                        "item \(cursor.id): \(decoding.codec) decoded in software: \(decoding.fallback ?? "hwdec not used")")
                }
            }
            return .success(reader)
        } catch {
            return .failure(error)
        }
    }

    static func seconds(_ value: Double) -> String { String((value * 100).rounded() / 100) }
    static func percent(_ pace: Double) -> String { String((pace * 1000).rounded() / 10) + " %" }

    /// Items are absolute paths, file:// URLs or http(s) URLs (see `isNetworkURI`).
    static func path(of uri: String) -> String {
        guard uri.hasPrefix("file://") else { return uri }
        let rest = uri.dropFirst("file://".count)
        let path = rest.hasPrefix("/") ? String(rest) : String(rest.drop { $0 != "/" })
        return PathText.percentDecoded(path) ?? path
    }

    /// Opens the item that follows the active one while the active one plays. A stream is opened only in
    /// the play's last `streamLead` seconds (a connection held for a whole clip would fetch for nothing) and
    /// reads from then on, keeping only its last moments (MediaReader.readAhead): at its join it starts its
    /// latency behind its live edge, its first picture at hand. Not beside a datagram stream playing now
    /// (they may share a port), nor the same stream again (a camera's second session).
    func prepareNext(after item: ActiveItem) {
        preparedFor = item.cursor
        let current = item.reader
        guard
            let (next, entry, repeats, currentURI) = core.locked({ shared -> (Cursor, MediaItem, Bool, String?)? in
                guard let next = shared.nextPlay(after: item.cursor).cursor, let entry = shared.item(for: next),
                    !(item.cursor.isInterrupt && shared.plannedAfterInterrupt(item.cursor)?.position != 0)
                else { return nil }
                return (next, entry, shared.playsAgain(after: next), shared.item(for: item.cursor)?.uri)
            })
        else { return }
        var lead: Double?
        if let kind = StreamKind(uri: entry.uri) {
            let datagrams: Set<StreamKind> = [.udp, .rtp]
            let currentKind = currentURI.flatMap(StreamKind.init(uri:))
            if currentURI == entry.uri || (datagrams.contains(kind) && currentKind.map(datagrams.contains) == true) {
                return
            }
            lead = Self.streamLead
        } else if entry.isWebPage {
            // A page loaded ahead runs its scripts and paints all the while: only for its last moments.
            lead = Self.webPageLead
        }
        if let lead {
            // Only near the end of a play whose end is known (an endless live stream's is not).
            guard let end = current.knownEnd ?? current.duration else { return }
            let position = item.itemOffset + Double(item.itemFrames) / rate
            if position < end - lead {
                preparedFor = nil
                item.prepareStreamAt = end - lead
                return
            }
        }
        let engine = self.engine
        // A page loads for up to its loadTimeout: a user's next, stop or seek (a new serial) ends the wait, so
        // the decode thread taking this job never waits for a page nobody will see.
        let serial = item.serial
        let core = self.core
        let cancelled: (@Sendable () -> Bool)? =
            entry.isWebPage ? { @Sendable in core.locked { $0.serial != serial || $0.shuttingDown } } : nil
        prefetcher.request(next, item: entry) {
            let opened = Self.openReader(
                entry, cursor: next, position: 0, repeats: repeats, engine: engine, isCancelled: cancelled)
            if case .success(let reader) = opened, reader.isStream { reader.readAhead() }
            return Prefetcher.Opened(opened)
        }
    }

    /// How long before its turn a stream is opened (its connection and first picture take about a second on
    /// a loopback; a camera over a network longer).
    static let streamLead = 5.0
    /// How long before its turn a web page is loaded (a page on a loopback paints in ~0.3 s; a busy page on
    /// the internet in a few seconds).
    static let webPageLead = 8.0
}
