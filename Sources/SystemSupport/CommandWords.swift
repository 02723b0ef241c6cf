// An operator's command line (`--display-off-command "cec-ctl --to 0 --standby"`) split into the words of
// the program and its arguments, to be run without a shell: quotes ('…' literal, "…" with \" and \\) and a
// backslash outside quotes group and escape as a POSIX shell would, and nothing is expanded ($, *, ~ and ;
// stay as written). Hand-written: a dozen lines of quoting rules, not worth a dependency.

public enum CommandWords {
    public struct Error: Swift.Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// The words of `text`; throws for an unclosed quote, a trailing backslash, or no word at all.
    public static func split(_ text: String) throws(Error) -> [String] {
        var words: [String] = []
        var word: [Unicode.Scalar] = []
        var inWord = false
        var quote: Unicode.Scalar?
        var escaped = false
        for scalar in text.unicodeScalars {
            if escaped {
                // In double quotes a backslash escapes only " and \ (and keeps itself before anything else).
                if quote == "\"" && scalar != "\"" && scalar != "\\" { word.append("\\") }
                word.append(scalar)
                escaped = false
                continue
            }
            switch (quote, scalar) {
            case ("'", "'"), ("\"", "\""):
                quote = nil
            case ("'", _):
                word.append(scalar)
            case ("\"", "\\"), (nil, "\\"):
                escaped = true
                inWord = true
            case ("\"", _):
                word.append(scalar)
            case (nil, "'"), (nil, "\""):
                quote = scalar
                inWord = true
            case (nil, " "), (nil, "\t"), (nil, "\n"):
                if inWord { words.append(String(String.UnicodeScalarView(word))) }
                word = []
                inWord = false
            default:
                word.append(scalar)
                inWord = true
            }
        }
        if escaped { throw Error(description: "the command ends with a lone backslash") }
        if let quote { throw Error(description: "the command has an unclosed \(quote == "'" ? "single" : "double") quote") }
        if inWord { words.append(String(String.UnicodeScalarView(word))) }
        guard !words.isEmpty else { throw Error(description: "the command is empty") }
        return words
    }
}
