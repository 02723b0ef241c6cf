// Stories of one URL's cache decisions, told to CacheEntryState directly: reads that start or wait for
// transfers, retries and backoff, a file changed on the server, completion, holes, retirement. No threads,
// no network, no clock: every step gets its time and the test compares the actions that come back.

import CacheControl
import Media
import NIOHTTP1
import Testing

@testable import NetCache

@Suite struct CacheEntryStateTests {
    static let url = "http://127.0.0.1:9/clip.mp4"
    static let length: Int64 = 10 << 20

    // MARK: Helpers

    private func fresh(now: Double = 0) -> CacheEntryState {
        CacheEntryState(url: Self.url, meta: nil, present: ByteRanges(), timeout: 15, now: now)
    }

    /// A state that knows the file (ETag "v1", ranges accepted) with `present` on disk and no transfer.
    private func known(present: ByteRanges = ByteRanges(), length: Int64 = length, etag: String? = "\"v1\"")
        -> CacheEntryState
    {
        let meta = CacheMeta(url: Self.url, length: length, etag: etag, lastModified: nil, acceptsRanges: true)
        return CacheEntryState(url: Self.url, meta: meta, present: present, timeout: 15, now: 0)
    }

    private func head(_ status: HTTPResponseStatus, _ headers: [(String, String)]) -> HTTPResponseHead {
        HTTPResponseHead(version: .http1_1, status: status, headers: HTTPHeaders(headers))
    }

    private func piece(from start: Int64, of length: Int64 = length, etag: String = "\"v1\"") -> HTTPResponseHead {
        head(.partialContent, [("Content-Range", "bytes \(start)-\(length - 1)/\(length)"), ("ETag", etag)])
    }

    private func starts(_ actions: [CacheEntryAction]) -> [TransferRequest] {
        actions.compactMap { if case .startTransfer(let request) = $0 { return request } else { return nil } }
    }

    private func cancels(_ actions: [CacheEntryAction]) -> [Int] {
        actions.compactMap { if case .cancelTransfer(let id) = $0 { return id } else { return nil } }
    }

    private func told(_ actions: [CacheEntryAction]) -> [CacheNews] {
        actions.compactMap { if case .tell(let news) = $0 { return news } else { return nil } }
    }

    /// Starts the first transfer from byte 0 and has the server answer 206 for the whole length.
    private func downloading(now: Double = 0) -> (CacheEntryState, Int) {
        var state = fresh(now: now)
        let id = starts(state.ensureTransfer(covering: 0, now: now))[0].id
        #expect(state.accept(piece(from: 0), from: id, now: now).keepGoing)
        return (state, id)
    }

    // MARK: Reads and transfers

    @Test func aReadAtTheStartStartsOneTransfer() {
        var state = fresh()
        let first = state.ensureTransfer(covering: 0, now: 1)
        #expect(first == [.startTransfer(TransferRequest(id: 1, start: 0, location: Self.url, ifRange: nil))])
        // The next slice of the same wait, and a second reader nearby, wait for it.
        #expect(state.ensureTransfer(covering: 0, now: 1.2) == [])
        #expect(state.ensureTransfer(covering: 4096, now: 1.2) == [])
        #expect(state.transfers.count == 1)
    }

    @Test func aReadFarAheadGetsASecondRangedRequestAtMostMaxTransfers() {
        var (state, first) = downloading()
        // The moov at the end of an MP4: its own request, with If-Range since bytes of "v1" may be cached.
        let moov = Self.length - 100_000
        let second = starts(state.ensureTransfer(covering: moov, now: 1))
        #expect(second.map(\.start) == [moov])
        #expect(second.first?.ifRange == "\"v1\"")
        #expect(state.transfers.count == 2)
        // A third place far from both: the oldest transfer makes room.
        let third = state.ensureTransfer(covering: Self.length / 2, now: 2)
        #expect(cancels(third) == [first])
        #expect(starts(third).map(\.start) == [Self.length / 2])
        #expect(state.transfers.count == CacheEntryState.maxTransfers)
        #expect(!state.isRunning(first))
    }

    @Test func aReadWithinReadAheadOfARunningTransferWaitsForIt() {
        var (state, id) = downloading()
        _ = state.receive(100_000, from: id)
        #expect(state.ensureTransfer(covering: 100_000 + CacheEntryState.readAhead, now: 1) == [])
        #expect(starts(state.ensureTransfer(covering: 100_001 + CacheEntryState.readAhead, now: 1)).count == 1)
    }

