// The daemon's web pages (issue 40): one queued-webview process, started when the first web item is
// prepared and again after it ended, renders every page off-screen; each play gets a page loaded and painted
// before its turn (WebPageOpening), read as pictures (WebPageReader). Pages with `reload: keep` outlive their
// plays (the few latest, by item). Any thread; `state` guards the fields marked so, and is never held while
// a command is written or a wait runs.

import Glibc
import JSONText
import Logging
import Media
import MediaPaths
import Playback
import QueueModel
import SystemClock
import SystemSupport

public final class WebRenderer: WebPageOpening, @unchecked Sendable {
    public struct Settings: Sendable {
        /// The renderer program (a path, or a name looked up on PATH).
        public var program: String
        /// The cap on a page's web process, MiB: above it the process is stopped and its item fails.
        public var memoryMiB: Int = 512
        /// Frames a second a page may paint at most.
        public var framesPerSecond: Double = 30
        /// Seconds a page's script may keep from answering before the page counts as hung.
        public var hangAfter: Double = 5
        /// Pages kept alive between plays (`reload: keep`) at most; the least recently played goes first.
        public var keptPages = 4
        /// Seconds a web item is shown when it names no duration.
        public var defaultDuration: Double = 10
        public init(program: String) { self.program = program }
    }

    let settings: Settings
    let logger: Logger
    /// The private folder the frame files are in (0700), removed by `stop`.
    private let folder: String
    private let state = ThreadCondition()
    /// Guarded by `state`: the running renderer, and whether it said it is ready.
    private var process: RendererProcess?
    private var ready = false
    /// Guarded by `state`: why the renderer cannot run (it said so, or could not start); cleared by a retry.
    private var unavailable: String?
    private var pages: [Int: WebPage] = [:]
    /// Guarded by `state`: kept pages by their item's key, most recently played last.
    private var kept: [(key: String, page: WebPage)] = []
    private var nextID = 1
    private var stopped = false

    public init(settings: Settings, logger: Logger) {
        self.settings = settings
        self.logger = logger
        var template = Array("/dev/shm/queued-web-XXXXXX".utf8CString)
        if access("/dev/shm", W_OK) != 0 { template = Array("/tmp/queued-web-XXXXXX".utf8CString) }
        folder = template.withUnsafeMutableBufferPointer { buffer in
            mkdtemp(buffer.baseAddress!).map { String(cString: $0) } ?? "/tmp"
        }
    }

    // MARK: plays

    public func open(
        _ item: MediaItem, output: PixelSize?, position: Double, isCancelled: @escaping @Sendable () -> Bool
    ) throws(MediaError) -> any ItemReader {
        let options = item.web ?? WebItem()
        let url = try Self.pageURL(item.uri)
        let viewport = options.viewport.map { PixelSize(width: $0.width, height: $0.height) }
            ?? output ?? PixelSize(width: 1280, height: 720)
        let key = "\(url) \(viewport.width)x\(viewport.height) \(options.zoom ?? 1)"
        let timeout = options.loadTimeout ?? WebItem.defaultLoadTimeout
        // The page counts this play as its reader from here (it is never let go while it loads for it); the
        // reader made below takes the count over, a failure gives it back.
        let page: WebPage
        if options.reload == .keep, let alive = keptPage(key) {
            page = alive
        } else {
            page = try newPage(
                url: url, uri: item.uri, size: viewport, zoom: options.zoom ?? 1, key: options.reload == .keep ? key : nil)
        }
        do throws(MediaError) {
            try page.waitUntilShown(timeout: timeout, isCancelled: isCancelled)
        } catch {
            // A kept page whose wait was cut short (a user's next) stays kept for the next play.
            if error.message == "interrupted", page.kept, page.isAlive {
                playEnded(page)
            } else {
                _ = page.readerEnded()
                discard(page)
            }
            throw error
        }
        return WebPageReader(
            page: page, renderer: self, duration: item.duration ?? settings.defaultDuration, position: position,
            framesPerSecond: settings.framesPerSecond, interval: options.interval)
    }

    /// A play of `page` ended (its reader went): a page not kept is closed; a kept one no other play reads
    /// paints once a second until it plays again, or is closed if it died or was let go meanwhile.
    func playEnded(_ page: WebPage) {
        let stillKept = state.withLock { kept.contains { $0.page === page } }
        let left = page.readerEnded { readers in
            // Decided and told under the page's own order, so a play starting meanwhile is told after this.
            if readers == 0 && page.kept && stillKept && page.isAlive { setFramesPerSecond(page, Self.idleFramesPerSecond) }
        }
        guard left == 0, !(page.kept && stillKept && page.isAlive) else { return }
        discard(page)
    }

    private func setFramesPerSecond(_ page: WebPage, _ fps: Double) {
        sendToRenderer([("op", "fps"), ("view", .int(Int64(page.id))), ("fps", .double(fps))])
    }

    /// How often a kept page between its plays may paint: enough to stay current, cheap while unseen.
    static let idleFramesPerSecond = 1.0

    func reload(_ page: WebPage) {
        page.reloadAsked()
        sendToRenderer([("op", "reload"), ("view", .int(Int64(page.id)))])
    }

