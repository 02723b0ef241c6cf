// queued-web's decisions, without a server: upload names that cannot leave the folder, the Host and Origin
// rules (a foreign origin is another loopback address, never contacted), the page's allowlist of methods and paths (symlinks followed), sessions that expire and are capped.

import Foundation
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

    @Test func sessionsExpireAfterTheirLifetimeAndAreCapped() async {
        final class Clock: @unchecked Sendable { var now = Date(timeIntervalSince1970: 1_000_000) }
        let clock = Clock()
        let store = SessionStore(now: { clock.now })
        let (cookie, session) = await store.create()
        #expect(await store.lookup(cookie)?.csrf == session.csrf)
        #expect(await store.lookup("not-a-cookie") == nil)
        clock.now += SessionStore.lifetime - 10
        #expect(await store.lookup(cookie) != nil, "used: kept alive")
        clock.now += SessionStore.lifetime + 1
        #expect(await store.lookup(cookie) == nil, "expired")
        var cookies: [String] = []
        for _ in 0..<(SessionStore.capacity + 5) {
            cookies.append(await store.create().cookie)
            clock.now += 1
        }
        #expect(await store.lookup(cookies[0]) == nil, "the oldest went")
        #expect(await store.lookup(cookies.last!) != nil)
        await store.end(cookies.last!)
        #expect(await store.lookup(cookies.last!) == nil, "signed out")
    }

    @Test func theTokenAdmitsAndAPasswordIsCheckedByItsHash() async {
        let key = AccessKey.token("token-0123456789abcdef")
        #expect(await key.admits("token-0123456789abcdef"))
        #expect(!(await key.admits("token-0123456789abcdeF")))
        #expect(AccessKey.makeToken().count == 43)
        #expect(AccessKey.makeToken() != AccessKey.makeToken())
    }
}
