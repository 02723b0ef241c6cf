// `queuectl current --format`: one line about the current item from a Status, with {placeholder}s that
// scripts and status bars fill in (mpc's `current --format`, playerctl's `metadata --format`). Pure.

public enum CurrentLine {
    public static let defaultFormat = "{id} {title} {position}/{duration}"

    /// Each placeholder and what it stands for (help text and the man page list them).
    public static let placeholders: [(name: String, meaning: String)] = [
        ("id", "the item's id"),
        ("title", "its title, else its file name"),
        ("uri", "its uri (absolute path)"),
        ("file", "its file name"),
        ("state", "playing, paused, stopped or idle"),
        ("position", "position as m:ss"),
        ("duration", "length as m:ss, - when unknown"),
        ("positionSeconds", "position in seconds (12.48)"),
        ("durationSeconds", "length in seconds, empty when unknown"),
        ("play", "play number within this pass (1 = first)"),
        ("loops", "plays per pass, ∞ for forever"),
        ("volume", "volume 0-100"),
    ]

    /// Why `format` cannot be used (an unknown or unclosed placeholder), or nil. `{{` and `}}` are braces.
    public static func problem(in format: String) -> String? {
        let known = Set(placeholders.map(\.name))
        var rest = Substring(format)
        while let open = rest.firstIndex(where: { $0 == "{" || $0 == "}" }) {
            let after = rest[rest.index(after: open)...]
            if after.first == rest[open] {
                rest = after.dropFirst()
                continue
            }
            guard rest[open] == "{", let close = after.firstIndex(of: "}") else {
                return "unmatched brace in --format (write {{ or }} for a literal one)"
            }
            let name = String(after[..<close])
            if !known.contains(name) {
                return "unknown placeholder {\(name)}; known: "
                    + placeholders.map { "{\($0.name)}" }.joined(separator: " ")
            }
            rest = after[after.index(after: close)...]
        }
        return nil
    }

    /// The line for `status`, or nil when nothing is current. `format` must have passed `problem(in:)`.
    public static func render(_ format: String, status: PlayerStatusView) -> String? {
        guard let id = status.currentId else { return nil }
        let file = status.uri.map(QueueItemView.fileName(of:)) ?? ""
        let values: [String: String] = [
            "id": String(id),
            "title": status.title.flatMap { $0.isEmpty ? nil : $0 } ?? file,
            "uri": status.uri ?? "",
            "file": file,
            "state": status.state,
            "position": DurationFormat.clock(status.position),
            "duration": status.duration.map(DurationFormat.clock) ?? "-",
            "positionSeconds": DurationFormat.decimal(status.position),
            "durationSeconds": status.duration.map { DurationFormat.decimal($0) } ?? "",
            "play": String(status.play),
            "loops": status.loops.map(DurationFormat.loops) ?? "",
            "volume": String(status.volume),
        ]
        var line = ""
        var rest = Substring(format)
        while let open = rest.firstIndex(where: { $0 == "{" || $0 == "}" }) {
            line += rest[..<open]
            let after = rest[rest.index(after: open)...]
            if after.first == rest[open] {
                line.append(rest[open])
                rest = after.dropFirst()
                continue
            }
            guard let close = after.firstIndex(of: "}") else { break }
            line += values[String(after[..<close])] ?? ""
            rest = after[after.index(after: close)...]
        }
        return line + rest
    }
}
