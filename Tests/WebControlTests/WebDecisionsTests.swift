// queued-web's decisions, without a server: upload names that cannot leave the folder, the Host and Origin
// rules (a foreign origin is another loopback address, never contacted), the page's allowlist of methods and
// paths (symlinks followed), sessions that expire and are capped per client, the sign-in throttle, who the
// client is behind a proxy, the uploads' shared budget and naming without hard links.

import Foundation
import Hummingbird
import NIOCore
import JSONText
import TestSupport
import Testing

@testable import WebControl

@Suite struct WebDecisionsTests {
    @Test func uploadNamesStayInsideTheFolder() {
        #expect(UploadName.safe("../../etc/x") == "x")
        #expect(UploadName.safe("..\\..\\windows\\evil.mp4") == "evil.mp4")
        #expect(UploadName.safe("/abs/path/clip.mp4") == "clip.mp4")
        #expect(UploadName.safe(".hidden") == "hidden")
        #expect(UploadName.safe("..") == "upload")
        #expect(UploadName.safe("a b?<img src=x>.mp4") == "a_b__img_src_x_.mp4")
        #expect(UploadName.safe("café.jpg") == "caf_.jpg")
        #expect(UploadName.safe(String(repeating: "a", count: 300) + ".mp4").count == 120)
        #expect(UploadName.safe(String(repeating: "a", count: 300) + ".mp4").hasSuffix(".mp4"))
        let taken: Set = ["clip.mp4", "clip-2.mp4"]
        #expect(UploadName.unique("clip.mp4") { taken.contains($0) } == "clip-3.mp4")
        #expect(UploadName.unique("new.mp4") { taken.contains($0) } == "new.mp4")
    }

    @Test func theHostMustNameThisServerAndChangesComeFromItsOrigin() {
        let hosts = HostPolicy(allowed: ["signage.shop.lan"], hostName: "screen-box")
        for good in ["127.0.0.1:8080", "[::1]:8080", "192.168.1.20", "localhost:8080", "screen-box:8080", "screen-box.local",
            "SIGNAGE.shop.lan:443"]
        {
            #expect(hosts.accepts(host: good), "\(good)")
        }
        for bad in ["rebound.localhost", "rebound.localhost:8080", "127.0.0.1.rebound.localhost", "", "[::1", "screen-box.localhost"] {
            #expect(!hosts.accepts(host: bad), "\(bad)")
        }
        #expect(!hosts.accepts(host: nil))
        #expect(HostPolicy.isSameOrigin("http://127.0.0.1:8080", host: "127.0.0.1:8080", secure: false))
        #expect(!HostPolicy.isSameOrigin("http://127.0.0.2:8080", host: "127.0.0.1:8080", secure: false))
        #expect(!HostPolicy.isSameOrigin("http://127.0.0.1:8080", host: "127.0.0.1:8080", secure: true))
        #expect(!HostPolicy.isSameOrigin(nil, host: "127.0.0.1:8080", secure: false))
        #expect(!HostPolicy.isSameOrigin("null", host: "127.0.0.1:8080", secure: false))
    }

    @Test func thePageMayAddURLsAndUploadsButNoOtherLocalPath() throws {
        let media = try TemporaryDirectory(prefix: "queued-web-media")
        let outside = try TemporaryDirectory(prefix: "queued-web-outside")
        FileManager.default.createFile(atPath: media.path + "/clip.mp4", contents: Data([1]))
        FileManager.default.createFile(atPath: outside.path + "/secret.mp4", contents: Data([1]))
        symlink(outside.path + "/secret.mp4", media.path + "/link.mp4")
        let methods = WebSettings(mediaDirectory: media.path, access: .token("t")).callerPolicy
        func add(_ uri: String) -> String? { methods.refusal(method: "queue.add", params: ["items": [.string(uri)]]) }
        #expect(add("https://127.0.0.1/a.mp4") == nil)
        #expect(add(media.path + "/clip.mp4") == nil)
        #expect(add("file://" + media.path + "/clip.mp4") == nil)
        #expect(add(outside.path + "/secret.mp4") != nil)
        #expect(add(media.path + "/../" + (outside.path as NSString).lastPathComponent + "/secret.mp4") != nil)
        #expect(add(media.path + "/link.mp4") != nil, "a symlink out of the folder is followed and refused")
        #expect(add("/etc/passwd") != nil)
        #expect(add("relative.mp4") != nil)
        #expect(methods.refusal(method: "queue.interrupt", params: ["item": ["uri": "/etc/passwd"]]) != nil)
        #expect(methods.refusal(method: "overlay.add", params: ["type": "image", "path": "/etc/x.png"]) != nil)
        for method in ["plays.ack", "plays.list", "queue.replace", "queue.clear", "cache.evict", "events.subscribe", "rpc.discover"] {
            #expect(methods.refusal(method: method, params: nil) != nil, "\(method)")
        }
        #expect(methods.refusal(method: "player.pause", params: nil) == nil)
    }

