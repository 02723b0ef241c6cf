// The public entry points of the JSON layer. Everything above (RPCLine, RPCEncode, the server and the
// client) goes through these; the byte work lives in JSONParser and JSONWriter.

/// Parsing and writing JSON text as UTF-8 bytes.
public enum JSON: Sendable {
    /// Containers nested deeper than this are rejected (the parser is iterative, so this protects
    /// memory and whatever recursive code later walks the value, not the parser's own stack).
    public static let maxDepth = 512

    /// Parses exactly one JSON value, with optional whitespace around it. Strict RFC 8259: no trailing
    /// commas, comments, NaN/Infinity, single quotes, leading zeros or byte order mark; strings must be
    /// valid UTF-8 with control characters escaped, and `\u` surrogates must pair up.
    ///
    /// Integers that fit `Int64` become `.int` (`-0` is `.int(0)`); other numbers become `.double`
    /// (`-0.0` stays negative zero). A number too large for a `Double` is an error rather than infinity,
    /// because infinity cannot be written back as JSON. Duplicate object keys: the last value wins.
    public static func parse<Bytes: Collection>(_ bytes: Bytes) throws(JSONParseError) -> JSONValue
    where Bytes.Element == UInt8 {
        let result =
            bytes.withContiguousStorageIfAvailable { buffer in
                JSONParser.parse(buffer)
            } ?? Array(bytes).withUnsafeBufferPointer { JSONParser.parse($0) }
        return try result.get()
    }

    public static func parse(_ string: String) throws(JSONParseError) -> JSONValue {
        var string = string
        return try string.withUTF8 { JSONParser.parse($0) }.get()
    }

    /// Compact JSON text without a trailing newline. Object members are written in stored order;
    /// `"`, `\` and control characters are escaped (control characters as `\u00xx`), everything else is
    /// written as UTF-8; doubles use Swift's shortest round-trip form (`0.1`, `1e+20`, `-0.0`) and
    /// non-finite doubles, which JSON cannot express, are written as `null`.
    public static func serialize(_ value: JSONValue) -> [UInt8] {
        var writer = JSONWriter()
        writer.write(value)
        return writer.bytes
    }

    public static func string(_ value: JSONValue) -> String {
        String(decoding: serialize(value), as: UTF8.self)
    }
}