    @Test func aServerThatIgnoresRangesIsWaitedForFromTheStart() {
        var state = fresh()
        let id = starts(state.ensureTransfer(covering: 0, now: 0))[0].id
        _ = state.accept(head(.ok, [("Content-Length", "\(Self.length)")]), from: id, now: 0)
        #expect(state.meta?.acceptsRanges == false)
        #expect(state.ensureTransfer(covering: Self.length - 10, now: 1) == [])
    }

    @Test func aStoppedTransfersAnswerAndBytesAreRefused() {
        var (state, first) = downloading()
        _ = state.ensureTransfer(covering: Self.length - 1000, now: 1)
        _ = state.ensureTransfer(covering: Self.length / 2, now: 1)  // cancels the first
        #expect(state.receive(4096, from: first) == nil)
        #expect(!state.accept(piece(from: 0), from: first, now: 1).keepGoing)
        #expect(state.ended(first, failure: "cancelled", now: 2) == [])
    }

    @Test func aReaderThatWasToldToWaitResumesOnlyWithBytesInHand() {
        var (state, id) = downloading()
        var wait = ReaderWait(goal: .bytes(at: 0, version: 0))
        _ = state.written(0..<1000, from: id, error: nil, now: 1)
        #expect(state.isSatisfied(wait))
        wait.noticed = true
        #expect(!state.isSatisfied(wait))
        _ = state.written(1000..<CacheEntryState.resumeAhead, from: id, error: nil, now: 2)
        #expect(state.isSatisfied(wait))
        #expect((try? state.answer(wait)) == CacheEntryState.resumeAhead)
    }

    // MARK: Failures, retries, backoff

    @Test func aCutTransferIsResumedFromWhereItStoppedUntilMaxAttempts() throws {
        var (state, id) = downloading()
        var position: Int64 = 0
        for attempt in 1...CacheEntryState.maxAttempts {
            let offset = state.receive(1000, from: id)?.offset ?? -1
            #expect(offset == position)
            _ = state.written(offset..<offset + 1000, from: id, error: nil, now: Double(attempt))
            position += 1000
            _ = state.receive(500, from: id)  // cut before these reached the disk
            let actions = state.ended(id, failure: "the server closed the connection", now: Double(attempt))
            #expect(state.failedAttempts == 1)  // the bytes in between reset the count
            #expect(told(actions).contains(.error(reason: "the server closed the connection", retryIn: 0)))
            let next = starts(actions)
            #expect(next.map(\.start) == [position])
            id = next[0].id
            _ = state.accept(piece(from: position), from: id, now: Double(attempt))
        }
        // Attempts that bring nothing count up, and the fourth in a row gives up.
        for attempt in 2...CacheEntryState.maxAttempts {
            let actions = state.ended(id, failure: "the server closed the connection", now: 10)
            #expect(state.failedAttempts == attempt)
            if attempt < CacheEntryState.maxAttempts {
                id = starts(actions)[0].id
                _ = state.accept(piece(from: position), from: id, now: 10)
            } else {
                #expect(starts(actions).isEmpty)
                #expect(told(actions).contains(.error(reason: "the server closed the connection", retryIn: nil)))
                #expect(actions.contains(.becameIdle))
            }
        }
        #expect(state.gaveUp)
        #expect(state.status.state == .error)
        #expect(throws: MediaError.self) { try state.isOver(ReaderWait(goal: .bytes(at: position, version: 0))) }
        #expect(state.ensureTransfer(covering: position, now: 11) == [])
    }

    @Test func anUnreachableServerBacksOffDoublingFromTwoSecondsToFiveMinutes() {
        var state = fresh()
        var now = 0.0
        var delays: [Double] = []
        for _ in 0..<10 {
            let started = state.fillInBackground(now: now)
            #expect(started.started)
            let id = starts(started.actions)[0].id
            let actions = state.ended(id, failure: "refused", now: now)
            let error = told(actions).first
            guard case .error(let reason, let retryIn)? = error else {
                Issue.record("no error news: \(actions)")
                return
            }
            #expect(reason == "cannot connect to 127.0.0.1:9: refused")
            delays.append(retryIn ?? -1)
            #expect(state.retryAt == now + (retryIn ?? 0))
            // No attempt before retryAt: the prefetcher waits, a play fails at once with the wait left.
            #expect(!state.fillInBackground(now: state.retryAt - 0.5).started)
            #expect(throws: MediaError.self) { _ = try state.open(now: state.retryAt - 0.5) }
            now = state.retryAt
        }
        #expect(delays == [2, 4, 8, 16, 32, 64, 128, 256, 300, 300])
    }