    final class Clock: @unchecked Sendable {
        /// Set by the test's own task only.
        var now = Date(timeIntervalSince1970: 1_000_000)
    }

    @Test func sessionsExpireUnusedOrAfterTheirAbsoluteLifetime() async {
        let clock = Clock()
        let store = SessionStore(now: { clock.now })
        let (cookie, session) = await store.create(client: "10.0.0.5")
        #expect(await store.lookup(cookie)?.csrf == session.csrf)
        #expect(await store.lookup("not-a-cookie") == nil)
        clock.now += SessionStore.idleLifetime - 10
        #expect(await store.lookup(cookie) != nil, "used: kept alive")
        clock.now += SessionStore.idleLifetime + 1
        #expect(await store.lookup(cookie) == nil, "unused too long")
        // Used every few hours, a session still ends 7 days after signing in.
        let (busy, _) = await store.create(client: "10.0.0.5")
        var alive = 0.0
        while await store.lookup(busy) != nil {
            alive += 3600
            clock.now += 3600
        }
        #expect(alive == SessionStore.absoluteLifetime, "\(alive)")
        await store.end(busy)
        #expect(await store.lookup(busy) == nil, "signed out")
    }

    @Test func aSignInLoopEvictsItsOwnSessionsNeverTheOperators() async {
        let clock = Clock()
        let store = SessionStore(now: { clock.now })
        let (operatorCookie, _) = await store.create(client: "192.168.1.10")
        #expect(await store.lookup(operatorCookie) != nil)
        // The same address (a shop behind one NAT): the loop's sessions, never used, go before the used one.
        for _ in 0..<50 {
            clock.now += 1
            _ = await store.create(client: "192.168.1.10")
        }
        #expect(await store.lookup(operatorCookie) != nil, "a used session outlives a loop from its own address")
        #expect(await store.count <= SessionStore.perClient)
        // Many addresses: the global cap takes from the client holding most, never below one each.
        for number in 0..<(SessionStore.capacity * 3) {
            clock.now += 1
            _ = await store.create(client: "10.1.\(number / 250).\(number % 250)")
            _ = await store.create(client: "10.9.9.9")
        }
        #expect(await store.count <= SessionStore.capacity)
        #expect(await store.lookup(operatorCookie) != nil, "the operator is still signed in")
    }

    @Test func anEndedSessionEndsItsWatchers() async {
        let store = SessionStore()
        let (cookie, _) = await store.create(client: "a")
        async let ended: Void = store.untilEnded(cookie: cookie)
        await store.end(cookie)
        await ended
        await store.untilEnded(cookie: "never-signed-in")
    }

    @Test func failedSignInsAreSlowedPerClientUpToAMinute() async {
        let clock = Clock()
        let throttle = SignInThrottle(now: { clock.now })
        for _ in 0..<SignInThrottle.freeFailures {
            #expect(await throttle.begin(client: "a") == .check)
            await throttle.finish(client: "a", admitted: false)
        }
        #expect(await throttle.begin(client: "a") == .wait(seconds: 1))
        #expect(await throttle.begin(client: "b") == .check, "another client is not slowed")
        await throttle.finish(client: "b", admitted: true)
        var waits: [Int] = []
        for _ in 0..<10 {
            guard case .wait(let seconds) = await throttle.begin(client: "a") else { break }
            clock.now += Double(seconds)
            #expect(await throttle.begin(client: "a") == .check)
            await throttle.finish(client: "a", admitted: false)
            waits.append(seconds)
        }
        #expect(waits == [1, 2, 4, 8, 16, 32, 60, 60, 60, 60], "\(waits)")
        // Parallel guesses: only the free attempts are checked at once.
        var verdicts: [SignInThrottle.Verdict] = []
        for _ in 0..<8 { verdicts.append(await throttle.begin(client: "c")) }
        #expect(verdicts.filter { $0 == .check }.count == SignInThrottle.freeFailures)
        // A success clears the record.
        clock.now += 61
        #expect(await throttle.begin(client: "a") == .check)
        await throttle.finish(client: "a", admitted: true)
        #expect(await throttle.begin(client: "a") == .check)
    }

