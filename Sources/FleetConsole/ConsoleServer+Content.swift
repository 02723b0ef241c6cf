// The console's content and command routes: a desired document pushed to a group or a screen (checked by the
// same typed rules the bridge applies before it is published), its progress on every member, the history of
// what was pushed and a rollback to any of it (published again as the next rev), and commands to a screen or
// a group with each member's answer.

import Fleet
import FleetStore
import Foundation
import Hummingbird
import JSONText
import QueueRPC
import NIOPosix
import SystemSupport
import WebControl

extension ConsoleServer {
    /// The commands the page sends (the bridge's own policy still decides on each screen).
    static let commands: Set<String> = [
        "player.next", "player.previous", "player.play", "player.pause", "player.stop", "player.toggle",
        "queue.interrupt", "display.power", "player.screenshot", "player.status", "daemon.health", "daemon.info",
        "daemon.restart",
    ]

    /// `group/NAME` or a player id, checked.
    static func target(_ value: JSONValue?) throws -> String {
        guard let text = value?.stringValue else { throw HTTPError(.badRequest, message: "name a target: group/NAME or a screen") }
        if text.hasPrefix("group/") {
            let name = text.dropFirst(6)
            guard FleetRoster.isPlayerID(name), !name.contains("/") else { throw HTTPError(.badRequest, message: "not a group name: \(name)") }
            return text
        }
        guard FleetRoster.isPlayerID(text), !text.contains("/") else { throw HTTPError(.badRequest, message: "not a screen id: \(text)") }
        return text
    }

    /// Why `document` would be refused by a screen's bridge (the document's shape, then `state.apply`'s typed
    /// params), or nil.
    static func refusal(_ document: JSONValue) -> String? {
        do {
            let parsed = try DesiredDocument(bytes: JSON.serialize(document))
            _ = try API.StateApply.Params(
                reading: ParamReader(.byName(parsed.applyParams), order: API.StateApply.Params.order))
            return nil
        } catch let refusal as DocumentRefusal {
            return refusal.reason
        } catch let error as RPCError {
            return error.message
        } catch {
            return "\(error)"
        }
    }

    /// One push at a time: two at once would work out the same rev.
    static let pushing = ThreadLock()
    /// Guarded by `pushing`: the highest rev handed to the broker per target (a push that timed out may
    /// still be delivered: its rev is never handed out again).
    nonisolated(unsafe) static var handedOut: [String: Int64] = [:]
    /// How far above what the console knows a member's reported rev is believed.
    static let believableLead: Int64 = 1_000_000
    /// A rev a member may report and still be counted (above it, the screen's report is not believed).
    static let largestRev: Int64 = 1 << 53

    /// Publishes `document` to `target` as the next rev and records it; returns the rev. Blocks briefly (the
    /// store's write) under `pushing`: called on the I/O pool.
    static func push(_ document: JSONValue, to target: String, by user: String, console: Console) throws -> Int64 {
        guard var object = document.objectValue else { throw HTTPError(.badRequest, message: "the document must be a JSON object") }
        guard console.link.isSynced else {
            throw HTTPError(.serviceUnavailable, message: "not connected to the broker yet (or its retained documents are still arriving)")
        }
        return try pushing.withLock { () throws -> Int64 in try pushLocked(&object, to: target, by: user, console: console) }
    }

    private static func pushLocked(_ object: inout JSONObject, to target: String, by user: String, console: Console) throws -> Int64 {
        // Above every rev the target's members hold or wait for too (a bridge ignores a rev older than its
        // own), but a member's report is believed only within `believableLead` of what the console knows: one
        // screen cannot push a group's revs to the end of the range.
        let recorded = (try? console.store.history(target: target, limit: 1).first?.rev) ?? 0
        let known = max(recorded, handedOut[target] ?? 0, console.link.withRoster { $0.desired[target] } ?? 0)
        guard known >= 0, known < largestRev else { throw HTTPError(.conflict, message: "no rev left for \(target)") }
        let members: [Int64] = console.link.withRoster { roster in
            roster.members(of: target).flatMap { screen -> [Int64] in
                [screen.reported?.appliedRev ?? 0, screen.reported?.pendingRev ?? 0]
            }
        }
        let believed = members.filter { $0 >= 0 && $0 <= known + believableLead }
        let base = max(known, believed.max() ?? 0)
        guard base < largestRev else { throw HTTPError(.conflict, message: "no rev left for \(target)") }
        let rev = base + 1
        handedOut[target] = rev
        object["rev"] = .int(rev)
        if let refusal = refusal(.object(object)) { throw HTTPError(.unprocessableContent, message: "refused: \(refusal)") }
        do {
            try console.link.publishDesired(.object(object), target: target)
        } catch {
            throw HTTPError(.serviceUnavailable, message: "the broker did not take it: \(error)")
        }
        try console.store.recordPush(
            .init(target: target, rev: rev, document: .object(object), pushedAt: Date().timeIntervalSince1970, pushedBy: user))
        return rev
    }

