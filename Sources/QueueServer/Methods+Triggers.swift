// triggers.* methods: the rules in force (triggers.list), all of them replaced and kept (triggers.set: read
// whole before anything changes), and a named trigger fired (triggers.fire: queued-web's webhook, the fleet
// bridge's MQTT topic). The runner carries the calls out on its own queue: the answer says only how many
// rules the name fired, and never waits for their calls (which come back through this same socket).
// outputs.* likewise: the output rules in force, and all of them replaced and kept.

import QueueRPC
import Triggers

/// The daemon's triggers as the control side sees them.
public struct TriggerControl: Sendable {
    public let runner: TriggerRunner
    /// Keeps the rules set through the socket (the state directory); throws when it cannot.
    public let keep: @Sendable ([String]) throws -> Void
    public let outputs: OutputRunner
    /// Keeps the output rules set through the socket; throws when it cannot.
    public let keepOutputs: @Sendable ([String]) throws -> Void
    public init(
        runner: TriggerRunner, keep: @escaping @Sendable ([String]) throws -> Void, outputs: OutputRunner,
        keepOutputs: @escaping @Sendable ([String]) throws -> Void
    ) {
        (self.runner, self.keep, self.outputs, self.keepOutputs) = (runner, keep, outputs, keepOutputs)
    }
}

extension Dispatcher {
    static func triggerMethods(_ triggers: TriggerControl?) -> [RPCMethod] {
        @Sendable func control() throws(RPCError) -> TriggerControl {
            guard let triggers else { throw RPCError.badState("this daemon runs no triggers") }
            return triggers
        }
        return [
            .answering(API.TriggersList.self, .query) { _, _ in .init(triggers: try control().runner.list.map(\.shown)) },
            .answering(API.TriggersSet.self, .query) { params, _ in
                let control = try control()
                let rules = try readAll(params.triggers, param: "triggers", TriggerRule.init(parsing:))
                if let conflict = TriggerRule.conflict(in: rules) {
                    throw RPCError.invalidParams(param: "triggers", reason: conflict)
                }
                try keep(rules.map(\.line), "triggers", control.keep)
                control.runner.replace(with: rules)
                return .init(triggers: rules.map(\.shown))
            },
            .answering(API.OutputsList.self, .query) { _, _ in .init(outputs: try control().outputs.rules.map(\.shown)) },
            .answering(API.OutputsSet.self, .query) { params, _ in
                let control = try control()
                let rules = try readAll(params.outputs, param: "outputs", OutputRule.init(parsing:))
                try keep(rules.map(\.line), "outputs", control.keepOutputs)
                control.outputs.replace(with: rules)
                return .init(outputs: rules.map(\.shown))
            },
            .answering(API.TriggersFire.self, .query) { params, _ in
                let via: TriggerInput.Via = params.via == .mqtt ? .mqtt : .webhook
                let fired = try control().runner.input(.fired(name: params.name, via: via, secret: params.secret))
                return .init(fired: Int64(fired))
            },
        ]
    }
}

extension Dispatcher {
    /// Every line read as a rule, or the first that is not one refuses them all (`param[i]` says which).
    fileprivate static func readAll<Rule>(
        _ lines: [String], param: String, _ parse: (String) throws(TriggerRuleError) -> Rule
    ) throws(RPCError) -> [Rule] {
        var rules: [Rule] = []
        for (index, line) in lines.enumerated() {
            do { rules.append(try parse(line)) } catch { throw RPCError.invalidParams(param: "\(param)[\(index)]", reason: "\(error)") }
        }
        return rules
    }

    /// Keeps the rules' lines with `keeper` before they take effect (the state directory).
    fileprivate static func keep(_ lines: [String], _ what: String, _ keeper: ([String]) throws -> Void) throws(RPCError) {
        do { try keeper(lines) } catch { throw RPCError.badState("the \(what) could not be kept: \(error)") }
    }
}