    /// Stops the renderer (the daemon is stopping): its pages' processes end with it.
    public func stop() {
        let running = state.withLock { () -> RendererProcess? in
            stopped = true
            kept.removeAll()
            return process
        }
        running?.stop(grace: 2)
        rmdirTree()
    }

    // MARK: pages

    private func keptPage(_ key: String) -> WebPage? {
        let (alive, dead) = state.withLock { () -> (WebPage?, WebPage?) in
            guard let index = kept.firstIndex(where: { $0.key == key }) else { return (nil, nil) }
            let entry = kept.remove(at: index)
            guard entry.page.isAlive, pages[entry.page.id] != nil else { return (nil, entry.page) }
            kept.append(entry)
            return (entry.page, nil)
        }
        // Counted before anything else may let it go; painting at full rate again from its first reader.
        alive?.readerBegan { readers in if readers == 1, let alive { setFramesPerSecond(alive, settings.framesPerSecond) } }
        // A kept page whose process died: closed (a fresh one is made); one a play still reads goes when it ends.
        if let dead, !dead.isRead { discard(dead) }
        return alive
    }

    private func newPage(url: String, uri: String, size: PixelSize, zoom: Double, key: String?) throws(MediaError) -> WebPage {
        let renderer = try running(url: uri)
        let (page, evicted) = state.withLock { () -> (WebPage, [WebPage]) in
            let id = nextID
            nextID += 1
            let page = WebPage(
                id: id, url: url, uri: uri, size: size, framesPath: "\(folder)/page-\(id)", kept: key != nil)
            page.readerBegan { _ in }
            pages[id] = page
            var evicted: [WebPage] = []
            if let key {
                evicted += kept.filter { $0.key == key }.map(\.page)
                kept.removeAll { $0.key == key }
                kept.append((key, page))
                // The least recently played go first; a page a play reads now stays until its play ends.
                while kept.count > settings.keptPages, let index = kept.firstIndex(where: { !$0.page.isRead }),
                    kept[index].page !== page
                {
                    evicted.append(kept.remove(at: index).page)
                }
            }
            return (page, evicted)
        }
        // Let go here; one a play still reads is closed when that play ends (playEnded).
        for old in evicted where !old.isRead { discard(old) }
        guard page.makeFrameFile() else {
            _ = page.readerEnded()
            discard(page)
            throw MediaError(operation: "web page", path: page.shownURL, message: "no room for its frames in \(folder)")
        }
        var command: [(String, JSONValue)] = [
            ("op", "open"), ("view", .int(Int64(page.id))), ("url", .string(url)),
            ("width", .int(Int64(size.width))), ("height", .int(Int64(size.height))), ("zoom", .double(zoom)),
            ("fps", .double(settings.framesPerSecond)), ("frames", .string(page.framesPath)),
        ]
        if url.hasPrefix(Self.pageScheme + "://"), let folder = Self.folder(ofPageURL: url) {
            command.append(("files", .string(folder)))
        }
        guard renderer.send(command) else {
            _ = page.readerEnded()
            discard(page)
            throw MediaError(operation: "web page", path: page.shownURL, message: "the web renderer stopped")
        }
        return page
    }

    /// Closes a page in the renderer and forgets it (a play waiting for it is told so at once).
    private func discard(_ page: WebPage) {
        page.processEnded("the page was closed")
        let known = state.withLock { () -> Bool in
            kept.removeAll { $0.page === page }
            return pages.removeValue(forKey: page.id) != nil
        }
        if known { sendToRenderer([("op", "close"), ("view", .int(Int64(page.id)))]) }
    }

    private func sendToRenderer(_ command: [(String, JSONValue)]) {
        let renderer = state.withLock { process }
        renderer?.send(command)
    }

    // MARK: the renderer process

    /// The running renderer, started (and waited for) when there is none.
    private func running(url full: String) throws(MediaError) -> RendererProcess {
        let url = StreamKind.redacted(full)
        let found: Result<RendererProcess, MediaError>? = state.withLock {
            if stopped { return .failure(MediaError(operation: "web page", path: url, message: "the daemon is stopping")) }
            if let process, ready { return .success(process) }
            return nil
        }
        if let found { return try found.get() }
        let started: RendererProcess
        do throws(RendererProcess.StartError) {
            started = try startIfNone()
        } catch {
            switch error {
            case .notFound(let program):
                throw MediaError(
                    operation: "web page", path: url,
                    message: "web pages need \(program), which is not installed (a build without WPE WebKit)")
            case .failed(let reason):
                throw MediaError(operation: "web page", path: url, message: "the web renderer could not start: \(reason)")
            }
        }
        // Its first line says whether its engine runs here.
        let deadline = Monotonic.now() + 20
        let outcome: Result<RendererProcess, MediaError> = state.withLock {
            while true {
                if ready, process === started { return .success(started) }
                if process !== started || unavailable != nil {
                    return .failure(
                        MediaError(
                            operation: "web page", path: url,
                            message: unavailable ?? "the web renderer stopped as it started"))
                }
                let left = deadline - Monotonic.now()
                if left <= 0 {
                    return .failure(MediaError(operation: "web page", path: url, message: "the web renderer did not start in 20 s"))
                }
                state.wait(seconds: left)
            }
        }
        return try outcome.get()
    }

