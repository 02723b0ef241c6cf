// Which JSON-RPC methods the fleet may call on this screen through the broker (`--rpc-allow`, `--rpc-deny`,
// `--rpc-local-files`): a pure decision, so the rules read and test apart from the forwarding.
// Patterns: a method name (`player.pause`), a family (`queue.*`) or everything (`*`). A method runs when
// some allow pattern matches and no deny pattern does. Adding local files (a path on this screen, chosen by
// someone else) is refused unless the operator says otherwise: through the broker, only http(s) items.

import JSONText

public struct RPCPolicy: Sendable, Equatable {
    public var allow: [String]
    public var deny: [String]
    public var localFiles: Bool

    public init(allow: [String] = ["*"], deny: [String] = [], localFiles: Bool = false) {
        self.allow = allow
        self.deny = deny
        self.localFiles = localFiles
    }

    /// The methods that add items, and so name files.
    public static let addingMethods: Set<String> = ["queue.add", "queue.insert", "queue.replace", "queue.interrupt"]

    /// Whether `pattern` reads as one (a method name, `family.*` or `*`).
    public static func isPattern(_ pattern: String) -> Bool {
        let name = pattern.hasSuffix(".*") ? String(pattern.dropLast(2)) : pattern
        return pattern == "*" || (!name.isEmpty && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "." || $0 == "_" })
    }

    static func matches(_ pattern: String, _ method: String) -> Bool {
        if pattern == "*" { return true }
        if pattern.hasSuffix(".*") { return method.hasPrefix(pattern.dropLast()) }
        return pattern == method
    }

    /// Why `method` with `params` must not run, or nil.
    public func refusal(method: String, params: JSONValue?) -> String? {
        guard allow.contains(where: { Self.matches($0, method) }), !deny.contains(where: { Self.matches($0, method) })
        else { return "\(method) may not be called through the broker on this screen" }
        guard !localFiles, Self.addingMethods.contains(method) else { return nil }
        let items = (params?["items"]?.arrayValue ?? []) + [params?["item"]].compactMap { $0 }
        for item in items {
            let uri = item.stringValue ?? item["uri"]?.stringValue ?? ""
            if !(uri.hasPrefix("http://") || uri.hasPrefix("https://")) {
                return "through the broker only http(s) items may be added (got \(uri))"
            }
        }
        return nil
    }
}
