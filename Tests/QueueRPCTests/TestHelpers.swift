// Shared helpers for the wire-type tests: parse-or-error shorthands and byte/text conversions.

import QueueRPC

/// The parse error for `text`, or nil if it parsed.
func parseError(_ text: String) -> JSONParseError? {
    parseError(Array(text.utf8))
}

func parseError(_ bytes: [UInt8]) -> JSONParseError? {
    do {
        _ = try JSON.parse(bytes)
        return nil
    } catch {
        return error
    }
}

/// Serialized text of a value, for byte-exact comparisons that read well in failures.
func text(_ value: JSONValue) -> String {
    JSON.string(value)
}

func text(_ bytes: [UInt8]) -> String {
    String(decoding: bytes, as: UTF8.self)
}

/// Parses text that the test knows is valid; fails the test (by returning .null and recording) otherwise.
func json(_ text: String) throws -> JSONValue {
    try JSON.parse(text)
}

extension RPCLine {
    static func parse(_ text: String) -> RPCLine {
        parse(Array(text.utf8))
    }
}
