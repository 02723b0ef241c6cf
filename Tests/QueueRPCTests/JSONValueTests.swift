// JSONValue accessors and literals, JSONObject's ordered-dictionary behaviour and its equality.

import QueueRPC
import Testing

@Suite struct JSONValueTests {
    @Test func accessorsMatchTheirCaseOnly() {
        let value: JSONValue = ["n": nil, "b": true, "i": 3, "d": 2.5, "s": "x", "a": [1], "o": ["k": 1]]
        #expect(value["n"]?.isNull == true)
        #expect(value["b"]?.boolValue == true)
        #expect(value["i"]?.intValue == 3)
        #expect(value["d"]?.doubleValue == 2.5)
        #expect(value["s"]?.stringValue == "x")
        #expect(value["a"]?.arrayValue == [1])
        #expect(value["o"]?.objectValue == ["k": 1])
        #expect(value["missing"] == nil)
        #expect(value["s"]?.intValue == nil)
        #expect(value["b"]?.intValue == nil)
        #expect(value["i"]?.stringValue == nil)
        #expect(value["i"]?.isNull == false)
        #expect(value["a"]?["k"] == nil)
        #expect(value["a"]?[0] == 1)
        #expect(value["a"]?[1] == nil)
        #expect(value.arrayValue == nil)
    }

    @Test func numbersConvert() {
        #expect(JSONValue.double(2.0).intValue == 2)
        #expect(JSONValue.double(-0.0).intValue == 0)
        #expect(JSONValue.double(2.5).intValue == nil)
        #expect(JSONValue.double(1e19).intValue == nil)
        #expect(JSONValue.double(-9_223_372_036_854_775_808).intValue == .min)
        #expect(JSONValue.double(.nan).intValue == nil)
        #expect(JSONValue.int(7).doubleValue == 7.0)
        #expect(JSONValue.int(7) != JSONValue.double(7.0))
    }

    @Test func literals() {
        let value: JSONValue = [nil, true, 1, 1.5, "s", [2], ["k": "v"]]
        #expect(
            value
                == .array([
                    .null, .bool(true), .int(1), .double(1.5), .string("s"), .array([.int(2)]),
                    .object(JSONObject([("k", .string("v"))])),
                ]))
    }

    @Test func objectBasics() {
        var object = JSONObject()
        #expect(object.isEmpty && object.count == 0)
        object["a"] = 1
        object["b"] = nil  // removing what is absent changes nothing
        object["c"] = .null  // null is a value
        #expect(object.keys == ["a", "c"])
        #expect(object.contains("c") && !object.contains("b"))
        #expect(object.map(\.key) == ["a", "c"])
        #expect(object.values == [1, nil])
        let fromPairs = JSONObject([("x", 1), ("y", 2), ("x", 3)])
        #expect(fromPairs.keys == ["x", "y"] && fromPairs["x"] == 3)
    }

    @Test func objectEqualityIgnoresOrder() {
        let one: JSONObject = ["a": 1, "b": [1, 2]]
        let other: JSONObject = ["b": [1, 2], "a": 1]
        #expect(one == other)
        #expect(one.hashValue == other.hashValue)
        #expect(Set<JSONValue>([.object(one), .object(other)]).count == 1)
        #expect(one != ["a": 1])
        #expect(one != ["a": 1, "c": [1, 2]])
        #expect(JSONValue.array([1, 2]) != JSONValue.array([2, 1]))
    }

    @Test func largeObjectsStayConsistent() {
        // Past the size where lookups switch to a dictionary: edits must keep it in step.
        var object = JSONObject()
        for index in 0..<100 { object["k\(index)"] = .int(Int64(index)) }
        object["k50"] = nil
        object["k3"] = nil
        object["k99"] = "last"
        object["new"] = true
        #expect(object.count == 99)
        #expect(object["k50"] == nil && object["k51"] == 51 && object["k99"] == "last" && object["new"] == true)
        #expect(object.keys.prefix(4) == ["k0", "k1", "k2", "k4"])
        #expect(object.keys.last == "new")
        for index in 0..<95 { object["k\(index)"] = nil }
        #expect(object.keys == ["k95", "k96", "k97", "k98", "k99", "new"])
        #expect(object["k97"] == 97)
    }
}