    /// The fleet's alerts: listed from what the broker holds (anyone who sees the wall), raised on a group or a
    /// screen as one retained message, withdrawn with an empty one (operators). A message is checked as the
    /// screens' bridges and daemons would check it before it is published.
    static func addAlertRoutes(_ api: RouterGroup<WebContext>, console: Console) {
        api.get("fleet-alerts") { _, _ -> Response in
            let list = console.link.fleetAlerts.map { entry -> JSONValue in
                var object = entry.alert.objectValue ?? [:]
                object["target"] = .string(entry.target)
                object["name"] = .string(entry.name)
                return .object(object)
            }
            return jsonResponse(["alerts": .array(list)])
        }
        api.post("fleet-alerts") { request, context -> Response in
            try require(.operator_, context)
            let body = try await jsonBody(request, context)
            let target = try target(body["target"])
            let name = body["name"]?.stringValue ?? ""
            var message: JSONObject = [:]
            for field in FleetAlert.fields { if let value = body[field], value != .null { message[field] = value } }
            // What the bridge and the daemon would refuse is refused here, before anything is published.
            switch FleetAlert.action(scope: target, name: name, payload: JSON.serialize(.object(message))) {
            case .failure(let refusal):
                throw HTTPError(.unprocessableContent, message: refusal.description)
            case .success(.raise(_, let params)):
                do {
                    let typed = try API.AlertRaise.Params(reading: ParamReader(.byName(params), order: API.AlertRaise.Params.order))
                    if let expires = typed.expires, AlertTime.seconds(expires) == nil {
                        throw HTTPError(.unprocessableContent, message: "expires: an RFC 3339 time with its zone")
                    }
                } catch let error as RPCError {
                    throw HTTPError(.unprocessableContent, message: error.message)
                }
            case .success(.clear):
                throw HTTPError(.unprocessableContent, message: "an alert shows items, a text, or both")
            }
            let alert = JSONValue.object(message)
            try await NIOThreadPool.singleton.runIfActive { try console.link.publishAlert(alert, name: name, target: target) }
            context.logger.info("alert \(name) raised on \(target) (\(context.session?.user ?? ""))")
            return jsonResponse(["target": .string(target), "name": .string(name)])
        }
        api.post("fleet-alerts/withdraw") { request, context -> Response in
            try require(.operator_, context)
            let body = try await jsonBody(request, context)
            let target = try target(body["target"])
            let name = body["name"]?.stringValue ?? ""
            guard case .success = FleetAlert.action(scope: target, name: name, payload: []) else {
                throw HTTPError(.badRequest, message: "not an alert's name")
            }
            try await NIOThreadPool.singleton.runIfActive { try console.link.publishAlert(nil, name: name, target: target) }
            context.logger.info("alert \(name) withdrawn from \(target) (\(context.session?.user ?? ""))")
            return jsonResponse(["target": .string(target), "name": .string(name)])
        }
    }

