// Which requests the fleet may run on a screen through the broker: the default (everything but adding local
// files), allow and deny patterns, and the operator lifting the local-file rule.

import Fleet
import JSONText
import Testing

@Suite struct RPCPolicyTests {
    private func items(_ uris: String...) -> JSONValue { ["items": .array(uris.map(JSONValue.string))] }

    @Test func byDefaultEverythingRunsButAddingLocalFiles() {
        let policy = RPCPolicy()
        #expect(policy.refusal(method: "player.pause", params: nil) == nil)
        #expect(policy.refusal(method: "queue.add", params: items("https://127.0.0.1/a.mp4")) == nil)
        #expect(policy.refusal(method: "queue.add", params: items("/etc/shadow"))?.contains("only http(s)") == true)
        #expect(
            policy.refusal(method: "queue.insert", params: ["item": ["uri": "file:///srv/x.mp4"]])?.contains("only http(s)")
                == true)
        #expect(policy.refusal(method: "queue.replace", params: ["items": [["uri": "https://127.0.0.1/b"], "/x"]]) != nil)
    }

    @Test func allowAndDenyPatterns() {
        let policy = RPCPolicy(allow: ["player.*", "queue.list", "daemon.info"], deny: ["player.screenshot"])
        #expect(policy.refusal(method: "player.pause", params: nil) == nil)
        #expect(policy.refusal(method: "queue.list", params: nil) == nil)
        #expect(policy.refusal(method: "player.screenshot", params: nil)?.contains("may not be called") == true)
        #expect(policy.refusal(method: "queue.clear", params: nil) != nil)
        #expect(policy.refusal(method: "playerX.pause", params: nil) != nil, "a family is its dot-separated prefix")
        #expect(RPCPolicy(deny: ["*"]).refusal(method: "daemon.info", params: nil) != nil)
    }

    @Test func theOperatorMayLetLocalFilesThrough() {
        let policy = RPCPolicy(localFiles: true)
        #expect(policy.refusal(method: "queue.add", params: items("/srv/media/a.mp4")) == nil)
    }

    @Test func patternsAreNamesFamiliesOrEverything() {
        #expect(["*", "queue.*", "player.pause", "plays.list"].allSatisfy(RPCPolicy.isPattern))
        #expect(!["", ".*", "queue.**", "a b", "queue/*"].contains(where: RPCPolicy.isPattern))
    }
}