    /// Starts the renderer unless one is running (another play may have started it meanwhile).
    private func startIfNone() throws(RendererProcess.StartError) -> RendererProcess {
        if let process = state.withLock({ process }) { return process }
        let started = try RendererProcess(
            program: settings.program,
            arguments: ["--memory", String(settings.memoryMiB), "--hang-after", String(settings.hangAfter)])
        let winner = state.withLock { () -> RendererProcess in
            if let process { return process }
            process = started
            ready = false
            unavailable = nil
            return started
        }
        if winner !== started {
            started.stop(grace: 0)
            return winner
        }
        logger.info("web renderer started (pid \(started.pid))")
        Threads.start(named: "queued.webview") { [self] in
            started.readEvents { event in self.handle(event, from: started) }
            let how = started.reap()
            let orphans = state.withLock { () -> [WebPage] in
                guard process === started else { return [] }
                process = nil
                ready = false
                kept.removeAll()
                let orphans = Array(pages.values)
                pages.removeAll()
                return orphans
            }
            state.broadcast()
            if !state.withLock({ stopped }) { logger.warning("web renderer \(how); it is started again for the next page") }
            for page in orphans { page.processEnded("the web renderer \(how)") }
        }
        return started
    }

    /// One event from the renderer (its reader thread).
    private func handle(_ event: JSONValue, from renderer: RendererProcess) {
        guard let kind = event["ev"]?.stringValue else { return }
        if kind == "ready" || kind == "unavailable" {
            state.withLock {
                if kind == "ready" { ready = true } else { unavailable = event["reason"]?.stringValue ?? "the web engine cannot run" }
            }
            state.broadcast()
            return
        }
        guard let id = event["view"]?.intValue.map(Int.init), let page = state.withLock({ pages[id] }) else { return }
        switch kind {
        case "frame":
            guard let slot = event["slot"]?.intValue, let width = event["width"]?.intValue,
                let height = event["height"]?.intValue
            else { return }
            page.frameArrived(slot: Int(slot), width: Int(width), height: Int(height))
            renderer.send([("op", "done"), ("view", .int(Int64(id))), ("slot", .int(slot))])
        case "committed":
            page.committed(status: Int(event["status"]?.intValue ?? 0))
        case "loaded":
            if let title = event["title"]?.stringValue, !title.isEmpty { page.titled(title) }
            page.loadFinished()
        case "title":
            page.titled(event["title"]?.stringValue ?? "")
        case "failed", "hung":
            let reason = event["reason"]?.stringValue ?? "the page failed"
            if kind == "hung" { page.processEnded(reason) } else { page.failed(reason) }
            logger.warning("web page \(page.shownURL): \(reason)")
        case "ended":
            let reason: String
            switch event["reason"]?.stringValue {
            case "memory": reason = "the page used more than its memory cap (\(settings.memoryMiB) MiB) and was stopped"
            case "terminated": reason = "the page's web process was stopped"
            default: reason = "the page's web process crashed"
            }
            page.processEnded(reason)
            logger.warning("web page \(page.shownURL): \(reason)")
        default:
            break
        }
    }

    // MARK: URLs

    /// The URL the renderer loads for an item's URI: http(s) as it is; a local file (a path or a file: URL)
    /// as a queued-page: URL, which the renderer serves from the file's folder only.
    static func pageURL(_ uri: String) throws(MediaError) -> String {
        if uri.hasPrefix("http://") || uri.hasPrefix("https://") { return uri }
        var path = uri
        if uri.hasPrefix("file://") {
            let rest = uri.dropFirst("file://".count)
            let bare = rest.hasPrefix("/") ? String(rest) : String(rest.drop { $0 != "/" })
            path = PathText.percentDecoded(bare) ?? bare
        }
        guard path.hasPrefix("/") else {
            throw MediaError(operation: "web page", path: uri, message: "a web item is an http(s) URL or an absolute path")
        }
        guard access(path, R_OK) == 0 else {
            throw MediaError(operation: "web page", path: uri, message: String(cString: strerror(errno)))
        }
        return pageScheme + "://" + PathText.percentEncodedPath(path)
    }

    /// The scheme the renderer serves local pages under (qd_webview.h's QD_WEB_PAGE_SCHEME).
    static let pageScheme = "queued-page"

    /// The folder a local page is in: the only place it (and what it loads) may reach.
    static func folder(ofPageURL url: String) -> String? {
        let path = String(url.dropFirst(pageScheme.count + "://".count))
        guard let slash = path.lastIndex(of: "/") else { return nil }
        let folder = String(path[..<slash])
        return PathText.percentDecoded(folder) ?? folder
    }

    private func rmdirTree() {
        guard folder != "/tmp", let directory = opendir(folder) else { return }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { unlink("\(folder)/\(name)") }
        }
        closedir(directory)
        rmdir(folder)
    }
}
