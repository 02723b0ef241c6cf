// Writing: compact text, byte for byte, and literal round trips (text → value → the same text).

import QueueRPC
import Testing

@Suite struct JSONSerializeTests {
    @Test(arguments: [
        "null", "true", "false", "0", "-1", "9223372036854775807", "-9223372036854775808",
        "1.5", "-0.0", "0.1", "100.0", "1e+20", "1e-05", "5e-324", "1.7976931348623157e+308",
        #""""#, #""abc""#, #""é€😀""#, #""quote \" backslash \\ slash /""#,
        #""\u0000\u0001\u001f""#, "[]", "{}", "[[[]]]", #"[1,"two",3.5,true,false,null]"#,
        #"{"z":1,"a":2,"m":{"y":[],"b":{}}}"#,
        #"{"jsonrpc":"2.0","method":"queue.add","params":{"items":["/a.mp4",{"uri":"file:///b.mkv","loops":0}]},"id":17}"#,
    ])
    func compactTextRoundTrips(text: String) throws {
        let value = try JSON.parse(text)
        #expect(JSON.string(value) == text)
        #expect(JSON.serialize(value) == Array(text.utf8))
    }

    @Test func whitespaceIsDropped() throws {
        #expect(text(try json(" { \"a\" : [ 1 , 2 ] ,\n\"b\" : null } ")) == #"{"a":[1,2],"b":null}"#)
    }

    @Test func escapesSpellControlsAsUnicode() throws {
        #expect(text(.string("a\nb\tc\r\u{08}\u{0C}")) == #""a\u000ab\u0009c\u000d\u0008\u000c""#)
        #expect(text(.string("\u{1F}\u{7F}")) == "\"\\u001f\u{7F}\"")  // DEL needs no escape
        #expect(text(.string("\"\\")) == #""\"\\""#)
        // Escapes in the input are normalised: \/ and \u0041 are written as plain characters.
        #expect(text(try json(#""\/\u0041\ud83d\ude00\n""#)) == #""/A😀\u000a""#)
        // Non-ASCII is written as UTF-8, never escaped.
        #expect(JSON.serialize(.string("é")) == [0x22, 0xC3, 0xA9, 0x22])
    }

    @Test func numbers() {
        #expect(text(.int(0)) == "0")
        #expect(text(.int(10)) == "10")
        #expect(text(.int(-1_000_000)) == "-1000000")
        #expect(text(.int(.min)) == "-9223372036854775808")
        #expect(text(.double(2)) == "2.0")
        #expect(text(.double(-0.0)) == "-0.0")
        #expect(text(.double(1e100)) == "1e+100")
        #expect(text(.double(0.30000000000000004)) == "0.30000000000000004")
        // JSON has no infinity or NaN: written as null rather than as invalid text.
        #expect(text([.double(.infinity), .double(-.infinity), .double(.nan)]) == "[null,null,null]")
    }

    @Test func objectsKeepInsertionOrder() {
        var object: JSONObject = ["b": 1, "a": 2]
        object["c"] = 3
        object["b"] = 4
        #expect(text(.object(object)) == #"{"b":4,"a":2,"c":3}"#)
        object["b"] = nil
        #expect(text(.object(object)) == #"{"a":2,"c":3}"#)
    }

    @Test func descriptionIsTheJSONText() {
        let value: JSONValue = ["k": [1, nil, "s"]]
        #expect(value.description == #"{"k":[1,null,"s"]}"#)
        #expect("\(RPCID(5)) \(RPCID("x")) \(RPCID.null)" == #"5 "x" null"#)
    }

    @Test func everyStringSurvivesARoundTrip() throws {
        var samples = (0..<0x80).map { String(Unicode.Scalar(UInt8($0))) }
        samples += ["é", "\u{7FF}", "\u{800}", "\u{FFFF}", "\u{10000}", "\u{10FFFF}", "a\u{0}b", "\u{2028}"]
        for sample in samples {
            #expect(try JSON.parse(JSON.serialize(.string(sample))) == .string(sample))
        }
    }
}