    @Test func bytesArrivingResetTheBackoff() {
        var state = fresh()
        let id = starts(state.fillInBackground(now: 0).actions)[0].id
        _ = state.ended(id, failure: "refused", now: 0)
        #expect(state.backoff == 2)
        let again = starts(state.fillInBackground(now: 2).actions)[0].id
        _ = state.accept(piece(from: 0), from: again, now: 2)
        _ = state.written(0..<100, from: again, error: nil, now: 3)
        #expect(state.backoff == 0)
        #expect(state.failure == nil)
    }

    @Test func anHTTPErrorFailsThePlayAndBacksOff() throws {
        var state = fresh()
        let id = starts(state.ensureTransfer(covering: 0, now: 0))[0].id
        let answer = state.accept(head(.notFound, []), from: id, now: 0)
        #expect(!answer.keepGoing)
        #expect(told(answer.actions) == [.error(reason: "HTTP 404 Not Found", retryIn: 2)])
        #expect(answer.actions.contains(.becameIdle))
        let wait = ReaderWait(goal: .length)
        #expect(throws: MediaError(operation: "open", path: Self.url, message: "HTTP 404 Not Found")) {
            try state.isOver(wait)
        }
    }

    @Test func aStallAsksEveryTransferAgainOnceThenFailsTheRead() throws {
        var (state, id) = downloading()
        var wait = ReaderWait(goal: .bytes(at: 0, version: 0))
        #expect(try state.checkStall(&wait, now: 15) == [])
        let restart = try state.checkStall(&wait, now: 15.1)
        #expect(cancels(restart) == [id])
        #expect(starts(restart).map(\.start) == [0])
        #expect(wait.stalledOnce)
        #expect(try state.checkStall(&wait, now: 30) == [])
        #expect(throws: MediaError.self) { _ = try state.checkStall(&wait, now: 30.2) }
    }

    @Test func redirectsAreFollowedOverHTTPOnlyAndAtMostFive() {
        var state = fresh()
        var id = starts(state.ensureTransfer(covering: 0, now: 0))[0].id
        for hop in 1...CacheEntryState.maxRedirects {
            let answer = state.accept(head(.found, [("Location", "/hop\(hop).mp4")]), from: id, now: 0)
            #expect(!answer.keepGoing)
            let next = starts(answer.actions)
            #expect(next.map(\.location) == ["http://127.0.0.1:9/hop\(hop).mp4"])
            id = next[0].id
        }
        let sixth = state.accept(head(.found, [("Location", "/hop6.mp4")]), from: id, now: 0)
        #expect(starts(sixth.actions).isEmpty)
        #expect(state.failure?.message == "more than 5 redirects")

        var hostile = fresh()
        let first = starts(hostile.ensureTransfer(covering: 0, now: 0))[0].id
        let refused = hostile.accept(head(.found, [("Location", "file:///etc/passwd")]), from: first, now: 0)
        #expect(starts(refused.actions).isEmpty)
        #expect(hostile.failure?.message == "redirect to file:///etc/passwd refused")
    }

    // MARK: A file changed on the server

    @Test func anIfRangeMismatchBumpsTheVersionAndStartsOver() throws {
        var state = known(present: ByteRanges([0..<500_000]))
        let request = starts(state.fillInBackground(now: 0).actions)[0]
        #expect(request.start == 500_000)
        #expect(request.ifRange == "\"v1\"")
        let answer = state.accept(
            head(.ok, [("Content-Length", "\(Self.length)"), ("ETag", "\"v2\"")]), from: request.id, now: 1)
        #expect(answer.keepGoing)
        #expect(answer.actions.contains(.truncateFiles))
        #expect(state.version == 1)
        #expect(state.present == ByteRanges())
        #expect(state.meta?.etag == "\"v2\"")
        // The body is the whole new file: its first bytes go to 0.
        #expect(state.receive(10, from: request.id)?.offset == 0)
        // A play opened on the old version fails rather than read the new one's bytes.
        let old = ReaderWait(goal: .bytes(at: 0, version: 0))
        #expect(state.isSatisfied(old))
        #expect(throws: MediaError.self) { _ = try state.answer(old) }
        #expect(try state.answer(ReaderWait(goal: .bytes(at: 0, version: 1))) == 0)
    }

    @Test func aWholeAnswerToARangedRequestWithoutValidatorsStartsOverFromZero() {
        var state = known(present: ByteRanges([0..<1000]), etag: nil)
        let request = starts(state.fillInBackground(now: 0).actions)[0]
        #expect(request.ifRange == nil)
        let answer = state.accept(head(.ok, [("Content-Length", "\(Self.length)")]), from: request.id, now: 0)
        #expect(answer.actions.contains(.truncateFiles))
        #expect(state.version == 1)
        #expect(state.meta?.acceptsRanges == false)
        #expect(state.receive(10, from: request.id)?.offset == 0)
    }

    @Test func aDigestIsKeptOnlyForTheVersionItWasComputedFrom() {
        var state = known(present: ByteRanges([0..<Self.length]))
        let hashed = state.completeMeta
        #expect(hashed != nil)
        // A new version arrived while the file was hashed.
        var changed = known(present: ByteRanges([0..<Self.length]), etag: "\"v2\"")
        #expect(changed.recordDigest("abc", of: hashed!) == [])
        let kept = state.recordDigest("abc", of: hashed!)
        #expect(kept.count == 1)
        #expect(state.meta?.sha256 == "abc")
    }

    // MARK: Completion and holes

    @Test func completionIsToldOnceWithTheFilesSynced() {
        let length: Int64 = 2 << 20
        var state = fresh()
        let first = starts(state.ensureTransfer(covering: 0, now: 0))[0].id
        _ = state.accept(piece(from: 0, of: length), from: first, now: 0)
        let second = starts(state.ensureTransfer(covering: 1_500_000, now: 0))[0].id
        _ = state.accept(piece(from: 1_500_000, of: length), from: second, now: 0)
        #expect(state.written(1_500_000..<length, from: second, error: nil, now: 1).keepGoing)
        // The first reaches the bytes the second brought: it stops, and the file is complete.
        let caughtUp = state.written(0..<1_500_000, from: first, error: nil, now: 2)
        #expect(!caughtUp.keepGoing)
        #expect(caughtUp.actions.contains(.syncFiles))
        #expect(told(caughtUp.actions).filter { $0 == .complete }.count == 1)
        #expect(!caughtUp.actions.contains(.becameIdle))  // the second still runs
        #expect(state.isComplete)
        // The second ends: complete again, but told once only; now nothing runs.
        let secondEnd = state.ended(second, failure: nil, now: 3)
        #expect(!told(secondEnd).contains(.complete))
        #expect(!secondEnd.contains(.syncFiles))
        #expect(secondEnd.contains(.becameIdle))
        #expect(state.status.state == .complete)
    }

    @Test func holesLeftAfterATransferAreFilledByTheNext() {
        var state = known(present: ByteRanges([200..<500]), length: 1000)
        let first = starts(state.fillInBackground(now: 0).actions)[0]
        #expect(first.start == 0)
        _ = state.accept(piece(from: 0, of: 1000), from: first.id, now: 0)
        // Caught up with the kept bytes at 200: stop, the next gap gets its own request.
        let caughtUp = state.written(0..<200, from: first.id, error: nil, now: 1)
        #expect(!caughtUp.keepGoing)
        #expect(starts(caughtUp.actions).map(\.start) == [500])
        #expect(!caughtUp.actions.contains(.becameIdle))
    }

    @Test func progressIsToldAtMostFourTimesASecond() {
        var (state, id) = downloading()
        #expect(told(state.written(0..<100, from: id, error: nil, now: 1).actions).count == 1)
        #expect(told(state.written(100..<200, from: id, error: nil, now: 1.1).actions).isEmpty)
        let later = told(state.written(200..<300, from: id, error: nil, now: 1.5).actions)
        #expect(later == [.progress(bytes: 300, length: Self.length, rate: 400)])
    }

    @Test func aDiskErrorFailsTheTransfer() {
        var (state, id) = downloading()
        let failure = MediaError(operation: "write", path: "/cache/x.data", message: "No space left on device")
        let result = state.written(0..<100, from: id, error: failure, now: 1)
        #expect(!result.keepGoing)
        #expect(told(result.actions) == [.error(reason: "No space left on device", retryIn: 2)])
        #expect(state.present == ByteRanges())
        #expect(state.gaveUp)
    }

    // MARK: Retirement

    @Test func aRetiredEntryCancelsItsTransfersAndStartsNoMore() {
        var (state, id) = downloading()
        #expect(state.retire(rejection: nil) == [.cancelTransfer(id: id)])
        #expect(state.ensureTransfer(covering: 0, now: 1) == [])
        #expect(!state.fillInBackground(now: 1).started)
        #expect(throws: MediaError(operation: "read", path: Self.url, message: "removed from the cache")) {
            try state.isOver(ReaderWait(goal: .bytes(at: 0, version: 0)))
        }
        #expect(throws: MediaError.self) { _ = try state.open(now: 1) }
    }
}
