// What a trigger's action calls: the words of a rule's action, with a match's groups put in for $1…$9, as
// a JSON-RPC method and its params (by name). Shorthands for what a button box does; `call` for anything.

import JSONText

public enum TriggerAction {
    /// Methods a trigger may not call: setting rules (a trigger that sets outputs runs programs) and a
    /// connection's own settings.
    static let notFromTriggers: Set<String> = [
        "triggers.set", "outputs.set", "session.confine", "events.subscribe", "events.unsubscribe",
    ]

    /// The call `action` makes once `groups` ($1 is groups[0]) are put in. Throws with the reason.
    public static func call(_ action: String, groups: [String]) throws(TriggerRuleError) -> (method: String, params: JSONObject) {
        // What a device sent is put into a call: it may carry only what an id, a number or a name needs, never
        // a quote, a space, a path or a step out of a folder.
        for group in groups.prefix(9) {
            guard group.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.:,+".unicodeScalars.contains($0) }),
                !group.contains("..")
            else { throw TriggerRuleError("a matched group holds \(group.debugDescription): only letters, digits and - _ . : , + are put into a call") }
        }
        var text = action
        for (index, group) in groups.prefix(9).enumerated().reversed() {
            text = text.replacing("$\(index + 1)", with: group)
        }
        let words = try TriggerRule.words(text)
        guard let verb = words.first else { throw TriggerRuleError("the action is empty") }
        let rest = Array(words.dropFirst())
        func options(_ words: ArraySlice<String>) throws(TriggerRuleError) -> [String: String] {
            var options: [String: String] = [:]
            for word in words {
                guard let equals = word.firstIndex(of: "=") else { throw TriggerRuleError("\(word): an option is name=value") }
                options[String(word[..<equals])] = String(word[word.index(after: equals)...])
            }
            return options
        }
        func integer(_ text: String?, _ what: String) throws(TriggerRuleError) -> Int64 {
            guard let text, let value = Int64(text) else { throw TriggerRuleError("\(verb) needs \(what) (a whole number)") }
            return value
        }
        switch verb {
        case "next", "previous", "play", "pause", "toggle", "stop":
            guard rest.isEmpty else { throw TriggerRuleError("\(verb) takes nothing after it") }
            return ("player." + verb, [:])
        case "play-id":
            guard rest.count == 1 else { throw TriggerRuleError("play-id takes an item id") }
            return ("player.play", ["id": .int(try integer(rest.first, "an item id"))])
        case "seek":
            guard rest.count == 1, let seconds = Double(rest[0]) else { throw TriggerRuleError("seek takes seconds") }
            return ("player.seek", ["position": .double(seconds)])
        case "interrupt":
            guard let uri = rest.first, !uri.contains("=") else { throw TriggerRuleError("interrupt takes a file or URL") }
            var options = try options(rest.dropFirst())
            var params: JSONObject = ["item": ["uri": .string(uri)]]
            if let loops = options.removeValue(forKey: "loops") { params["loops"] = .int(try integer(loops, "loops=")) }
            if let fullscreen = options.removeValue(forKey: "fullscreen") { params["fullscreen"] = .bool(fullscreen == "true" || fullscreen == "yes") }
            if let unknown = options.keys.sorted().first { throw TriggerRuleError("\(unknown)= is no option of interrupt (loops, fullscreen)") }
            return ("queue.interrupt", params)
        case "overlay-on", "overlay-off":
            guard rest.count == 1 else { throw TriggerRuleError("\(verb) takes a layer id") }
            return ("overlay.update", ["id": .int(try integer(rest.first, "a layer id")), "visible": .bool(verb == "overlay-on")])
        case "call":
            guard let method = rest.first, method.contains(".") else { throw TriggerRuleError("call takes a method, then its params as JSON") }
            // A trigger's call goes through the daemon's own socket, unconfined: one that set rules would give
            // whoever may set triggers (a fleet, opted in) the outputs' power to run programs.
            guard !Self.notFromTriggers.contains(method) else { throw TriggerRuleError("call \(method): not from a trigger") }
            // The params are the rest of the action as written (a JSON object), not its words.
            let json = text.drop { $0 == " " }.dropFirst(4).drop { $0 == " " }.dropFirst(method.count)
            guard !json.allSatisfy({ $0 == " " }) else { return (method, [:]) }
            guard let params = (try? JSON.parse(Array(json.utf8)))?.objectValue else {
                throw TriggerRuleError("call \(method): the params are a JSON object")
            }
            return (method, params)
        default:
            throw TriggerRuleError("\(verb) is no action (next, previous, play, pause, toggle, stop, play-id, seek, interrupt, overlay-on, overlay-off, call)")
        }
    }
}