    @Test func theClientIsThePeerOrBehindTheProxyTheLastForwardedEntry() {
        #expect(ClientAddress.of(peer: "10.0.0.7", forwardedFor: "1.2.3.4", behindProxy: false) == "10.0.0.7")
        #expect(ClientAddress.of(peer: "10.0.0.7", forwardedFor: "1.2.3.4", behindProxy: true) == "10.0.0.7", "not from the proxy")
        #expect(ClientAddress.of(peer: "127.0.0.1", forwardedFor: "6.6.6.6, 192.168.1.9", behindProxy: true) == "192.168.1.9")
        #expect(ClientAddress.of(peer: "::1", forwardedFor: "fe80::1", behindProxy: true) == "fe80::1")
        #expect(ClientAddress.of(peer: "127.0.0.1", forwardedFor: "not-an-address", behindProxy: true) == "127.0.0.1")
        #expect(ClientAddress.of(peer: "127.0.0.1", forwardedFor: "192.168.1.9", behindProxy: false) == "127.0.0.1")
    }

    @Test func uploadsAtTheSameTimeShareTheQuotaAndTheReserve() async throws {
        final class Disk: @unchecked Sendable {
            /// Set by the test's own task only.
            var stored: Int64 = 0
            var free: Int64 = 1000
        }
        let disk = Disk()
        let budget = UploadBudget(
            limits: UploadLimits(maxBytes: 1 << 30, reserveBytes: 100, quotaBytes: 600),
            folderBytes: { disk.stored }, freeBytes: { disk.free })
        let (a, b) = (UUID(), UUID())
        try await budget.reserve(a, total: 400)
        await #expect(throws: UploadBudget.Refusal.quota(used: 400, quota: 600)) { try await budget.reserve(b, total: 201) }
        try await budget.reserve(b, total: 200)
        #expect(await budget.reserved == 600)
        await budget.release(a)
        disk.stored = 400
        disk.free = 600
        // No quota: the disk's reserve holds against what is reserved by others.
        let open = UploadBudget(limits: UploadLimits(reserveBytes: 100), folderBytes: { 0 }, freeBytes: { disk.free })
        try await open.reserve(a, total: 300)
        await #expect(throws: UploadBudget.Refusal.disk(available: 200)) { try await open.reserve(b, total: 201) }
    }

    @Test func withoutHardLinksAnUploadIsNamedByClaimingTheName() async throws {
        let folder = try TemporaryDirectory(prefix: "queued-web-nolinks")
        try Data("taken".utf8).write(to: URL(fileURLWithPath: folder.path + "/clip.mp4"))
        let media = MediaFolder(path: folder.path, limits: UploadLimits(), hardLinks: false)
        let result = try await media.receive(
            RequestBody(buffer: ByteBuffer(string: "new bytes")), requestedName: "clip.mp4", declaredLength: nil)
        #expect(result.name == "clip-2.mp4")
        #expect(try String(contentsOfFile: folder.path + "/clip-2.mp4", encoding: .utf8) == "new bytes")
        #expect(try String(contentsOfFile: folder.path + "/clip.mp4", encoding: .utf8) == "taken")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["clip-2.mp4", "clip.mp4"])
        #expect(await media.budget.reserved == 0)
    }

    @Test func theTokenAdmitsAndAPasswordIsCheckedByItsHash() async {
        let key = AccessKey.token("token-0123456789abcdef")
        #expect(await key.admits("token-0123456789abcdef"))
        #expect(!(await key.admits("token-0123456789abcdeF")))
        #expect(AccessKey.makeToken().count == 43)
        #expect(AccessKey.makeToken() != AccessKey.makeToken())
    }
}
