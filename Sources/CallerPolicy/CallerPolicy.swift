// Who may ask what of the daemon through a door that takes requests from a network: the page (queued-web) and
// the fleet bridge (queued-mqtt). One type for both doors, so their rules cannot drift apart:
// - every method the daemon has carries a decision here (MethodExposure), and a method with none is refused
//   (a test enumerates the OpenRPC document, so a method added later without a decision fails it);
// - the params are read through the method's own typed definition (`RPCMethodParams(reading:)`, what the
//   daemon decodes them with), named or positional alike, and the files they name are that definition's
//   `references` — never a list of keys kept apart, so no spelling of the params means one thing here and
//   another to the daemon;
// - a local path is judged on its real path (symlinks and `..` resolved), a uri as the daemon reads it
//   (MediaPaths' ItemURI: file:// URLs decoded);
// - what a playlist or a directory holds is the daemon's to judge: a door's connection to it is confined to
//   the same folders (`confinement`, sent as session.confine), so no entry escapes them.
// Pure: method and params in, a refusal or nil out.

import JSONText
import MediaPaths
import QueueRPC

public struct CallerPolicy: Sendable, Equatable {
    /// Which door a request came through.
    public enum Door: String, Sendable, Equatable {
        case page, broker
    }

    /// What the requests may name.
    public enum Files: Sendable, Equatable {
        /// http(s) URLs only.
        case networkOnly
        /// http(s) URLs, and local files inside these folders (real paths).
        case within([String])
        /// Anything the daemon's user may read (the operator said so: `--rpc-local-files`).
        case any
    }

    public let door: Door
    public let files: Files
    /// Patterns (`player.pause`, `queue.*`, `*`) a broker request's method must match; the page has none.
    public let allow: [String]
    public let deny: [String]

    /// `allow` nil: the door's default (every method its exposure lets through by default).
    public init(door: Door, files: Files, allow: [String]? = nil, deny: [String] = []) {
        self.door = door
        self.files = files
        self.allow = allow ?? ["*"]
        self.deny = deny
    }

    /// What every daemon connection carrying this door's requests must send first (session.confine); nil when
    /// the requests may name anything.
    public var confinement: API.SessionConfine.Params? {
        switch files {
        case .networkOnly: API.SessionConfine.Params(folders: [], network: true)
        case .within(let folders): API.SessionConfine.Params(folders: folders, network: true)
        case .any: nil
        }
    }

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

    /// Whether the door lets `method` through at all (before its params are read).
    public func admits(method: String) -> Bool {
        guard let exposure = MethodExposure.decisions[method] else { return false }
        switch door {
        case .page:
            return exposure.contains(.page)
        case .broker:
            if deny.contains(where: { Self.matches($0, method) }) { return false }
            if exposure.contains(.broker) { return allow.contains { Self.matches($0, method) } }
            // Reached only when the operator names the method itself, never through a pattern.
            return exposure.contains(.brokerWhenNamed) && allow.contains(method)
        }
    }

    /// Why `method` with `params` must not run, or nil.
    public func refusal(method: String, params: JSONValue?) -> String? {
        guard let definition = API.all.first(where: { $0.name == method }) else { return "\(method) is not a method of the daemon" }
        guard admits(method: method) else {
            return door == .page
                ? "\(method) is not available from the page"
                : "\(method) may not be called through the broker on this screen"
        }
        let references: [String]
        do {
            references = try Self.references(definition, params)
        } catch {
            return error.message
        }
        return refusal(references: references)
    }

    /// Why one of `references` (the uris and paths decoded params name: `RPCMethodParams.references`) may not
    /// be named through this door, or nil. For a caller that already holds the decoded params.
    public func refusal(references: [String]) -> String? {
        for reference in references {
            if let refusal = refusal(reference: reference) { return refusal }
        }
        return nil
    }

    /// The uris and paths the params name, read as the daemon will read them; throws the daemon's own error.
    static func references<Method: RPCMethodDefinition>(_ method: Method.Type, _ params: JSONValue?) throws(RPCError)
        -> [String]
    {
        let wire: RPCParams?
        switch params {
        case nil, .null?: wire = nil
        case let value?:
            guard let form = RPCParams(json: value) else {
                throw .invalidParams(param: nil, reason: "params must be an object or an array")
            }
            wire = form
        }
        return try Method.Params(reading: try ParamReader(wire, order: Method.parameterOrder)).references
    }

