// Events are typed like methods: QueueRPC's `Events` lists the document's notifications in its order,
// and every example of every notification in Protocol/queued.openrpc.json decodes into that event's
// Params and encodes back to the same message (the examples are test vectors, as the methods' are).

import Foundation
import QueueRPC
import Testing

@Suite struct EventDefinitionTests {
    @Test func theSharedEventsAreTheDocumentsNotifications() throws {
        let document = try protocolDocumentOnDisk()
        let described = (document["x-notifications"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }
        #expect(described.count == EventName.allCases.count)
        #expect(Events.all.map { $0.name.method } == described)
    }

    @Test func everyExampleSurvivesItsType() throws {
        let document = try protocolDocumentOnDisk()
        var checked = 0
        for notification in document["x-notifications"]?.arrayValue ?? [] {
            let method = notification["name"]?.stringValue ?? "?"
            guard let definition = Events.all.first(where: { $0.name.method == method }) else {
                Issue.record("\(method) has no type")
                continue
            }
            for example in notification["examples"]?.arrayValue ?? [] {
                let value = try #require(example["value"])
                guard let decoded = roundTrip(definition, value) else {
                    Issue.record("\(method): the example does not decode")
                    continue
                }
                // A status is sent with every key (a lenient reader fills what an example leaves out).
                let kept = definition.name == .status ? JSONValue.object(
                    JSONObject((value.objectValue ?? [:]).map { ($0.key, decoded[$0.key] ?? .null) })) : decoded
                #expect(sameJSON(kept, value), "\(method) example \(example["name"]?.stringValue ?? "?"): \(decoded)")
                checked += 1
            }
        }
        #expect(checked >= 12, "examples checked: \(checked)")
    }
}

/// JSON equality with numbers compared by value (an example's `0` is the encoder's `0.0`).
private func sameJSON(_ a: JSONValue, _ b: JSONValue) -> Bool {
    if let x = a.doubleValue, let y = b.doubleValue { return x == y }
    if let x = a.objectValue, let y = b.objectValue {
        return x.count == y.count && x.allSatisfy { member in y[member.key].map { sameJSON(member.value, $0) } ?? false }
    }
    if let x = a.arrayValue, let y = b.arrayValue { return x.count == y.count && zip(x, y).allSatisfy(sameJSON) }
    return a == b
}

/// An example decoded into its event's Params and encoded again (nil when it does not decode).
private func roundTrip(_ definition: any RPCEventDefinition.Type, _ json: JSONValue) -> JSONValue? {
    func typed<Event: RPCEventDefinition>(_: Event.Type) -> JSONValue? { Event.Params(json: json)?.json }
    return typed(definition)
}
