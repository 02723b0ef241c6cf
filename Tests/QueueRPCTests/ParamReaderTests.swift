// ParamReader: named and positional params read alike, and each mistake has its own -32602 wording.

import QueueRPC
import Testing

private enum Fit: String, CaseIterable {
    case fit, fill, stretch
}

@Suite struct ParamReaderTests {
    private let order = ["id", "index", "title"]

    /// The params member of `{"params": …}` written as JSON text.
    private func params(_ text: String) throws -> RPCParams? {
        RPCParams(json: try json(text))
    }

    private func reader(_ text: String, order: [String]? = nil) throws -> ParamReader {
        try ParamReader(try params(text), order: order ?? self.order)
    }

    /// The error `body` throws, as `(param, reason)` from its data, checking the code and the message.
    private func failure(_ body: () throws -> Void) -> (param: String?, reason: String)? {
        do {
            try body()
            return nil
        } catch {
            // Closures do not infer typed throws, so the RPCError arrives as `any Error`.
            guard let error = error as? RPCError else {
                Issue.record("not an RPCError: \(error)")
                return nil
            }
            #expect(error.code == -32602)
            let param = error.data?["param"]?.stringValue
            let reason = error.data?["reason"]?.stringValue ?? ""
            #expect(error.message == (param.map { "invalid params: '\($0)' \(reason)" } ?? "invalid params: \(reason)"))
            return (param, reason)
        }
    }

    @Test func namedAndPositionalReadAlike() throws {
        let named = try reader(#"{"index": 2, "id": 7}"#)
        let positional = try reader("[7, 2]")
        for reader in [named, positional] {
            #expect(try reader.requiredInt("id") == 7)
            #expect(try reader.int("index") == 2)
            #expect(try reader.string("title") == nil)
            #expect(reader.has("id") && !reader.has("title"))
        }
        #expect(named.names == ["index", "id"] && positional.names == ["id", "index"])
        // null means absent, by name or by position.
        let nulls = try reader("[null, 3, null]")
        #expect(!nulls.has("id") && nulls.raw("id") == .null && nulls.raw("missing") == nil)
        #expect(try nulls.int("id") == nil)
        #expect(nulls.has("index"))
        #expect(failure { _ = try nulls.requiredInt("id") }! == ("id", "is required"))
        // No params at all, or empty ones, are fine.
        #expect(!(try ParamReader(nil, order: order)).has("id"))
        #expect(try reader("[]").names.isEmpty)
        #expect(try reader("{}").names.isEmpty)
    }

    @Test func shapeErrors() throws {
        #expect(
            failure { _ = try ParamReader(try! params("[1, 2, 3, 4]"), order: order) }!
                == (nil, "expected at most 3 parameters"))
        #expect(
            failure { _ = try ParamReader(try! params("[1, 2]"), order: ["ids"]) }!
                == (nil, "expected at most 1 parameter"))
        #expect(
            failure { _ = try ParamReader(try! params("[1]"), order: []) }!
                == (nil, "expected at most 0 parameters"))
        #expect(
            failure { _ = try ParamReader(try! params(#"{"id": 1, "idx": 2}"#), order: order) }!
                == ("idx", "unknown parameter"))
    }

    @Test func integers() throws {
        let reader = try reader(#"{"id": 2.0, "index": 2.5, "title": "3"}"#)
        #expect(try reader.int("id") == 2)
        #expect(failure { _ = try reader.int("index") }! == ("index", "must be an integer"))
        #expect(failure { _ = try reader.int("title") }! == ("title", "must be an integer"))
        let ranged = try self.reader(#"{"id": 101, "index": -1}"#)
        #expect(failure { _ = try ranged.int("id", in: 0...100) }! == ("id", "must be between 0 and 100"))
        #expect(failure { _ = try ranged.int("index", in: 0...Int64.max) }! == ("index", "must be >= 0"))
        #expect(failure { _ = try ranged.int("id", in: Int64.min...100) }! == ("id", "must be <= 100"))
        #expect(try ranged.int("id", in: 1...101) == 101)
        #expect(try ranged.int("title", in: 0...1) == nil)
        #expect(failure { _ = try ranged.requiredInt("title") }! == ("title", "is required"))
    }

    @Test func doubles() throws {
        let reader = try reader(#"{"id": 2, "index": 0.25, "title": true}"#)
        #expect(try reader.double("id") == 2.0)
        #expect(try reader.requiredDouble("index") == 0.25)
        #expect(failure { _ = try reader.double("title") }! == ("title", "must be a number"))
        #expect(failure { _ = try reader.double("index", in: 0.5...2) }! == ("index", "must be between 0.5 and 2"))
        #expect(failure { _ = try reader.double("index", in: 0.3...Double.infinity) }! == ("index", "must be >= 0.3"))
        #expect(try reader.double("id", in: 0.5...2) == 2)
        let built = try ParamReader(.byName(["id": .double(.infinity)]), order: order)
        #expect(failure { _ = try built.double("id") }! == ("id", "must be a number"))
        let empty = try ParamReader(nil, order: order)
        #expect(failure { _ = try empty.requiredDouble("index") }! == ("index", "is required"))
    }

    @Test func otherTypes() throws {
        let reader = try ParamReader(
            .byPosition([true, "s", [1, 2], ["a", "b"], [1, "x"], "fill", "wide", 3, ["k": 1]]),
            order: ["b", "s", "ints", "strings", "mixed", "fit", "badFit", "number", "object"])
        #expect(try reader.bool("b") == true)
        #expect(failure { _ = try reader.bool("s") }! == ("s", "must be a boolean"))
        #expect(try reader.string("s") == "s")
        #expect(try reader.requiredString("s") == "s")
        #expect(failure { _ = try reader.string("b") }! == ("b", "must be a string"))
        #expect(failure { _ = try reader.requiredString("nothing") }! == ("nothing", "is required"))
        #expect(try reader.array("ints") == [1, 2])
        #expect(try reader.requiredArray("mixed") == [1, "x"])
        #expect(failure { _ = try reader.array("s") }! == ("s", "must be an array"))
        #expect(failure { _ = try reader.requiredArray("nothing") }! == ("nothing", "is required"))
        #expect(try reader.intArray("ints") == [1, 2])
        #expect(failure { _ = try reader.intArray("mixed") }! == ("mixed", "must be an array of integers"))
        #expect(failure { _ = try reader.intArray("number") }! == ("number", "must be an array of integers"))
        #expect(try reader.stringArray("strings") == ["a", "b"])
        #expect(failure { _ = try reader.stringArray("ints") }! == ("ints", "must be an array of strings"))
        #expect(try reader.enum("fit", Fit.self) == .fill)
        #expect(try reader.enum("nothing", Fit.self) == nil)
        #expect(failure { _ = try reader.enum("badFit", Fit.self) }! == ("badFit", "must be one of fit, fill, stretch"))
        #expect(failure { _ = try reader.enum("number", Fit.self) }! == ("number", "must be one of fit, fill, stretch"))
        #expect(try reader.object("object") == ["k": 1])
        #expect(failure { _ = try reader.object("ints") }! == ("ints", "must be an object"))
    }

    @Test func errorOnTheWire() throws {
        let reader = try reader(#"{"id": "seven"}"#)
        do {
            _ = try reader.int("id")
            Issue.record("expected an error")
        } catch {
            #expect(
                text(RPCEncode.error(error, id: 1))
                    == #"{"jsonrpc":"2.0","error":{"code":-32602,"message":"invalid params: 'id' must be an integer","data":{"param":"id","reason":"must be an integer"}},"id":1}"#
            )
        }
    }
}