    /// Why `reference` (a uri or a path) may not be named through this door, or nil.
    func refusal(reference: String) -> String? {
        switch files {
        case .any:
            return nil
        case .networkOnly:
            guard ItemURI.isNetwork(reference) else { return "only network URLs (http(s), streams) may be named \(where_) (got \(reference))" }
            return nil
        case .within(let folders):
            if ItemURI.isNetwork(reference) { return nil }
            guard FolderConfinement(folders: folders, network: true).refusal(uri: reference) == nil else {
                return "only network URLs (http(s), streams) and files uploaded to the media folder may be named \(where_) (got \(reference))"
            }
            return nil
        }
    }

    private var where_: String { door == .page ? "from the page" : "through the broker" }
}

/// Which door may call each of the daemon's methods. Every method of the OpenRPC document has an entry
/// (CallerPolicyTests enumerates the document): a new method is refused by both doors until it is decided here.
public enum MethodExposure: Sendable, Hashable {
    /// The page's `/api/rpc` may call it.
    case page
    /// The broker's `rpc/req` may call it under the default allow-list (`*`) and any pattern that matches.
    case broker
    /// The broker may call it only when the operator names it with `--rpc-allow NAME`.
    case brokerWhenNamed

    public static let decisions: [String: Set<MethodExposure>] = [
        "queue.add": [.page, .broker], "queue.insert": [.page, .broker], "queue.remove": [.page, .broker],
        "queue.move": [.page, .broker], "queue.update": [.page, .broker], "queue.setLoops": [.page, .broker],
        "queue.list": [.page, .broker], "queue.get": [.page, .broker], "queue.interrupt": [.page, .broker],
        // Swapping or emptying the whole queue is the fleet's (its documents), not a click on the page.
        "queue.clear": [.broker], "queue.replace": [.broker], "state.apply": [.broker],
        "player.play": [.page, .broker], "player.pause": [.page, .broker], "player.toggle": [.page, .broker],
        "player.stop": [.page, .broker], "player.next": [.page, .broker], "player.previous": [.page, .broker],
        "player.seek": [.page, .broker], "player.status": [.page, .broker], "player.set": [.page, .broker],
        // The page has its own preview route (one shared encode); a fleet asks for a picture now and then.
        "player.screenshot": [.broker],
        "display.power": [.page, .broker],
        "overlay.add": [.page, .broker], "overlay.update": [.page, .broker], "overlay.remove": [.page, .broker],
        "overlay.list": [.page, .broker],
        // Subscriptions belong to a connection: the doors follow events themselves, never on a caller's behalf.
        "events.subscribe": [], "events.unsubscribe": [],
        // A door confines its own connections; a caller never confines (or fails to confine) them.
        "session.confine": [],
        "daemon.info": [.page, .broker], "daemon.health": [.page, .broker], "rpc.discover": [.broker],
        // A restart is the fleet's remedy for a screen gone wrong; the one-screen page has its own ways.
        "daemon.restart": [.broker],
        "cache.status": [.page, .broker], "cache.usage": [.page, .broker], "cache.prefetch": [.page, .broker],
        "cache.fetch": [.broker], "cache.revalidate": [.broker], "cache.evict": [.brokerWhenNamed],
        // Proof of play is the bridge's own to acknowledge: a caller that acknowledged would make records vanish.
        "plays.list": [.broker], "plays.ack": [.brokerWhenNamed],
        // Cutting the whole screen anew is the fleet's (like swapping the queue); anyone may see the zones.
        "layout.set": [.broker], "layout.get": [.page, .broker],
        // An alert takes every screen it reaches: the fleet's (and the page's operator's) to raise and withdraw.
        "alert.raise": [.page, .broker], "alert.clear": [.page, .broker], "alert.list": [.page, .broker],
        // Firing a named trigger is what a button on the page or a message to the screen does. A rule reads a
        // device or a file and puts what it reads into a call: setting them from afar is opt-in.
        "triggers.list": [.page, .broker], "triggers.fire": [.page, .broker], "triggers.set": [.brokerWhenNamed],
        // An output runs a program, writes to a device or sets a pin of the box: set only on the box, or by a
        // fleet whose operator named the method.
        "outputs.list": [.page, .broker], "outputs.set": [.brokerWhenNamed],
        // The sync program is a local client of the full socket: nothing outside sets the pace or places plays.
        "sync.clock": [], "sync.trim": [], "sync.align": [], "sync.report": [], "sync.status": [.page, .broker],
    ]
}
