// queued.conf and queuectl.conf, mpv-style: one `option=value` (or a bare `flag`) per line, named as the long command-line
// options without their dashes; `#` starts a comment; a value may be double-quoted. Each line becomes the
// arguments it stands for, placed before the real command line, so the one argument parser checks both
// (same validation, same messages) and the command line wins (a later value replaces an earlier one).
// Hand-written: swift-argument-parser reads only argv, and swift-configuration's providers (JSON, YAML,
// environment) have no such line format. Pure: text in, arguments or a `file:line` error out.

import FoundationEssentials
import Glibc
import SystemSupport

public struct ConfigFile: Equatable, Sendable {
    /// One line that set something: its number (from 1) and the arguments it stands for.
    public struct Setting: Equatable, Sendable {
        public var line: Int
        public var arguments: [String]
        public init(line: Int, arguments: [String]) {
            self.line = line
            self.arguments = arguments
        }
    }

    public var path: String
    public var settings: [Setting]

    /// Every setting's arguments, in file order.
    public var arguments: [String] { settings.flatMap(\.arguments) }

    public struct ParseError: Error, CustomStringConvertible, Equatable {
        public var path: String
        public var line: Int
        public var reason: String
        public var description: String { "\(path):\(line): \(reason)" }
        public init(path: String, line: Int, reason: String) {
            self.path = path
            self.line = line
            self.reason = reason
        }
    }

    /// Options that choose the file itself, meaningless inside one.
    public static let commandLineOnly: Set<String> = ["config", "no-config", "help", "version"]

    public init(path: String, settings: [Setting]) {
        self.path = path
        self.settings = settings
    }

    public init(parsing text: String, path: String) throws(ParseError) {
        var settings: [Setting] = []
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let number = index + 1
            var line = Substring(raw)
            if let hash = Self.commentStart(in: line) { line = line[..<hash] }
            let trimmed = line.trimmingSpaces()
            if trimmed.isEmpty { continue }
            let name: String
            var value: String?
            if let space = trimmed.firstIndex(where: { $0 == " " || $0 == "\t" }), Self.ruleNames.contains(String(trimmed[..<space])),
                !trimmed[space...].trimmingSpaces().hasPrefix("=")
            {
                // `trigger key=F1 -> next`: a rule's line, its name then the rest of the line as its value.
                name = String(trimmed[..<space])
                value = trimmed[space...].trimmingSpaces()
                if name.isEmpty || value?.isEmpty == true { value = nil }
            } else if let equals = trimmed.firstIndex(of: "=") {
                name = trimmed[..<equals].trimmingSpaces()
                value = Self.unquoted(trimmed[trimmed.index(after: equals)...].trimmingSpaces())
            } else {
                name = trimmed
            }
            guard !name.isEmpty, !name.hasPrefix("-"), name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" })
            else {
                throw ParseError(
                    path: path, line: number,
                    reason: "expected option=value or a flag, named without dashes: \(trimmed)")
            }
            guard !Self.commandLineOnly.contains(name) else {
                throw ParseError(path: path, line: number, reason: "\(name) is for the command line only")
            }
            settings.append(Setting(line: number, arguments: ["--" + name] + (value.map { [$0] } ?? [])))
        }
        self.init(path: path, settings: settings)
    }

    /// Options whose lines are rules, written `NAME RULE` (a space, as the rule itself has `=` in it).
    public static let ruleNames: Set<String> = ["trigger", "output"]

    /// A `#` outside double quotes.
    private static func commentStart(in line: Substring) -> Substring.Index? {
        var quoted = false
        for index in line.indices {
            if line[index] == "\"" { quoted.toggle() }
            if line[index] == "#" && !quoted { return index }
        }
        return nil
    }

    private static func unquoted(_ value: String) -> String {
        guard value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") else { return value }
        return String(value.dropFirst().dropLast())
    }

    // MARK: Which file

    /// The file at `path`, parsed; nil when it cannot be read (missing, unreadable).
    public static func read(path: String) throws(ParseError) -> ConfigFile? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try ConfigFile(parsing: String(decoding: data, as: UTF8.self), path: path)
    }

    /// The first of `searchPaths` that exists, parsed; nil when none does.
    public static func find(name: String, environment: [String: String]) throws(ParseError) -> ConfigFile? {
        for path in searchPaths(name: name, environment: environment) where FileManager.default.fileExists(atPath: path)
        {
            return try read(path: path)
        }
        return nil
    }

    /// The arguments a program runs with: the file's options (`--config PATH`, else the first `name` found,
    /// unless `--no-config`) in front of `commandLine`, so that the command line wins.
    public static func arguments(
        _ commandLine: [String], name: String, environment: [String: String]
    ) throws(ParseError) -> [String] {
        let file: ConfigFile?
        switch choice(in: commandLine) {
        case .none: file = nil
        case .explicit(let path): file = try read(path: path)
        case .search: file = try find(name: name, environment: environment)
        }
        return (file?.arguments ?? []) + commandLine
    }

    /// Refuses `path` unless only its owner may read it and that owner is the user running us (a password, a
    /// token: another user's file could be swapped or read by them); the error says why.
    public static func checkPrivate(path: String, user: uid_t = geteuid()) throws(ParseError) {
        var info = stat()
        guard stat(path, &info) == 0 else { throw ParseError(path: path, line: 0, reason: "cannot read it") }
        guard info.st_mode & 0o077 == 0 else {
            throw ParseError(path: path, line: 0, reason: "refused: others may read it (chmod 600 \(path))")
        }
        guard info.st_uid == user else {
            throw ParseError(
                path: path, line: 0,
                reason: "refused: it belongs to user \(info.st_uid), not to the user running this (\(user)): chown it")
        }
    }

    /// What the command line says about the file: `--config PATH`, `--config=PATH` or `--no-config`.
    public enum Choice: Equatable, Sendable {
        case search
        case explicit(String)
        case none
    }

    public static func choice(in arguments: [String]) -> Choice {
        var choice = Choice.search
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" { break }
            if argument == "--no-config" {
                choice = .none
            } else if argument == "--config", index + 1 < arguments.count {
                choice = .explicit(arguments[index + 1])
                index += 1
            } else if argument.hasPrefix("--config=") {
                choice = .explicit(String(argument.dropFirst("--config=".count)))
            }
            index += 1
        }
        return choice
    }

    /// Where a file is looked for, first found wins: $XDG_CONFIG_HOME/queued/NAME (else
    /// ~/.config/queued/NAME), then /etc/queued/NAME.
    public static func searchPaths(name: String, environment: [String: String]) -> [String] {
        var paths: [String] = []
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            paths.append(config + "/queued/" + name)
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            paths.append(home + "/.config/queued/" + name)
        }
        paths.append("/etc/queued/" + name)
        return paths
    }

    /// The last value a setting gives `name` (e.g. queuectl.conf's `socket`), nil when none does.
    public func value(of name: String) -> String? {
        settings.last { $0.arguments.first == "--" + name && $0.arguments.count == 2 }?.arguments.last
    }
}