    static func addContentRoutes(_ api: RouterGroup<WebContext>, console: Console) {
        api.post("push") { request, context -> Response in
            try require(.operator_, context)
            let body = try await jsonBody(request, context)
            let target = try target(body["target"])
            guard let document = body["document"] else { throw HTTPError(.badRequest, message: "no document") }
            let user = context.session?.user ?? ""
            let rev = try await NIOThreadPool.singleton.runIfActive { try push(document, to: target, by: user, console: console) }
            context.logger.info("pushed rev \(rev) to \(target) (\(context.session?.user ?? ""))")
            return jsonResponse(["target": .string(target), "rev": .int(rev)])
        }
        // Checks a document without pushing it (the editor's "Check" button).
        api.post("check") { request, context -> Response in
            let body = try await jsonBody(request, context)
            guard var object = body["document"]?.objectValue else { throw HTTPError(.badRequest, message: "no document") }
            object["rev"] = object["rev"] ?? .int(1)
            return jsonResponse(["refusal": refusal(.object(object)).map(JSONValue.string) ?? .null])
        }
        api.post("rollback") { request, context -> Response in
            try require(.operator_, context)
            let body = try await jsonBody(request, context)
            let target = try target(body["target"])
            guard let rev = body["rev"]?.intValue, let old = try console.store.document(target: target, rev: rev) else {
                throw HTTPError(.notFound, message: "no such rev in this target's history")
            }
            var document = old.document.objectValue ?? [:]
            document["rev"] = nil
            let user = context.session?.user ?? ""
            let older = JSONValue.object(document)
            let new = try await NIOThreadPool.singleton.runIfActive { try push(older, to: target, by: user, console: console) }
            context.logger.info("rolled \(target) back to rev \(rev) as rev \(new)")
            return jsonResponse(["target": .string(target), "rev": .int(new), "from": .int(rev)])
        }
        api.get("documents") { request, _ -> Response in
            let target = try target(request.uri.queryParameters["target"].map { JSONValue.string(String($0)) })
            let history = try console.store.history(target: target)
            let current = console.link.withRoster { $0.desired[target] }
            return jsonResponse([
                "target": .string(target), "rev": current.map(JSONValue.int) ?? .null,
                "history": .array(
                    history.map {
                        [
                            "rev": .int($0.rev), "document": $0.document, "pushedAt": .double($0.pushedAt),
                            "pushedBy": .string($0.pushedBy),
                        ]
                    }),
            ])
        }
        // How far `rev` has got on each member of `target`.
        api.get("progress") { request, _ -> Response in
            let query = request.uri.queryParameters
            let target = try target(query["target"].map { JSONValue.string(String($0)) })
            guard let rev = query["rev"].flatMap({ Int64($0) }) else { throw HTTPError(.badRequest, message: "name a rev") }
            let members = console.link.withRoster { $0.members(of: target) }
            var counts: [String: Int64] = [:]
            let lines: [JSONValue] = members.map { screen in
                let progress = PushProgress(rev: rev, screen: screen).json
                counts[progress["state"]?.stringValue ?? "", default: 0] += 1
                return ["id": .string(screen.id), "progress": progress]
            }
            return jsonResponse([
                "target": .string(target), "rev": .int(rev), "members": .array(lines),
                "counts": .object(JSONObject(counts.map { ($0.key, JSONValue.int($0.value)) })),
            ])
        }
    }

    static func addCommandRoutes(_ api: RouterGroup<WebContext>, settings: ConsoleSettings, console: Console) {
        api.post("command") { request, context -> Response in
            try require(.operator_, context)
            let body = try await jsonBody(request, context)
            let target = body["target"]?.stringValue == "all" ? "all" : try target(body["target"])
            guard let method = body["method"]?.stringValue, commands.contains(method) else {
                throw HTTPError(.badRequest, message: "not a command the page sends: \(body["method"]?.stringValue ?? "none")")
            }
            let params = body["params"]
            let members = console.link.withRoster { $0.members(of: target) }
            guard !members.isEmpty else { throw HTTPError(.notFound, message: "no screen in \(target)") }
            context.logger.info("command \(method) to \(target) (\(members.count) screens, \(context.session?.user ?? ""))")
            let answers = await Bounded.map(members, limit: settings.parallelCalls) { screen -> JSONValue in
                if screen.online != true { return ["error": ["code": -32000, "message": "offline"]] }
                if method == "player.screenshot" {
                    switch await console.link.takeThumbnail(player: screen.id) {
                    case .success: return ["result": ["kept": true]]
                    case .failure(let error): return ["error": ["message": .string(error.description)]]
                    }
                }
                return await console.link.call(player: screen.id, method: method, params: params)
            }
            let results: [(id: String, answer: JSONValue)] = answers.map { ($0.0.id, $0.1) }
            let lines: [JSONValue] = results.sorted { $0.id < $1.id }.map { id, answer in
                var line: JSONObject = ["id": .string(id)]
                if let error = answer["error"] { line["error"] = .string(error["message"]?.stringValue ?? "\(error)") }
                else { line["result"] = answer["result"] ?? .null }
                return .object(line)
            }
            return jsonResponse(["target": .string(target), "method": .string(method), "results": .array(lines)])
        }
    }
}
