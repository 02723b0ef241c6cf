// Parsing: every JSON construct, the strictness rules, and the error offsets.

import QueueRPC
import Testing

@Suite struct JSONParseTests {
    @Test func literalsAndWhitespace() throws {
        #expect(try json("null") == .null)
        #expect(try json("true") == .bool(true))
        #expect(try json(" \t\r\n false \n") == .bool(false))
        #expect(try json("[ 1 ,\n2\t, {\r\n\"a\" : [ ] } ]") == [1, 2, ["a": []]])
    }

    @Test func strings() throws {
        #expect(try json(#""""#) == "")
        #expect(try json(#""plain ascii""#) == "plain ascii")
        #expect(try json(#""\" \\ \/ \b \f \n \r \t""#) == "\" \\ / \u{08} \u{0C} \n \r \t")
        #expect(try json(#""\u0041\u00e9\u20AC\u0000""#) == "Aé€\u{0}")
        // A surrogate pair is one scalar; raw UTF-8 of every length passes through.
        #expect(try json(#""\ud83d\ude00""#) == "😀")
        #expect(try json(#""x\uD834\uDD1Ey""#) == "x𝄞y")
        #expect(try json("\"é € 😀 𝄞\"") == "é € 😀 𝄞")
        #expect(try json("\"é\\n😀\"") == "é\n😀")
    }

    @Test func invalidStrings() {
        #expect(parseError(#""abc"#)?.reason == "unterminated string")
        #expect(parseError("\"a\nb\"") == JSONParseError(offset: 2, reason: "unescaped control character in a string"))
        #expect(parseError(#""\x""#) == JSONParseError(offset: 1, reason: "invalid escape sequence"))
        #expect(parseError(#""\u12""#) == JSONParseError(offset: 1, reason: "invalid \\u escape"))
        #expect(parseError(#""\u12G4""#) == JSONParseError(offset: 1, reason: "invalid \\u escape"))
        #expect(parseError(#"'single'"#) != nil)
    }

    @Test func loneSurrogatesAreRejected() {
        #expect(parseError(#""\ud83d""#) == JSONParseError(offset: 1, reason: "unpaired surrogate \\uD83D"))
        #expect(parseError(#""a\ud83dx""#) == JSONParseError(offset: 2, reason: "unpaired surrogate \\uD83D"))
        #expect(parseError(#""\ud83d\u0041""#)?.reason == "unpaired surrogate \\uD83D")
        #expect(parseError(#""\ud83d\ud83d""#)?.reason == "unpaired surrogate \\uD83D")
        #expect(parseError(#""\ude00""#) == JSONParseError(offset: 1, reason: "unpaired surrogate \\uDE00"))
        #expect(parseError(#""\ude00\ud83d""#)?.reason == "unpaired surrogate \\uDE00")
    }

    @Test(
        arguments: [
            [0x22, 0xC3, 0x28, 0x22],  // lead byte, then no continuation
            [0x22, 0xC0, 0xAF, 0x22],  // overlong "/"
            [0x22, 0xE0, 0x80, 0xAF, 0x22],  // overlong, three bytes
            [0x22, 0xED, 0xA0, 0x80, 0x22],  // a UTF-16 surrogate encoded as UTF-8
            [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],  // above U+10FFFF
            [0x22, 0xE2, 0x82, 0x22],  // truncated by the closing quote
            [0x22, 0xF0, 0x9F, 0x98],  // truncated by the end of input
            [0x22, 0xFF, 0x22],  // never valid
            [0x22, 0x80, 0x22],  // a lone continuation byte
        ] as [[UInt8]])
    func invalidUTF8IsRejected(bytes: [UInt8]) {
        #expect(parseError(bytes) == JSONParseError(offset: 1, reason: "invalid UTF-8"))
        // The same bytes after an escape go through the slow path, with the same verdict.
        #expect(parseError([0x22, 0x5C, 0x6E] + bytes.dropFirst())?.reason == "invalid UTF-8")
    }

