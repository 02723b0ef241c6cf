// Proof-of-play reports (plays per item, per screen, per day; or the records themselves) as JSON or CSV, the
// alerts, and the users (admin only).

import FleetStore
import Foundation
import HTTPTypes
import Hummingbird
import JSONText
import NIOCore
import NIOPosix
import WebControl

extension ConsoleServer {
    static func addReportRoutes(_ api: RouterGroup<WebContext>, console: Console) {
        api.get("plays") { request, _ -> Response in
            let query = request.uri.queryParameters
            let filter = try playFilter(query)
            let csv = query["format"] == "csv"
            // The store's reads block (SQLite, the writer's lock): on the I/O pool, never on the server's threads.
            if query["records"] == "1" {
                let records = try await NIOThreadPool.singleton.runIfActive {
                    console.link.flushRecords()
                    return try console.store.records(filter)
                }
                if csv { return csvResponse(PlayReportCSV.records(records), name: "plays-records.csv") }
                return jsonResponse(["records": .array(records)])
            }
            let (lines, stored) = try await NIOThreadPool.singleton.runIfActive {
                console.link.flushRecords()
                return (try console.store.report(filter), try console.store.playCount())
            }
            if csv { return csvResponse(PlayReportCSV.report(lines), name: "plays-report.csv") }
            return jsonResponse([
                "lines": .array(
                    lines.map {
                        [
                            "day": .string($0.day), "player": .string($0.player), "uri": .string($0.uri),
                            "plays": .int(Int64($0.plays)), "seconds": .double($0.seconds),
                        ]
                    }),
                "plays": .int(Int64(lines.reduce(0) { $0 + $1.plays })),
                "stored": .int(Int64(stored)),
            ])
        }
        api.get("alerts") { _, _ -> Response in
            let active = await console.alerter.active
            let log = await console.alerter.log
            return jsonResponse(["active": .array(active.map(\.json)), "log": .array(log.reversed().map(\.json))])
        }
    }

    static func playFilter(_ query: Parameters) throws -> FleetStore.Filter {
        func day(_ name: String) throws -> String? {
            guard let value = query[Substring(name)].map(String.init), !value.isEmpty else { return nil }
            guard value.utf8.count == 10, value.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: "-") }) else {
                throw HTTPError(.badRequest, message: "\(name) takes a day, YYYY-MM-DD")
            }
            return value
        }
        return FleetStore.Filter(
            from: try day("from"), to: try day("to"), player: query["player"].map(String.init).flatMap { $0.isEmpty ? nil : $0 },
            uri: query["uri"].map(String.init).flatMap { $0.isEmpty ? nil : $0 })
    }

    static func csvResponse(_ text: String, name: String) -> Response {
        Response(
            status: .ok,
            headers: [
                .contentType: "text/csv; charset=utf-8", .cacheControl: "no-store",
                .contentDisposition: "attachment; filename=\"\(name)\"",
            ],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    static func addUserRoutes(_ api: RouterGroup<WebContext>, console: Console) {
        api.get("users") { _, context -> Response in
            try require(.admin, context)
            return jsonResponse([
                "users": .array(await console.users.list.map { ["name": .string($0.name), "role": .string($0.role.rawValue)] })
            ])
        }
        api.post("users") { request, context -> Response in
            try require(.admin, context)
            let body = try await jsonBody(request, context)
            guard let name = body["name"]?.stringValue, let role = body["role"]?.stringValue.flatMap(Role.init(rawValue:)),
                let password = body["password"]?.stringValue
            else { throw HTTPError(.badRequest, message: "name, role (viewer, operator, admin) and password") }
            do {
                try await console.users.set(name: name, role: role, password: password)
            } catch let error as ConsoleError {
                throw HTTPError(.badRequest, message: error.description)
            }
            // Whoever was signed in as this user signs in again (with the new password or role).
            await console.sessions.end(user: name)
            context.logger.info("user \(name) set to \(role.rawValue) by \(context.session?.user ?? "")")
            return jsonResponse(["name": .string(name), "role": .string(role.rawValue)])
        }
        api.post("users/remove") { request, context -> Response in
            try require(.admin, context)
            let body = try await jsonBody(request, context)
            guard let name = body["name"]?.stringValue else { throw HTTPError(.badRequest, message: "name a user") }
            do {
                try await console.users.remove(name: name)
            } catch let error as ConsoleError {
                throw HTTPError(.badRequest, message: error.description)
            }
            await console.sessions.end(user: name)
            context.logger.info("user \(name) removed by \(context.session?.user ?? "")")
            return jsonResponse(["removed": .string(name)])
        }
    }
}

/// Reports as CSV (RFC 4180: fields quoted when they hold a comma, a quote or a line break; a field that
/// begins with = + - @ is prefixed with ' so a spreadsheet never runs it as a formula).
enum PlayReportCSV {
    static func report(_ lines: [FleetStore.ReportLine]) -> String {
        var text = "day,player,uri,plays,seconds\r\n"
        for line in lines {
            text += [line.day, line.player, line.uri, String(line.plays), String(format: "%.3f", line.seconds)].map(field).joined(separator: ",") + "\r\n"
        }
        return text
    }

    static func records(_ records: [JSONValue]) -> String {
        var text = "player,seq,uri,start,end,seconds,reason\r\n"
        for record in records {
            let values = [
                record["player"]?.stringValue ?? "", record["seq"]?.intValue.map(String.init) ?? "",
                record["uri"]?.stringValue ?? "", record["start"]?.stringValue ?? "", record["end"]?.stringValue ?? "",
                record["seconds"]?.doubleValue.map { String(format: "%.3f", $0) } ?? "", record["reason"]?.stringValue ?? "",
            ]
            text += values.map(field).joined(separator: ",") + "\r\n"
        }
        return text
    }

    static func field(_ value: String) -> String {
        var value = value
        if let first = value.first, "=+-@\t\r".contains(first), Double(value) == nil { value = "'" + value }
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