    @Test func invalidUTF8OutsideStrings() {
        #expect(
            parseError([0xEF, 0xBB, 0xBF, 0x31])
                == JSONParseError(offset: 0, reason: "unexpected byte 0xEF, expected a value"))
        #expect(parseError([0x5B, 0xC3, 0xA9, 0x5D])?.offset == 1)
    }

    @Test func integers() throws {
        #expect(try json("0") == .int(0))
        #expect(try json("-0") == .int(0))
        #expect(try json("7") == .int(7))
        #expect(try json("-42") == .int(-42))
        #expect(try json("9223372036854775807") == .int(.max))
        #expect(try json("-9223372036854775808") == .int(.min))
        // One past either end no longer fits Int64: a double.
        #expect(try json("9223372036854775808") == .double(9_223_372_036_854_775_808))
        #expect(try json("-9223372036854775809") == .double(-9_223_372_036_854_775_808))
        #expect(try json("123456789012345678901234567890") == .double(1.2345678901234568e29))
    }

    @Test func doubles() throws {
        #expect(try json("1.5") == .double(1.5))
        #expect(try json("-1.5") == .double(-1.5))
        #expect(try json("0.1") == .double(0.1))
        #expect(try json("1e3") == .double(1000))
        #expect(try json("1E+3") == .double(1000))
        #expect(try json("25e-1") == .double(2.5))
        #expect(try json("0.000001") == .double(1e-6))
        #expect(try json("1.7976931348623157e308") == .double(.greatestFiniteMagnitude))
        #expect(try json("5e-324") == .double(.leastNonzeroMagnitude))
        #expect(try json("1e-400") == .double(0))
        #expect(try json("0e99999999999") == .double(0))
        #expect(try json("3.141592653589793238462643383279") == .double(.pi))
        let negativeZero = try json("-0.0").doubleValue
        #expect(negativeZero == 0 && negativeZero?.sign == .minus)
        #expect(try json("-0e5").doubleValue?.sign == .minus)
    }

    @Test func doublesReadBackExactly() throws {
        // Shortest-form text of pseudo-random doubles must read back bit for bit (fast path and fallback).
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let value = Double(bitPattern: state)
            guard value.isFinite else { continue }
            let parsed = try JSON.parse(value.description).doubleValue
            #expect(parsed?.bitPattern == value.bitPattern, "\(value)")
        }
        for value in [0.1, 0.2, 0.3, 1.0 / 3, 123.456, 9007199254740992, 4.35, 1e22, 1e23, 2.2250738585072014e-308] {
            #expect(try JSON.parse(value.description).doubleValue == value)
        }
    }

    @Test(arguments: [
        ("01", 0, "leading zeros are not allowed in numbers"),
        ("-", 1, "unexpected end of input, expected a digit"),
        ("-a", 1, "unexpected 'a', expected a digit"),
        ("1.", 2, "unexpected end of input, expected a digit after '.'"),
        ("1.e3", 2, "unexpected 'e', expected a digit after '.'"),
        (".5", 0, "unexpected '.', expected a value"),
        ("+1", 0, "unexpected '+', expected a value"),
        ("1e", 2, "unexpected end of input, expected a digit in the exponent"),
        ("1e+", 3, "unexpected end of input, expected a digit in the exponent"),
        ("0x10", 1, "unexpected 'x', expected the end of input"),
        ("1e400", 0, "number out of range"),
        ("-1e400", 0, "number out of range"),
        ("NaN", 0, "unexpected 'N', expected a value"),
        ("Infinity", 0, "unexpected 'I', expected a value"),
        ("-Infinity", 1, "unexpected 'I', expected a digit"),
    ])
    func invalidNumbers(text: String, offset: Int, reason: String) {
        #expect(parseError(text) == JSONParseError(offset: offset, reason: reason))
    }

    @Test(arguments: [
        ("", 0, "unexpected end of input, expected a value"),
        ("  ", 2, "unexpected end of input, expected a value"),
        ("[1,]", 3, "unexpected ']', expected a value"),
        ("{\"a\":1,}", 7, "unexpected '}', expected a string key"),
        ("[1 2]", 3, "unexpected '2', expected ',' or ']'"),
        ("{\"a\" 1}", 5, "unexpected '1', expected ':' after an object key"),
        ("{\"a\":}", 5, "unexpected '}', expected a value"),
        ("{1:2}", 1, "unexpected '1', expected a string key"),
        ("[", 1, "unexpected end of input, expected a value"),
        ("[1", 2, "unexpected end of input, expected ',' or ']'"),
        ("{\"a\":1", 6, "unexpected end of input, expected ',' or '}'"),
        ("]", 0, "unexpected ']', expected a value"),
        ("[1]]", 3, "unexpected ']', expected the end of input"),
        ("1 2", 2, "unexpected '2', expected the end of input"),
        ("tru", 0, "invalid literal"),
        ("nul1", 0, "invalid literal"),
        ("True", 0, "unexpected 'T', expected a value"),
        ("[1] // comment", 4, "unexpected '/', expected the end of input"),
        ("/* c */ 1", 0, "unexpected '/', expected a value"),
        ("{\"a\":1}\u{0}", 7, "unexpected byte 0x00, expected the end of input"),
    ])
    func invalidStructure(text: String, offset: Int, reason: String) {
        #expect(parseError(text) == JSONParseError(offset: offset, reason: reason))
    }

    @Test func nestingLimit() throws {
        let deepest = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(try JSON.parse(deepest).arrayValue?.count == 1)
        let tooDeep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        #expect(parseError(tooDeep) == JSONParseError(offset: 512, reason: "containers nested deeper than 512 levels"))
        let objects = String(repeating: "{\"a\":", count: 513) + "1" + String(repeating: "}", count: 513)
        #expect(parseError(objects)?.offset == 512 * 5)
        let mixed = String(repeating: "[{\"k\":", count: 256) + "null" + String(repeating: "}]", count: 256)
        #expect(try JSON.parse(mixed) != .null)
    }

    @Test func hostileNestingDoesNotCrash() {
        // Far past any recursion limit a stack could take; must fail cleanly, not overflow.
        let bytes = [UInt8](repeating: UInt8(ascii: "["), count: 1_000_000)
        #expect(parseError(bytes)?.offset == 512)
    }

    @Test func duplicateKeysLastWins() throws {
        let object = try json(#"{"a":1,"b":2,"a":3}"#).objectValue
        #expect(object?.keys == ["a", "b"])
        #expect(object?["a"] == 3)
        #expect(text(try json(#"{"a":1,"b":2,"a":3}"#)) == #"{"a":3,"b":2}"#)
    }

    @Test func largeObject() throws {
        let members = (0..<2000).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        let object = try json("{\(members),\"k7\":-7}").objectValue
        #expect(object?.count == 2000)
        #expect(object?["k1999"] == 1999)
        #expect(object?["k7"] == -7)
        #expect(object?.keys.prefix(3) == ["k0", "k1", "k2"])
    }

    @Test func anyCollectionOfBytes() throws {
        let bytes = Array(#"{"a":[1,"é"]}"#.utf8)
        let expected: JSONValue = ["a": [1, "é"]]
        #expect(try JSON.parse(bytes) == expected)
        #expect(try JSON.parse(bytes[...]) == expected)
        #expect(try JSON.parse(#"{"a":[1,"é"]}"#.utf8) == expected)
        #expect(try JSON.parse(bytes.lazy.map { $0 }) == expected)  // not contiguous: copied first
        let withPrefix = Array("xx".utf8) + bytes
        #expect(try JSON.parse(withPrefix.dropFirst(2)) == expected)
    }
}
