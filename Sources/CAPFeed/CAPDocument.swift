// CAP 1.2 (OASIS Common Alerting Protocol) as a source of alerts: the <alert> elements of a document — one
// alert, or an Atom feed whose entries hold them — read into what the daemon's alert.raise takes. Pure.
//
// The XML reading is written here rather than taken from libxml2 or FoundationXML: it needs the text of a
// dozen elements of one schema (namespace prefixes dropped, entities and CDATA decoded, no DTDs), and the
// daemon avoids FoundationXML, which brings libxml2 and ICU (~45 MB) into its static build. Anything it
// cannot read is refused whole, and the feed's alerts stay as they were.

/// One CAP alert, the fields queued uses.
public struct CAPAlert: Sendable, Equatable {
    public var identifier: String
    public var sender: String
    public var sent: String
    /// Actual, Exercise, System, Test or Draft.
    public var status: String
    /// Alert, Update, Cancel, Ack or Error.
    public var msgType: String
    /// "sender,identifier,sent" of earlier alerts, space-separated (an Update or a Cancel names them).
    public var references: [String]
    /// The first <info>'s fields.
    public var event: String?
    public var headline: String?
    public var description: String?
    public var instruction: String?
    public var severity: String?
    public var expires: String?

    /// The alert's text on screen: its headline (else its event), then its instruction.
    public var screenText: String {
        let lines = [headline ?? event ?? "Alert", instruction].compactMap { $0?.trimmed }.filter { !$0.isEmpty }
        return String(lines.joined(separator: "\n").prefix(2000))
    }

    /// Priority by severity: Extreme 100, Severe 75, Moderate 50, Minor 25, else 10.
    public var priority: Int {
        switch severity {
        case "Extreme": 100
        case "Severe": 75
        case "Moderate": 50
        case "Minor": 25
        default: 10
        }
    }

    /// The identifiers an Update or a Cancel refers to.
    public var referencedIdentifiers: [String] {
        references.compactMap { reference in
            let parts = reference.split(separator: ",", omittingEmptySubsequences: false)
            return parts.count >= 2 ? String(parts[1]) : nil
        }
    }
}

public enum CAPDocument {
    /// Every <alert> in `bytes` (a single alert, or an Atom feed with alerts in its entries' content). Throws
    /// when the document is not XML this reader takes; an alert that lacks a required field is left out (and
    /// said in `skipped`), so one bad entry never keeps the feed's Cancels from being read.
    public static func read(_ bytes: [UInt8]) throws(CAPError) -> (alerts: [CAPAlert], skipped: [String]) {
        let root = try XMLReader.parse(bytes)
        var found: [CAPAlert] = []
        var skipped: [String] = []
        func visit(_ element: XMLElement) {
            if element.name == "alert" {
                do { found.append(try alert(element)) } catch { skipped.append(error.description) }
                return
            }
            for child in element.children { visit(child) }
        }
        visit(root)
        return (found, skipped)
    }

    /// The alerts `read` finds.
    public static func alerts(_ bytes: [UInt8]) throws(CAPError) -> [CAPAlert] { try read(bytes).alerts }

    static func alert(_ element: XMLElement) throws(CAPError) -> CAPAlert {
        func required(_ name: String) throws(CAPError) -> String {
            guard let value = element.child(name)?.text.trimmed, !value.isEmpty else { throw CAPError("a CAP alert without <\(name)>") }
            return value
        }
        let info = element.child("info")
        func field(_ name: String) -> String? { info?.child(name)?.text.trimmed }
        return CAPAlert(
            identifier: try required("identifier"), sender: try required("sender"), sent: try required("sent"),
            status: try required("status"), msgType: try required("msgType"),
            references: (element.child("references")?.text ?? "").split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).map(String.init),
            event: field("event"), headline: field("headline"), description: field("description"),
            instruction: field("instruction"), severity: field("severity"), expires: field("expires"))
    }
}

public struct CAPError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

// MARK: A small XML reader

/// An element: its local name (prefix dropped), its children, and its text (character data and CDATA).
struct XMLElement {
    var name: String
    var children: [XMLElement] = []
    var text = ""

    func child(_ name: String) -> XMLElement? { children.first { $0.name == name } }
}

enum XMLReader {
    /// The most bytes and the deepest nesting read.
    static let maximumBytes = 4 << 20
    static let maximumDepth = 64

    static func parse(_ bytes: [UInt8]) throws(CAPError) -> XMLElement {
        guard bytes.count <= maximumBytes else { throw CAPError("the document is over 4 MiB") }
        var stack: [XMLElement] = [XMLElement(name: "#document")]
        var index = 0
        func starts(_ text: String, at position: Int) -> Bool {
            let pattern = Array(text.utf8)
            return position + pattern.count <= bytes.count && Array(bytes[position..<position + pattern.count]) == pattern
        }
        func find(_ text: String, from position: Int) -> Int? {
            let pattern = Array(text.utf8)
            var at = position
            while at + pattern.count <= bytes.count {
                if bytes[at] == pattern[0] && Array(bytes[at..<at + pattern.count]) == pattern { return at }
                at += 1
            }
            return nil
        }
        while index < bytes.count {
            if bytes[index] != UInt8(ascii: "<") {
                let end = bytes[index...].firstIndex(of: UInt8(ascii: "<")) ?? bytes.count
                stack[stack.count - 1].text += try decode(String(decoding: bytes[index..<end], as: UTF8.self))
                index = end
                continue
            }
            if starts("<!--", at: index) {
                guard let end = find("-->", from: index + 4) else { throw CAPError("a comment is not closed") }
                index = end + 3
            } else if starts("<![CDATA[", at: index) {
                guard let end = find("]]>", from: index + 9) else { throw CAPError("a CDATA section is not closed") }
                stack[stack.count - 1].text += String(decoding: bytes[(index + 9)..<end], as: UTF8.self)
                index = end + 3
            } else if starts("<?", at: index) {
                guard let end = find("?>", from: index + 2) else { throw CAPError("a processing instruction is not closed") }
                index = end + 2
            } else if starts("<!", at: index) {
                throw CAPError("a document type declaration is not read (no DTDs, no entities of its own)")
            } else {
                guard let end = find(">", from: index + 1) else { throw CAPError("a tag is not closed") }
                var tag = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
                index = end + 1
                if tag.hasPrefix("/") {
                    let name = localName(String(tag.dropFirst()).trimmed)
                    guard stack.count > 1, stack[stack.count - 1].name == name else { throw CAPError("</\(name)> closes nothing open") }
                    let done = stack.removeLast()
                    stack[stack.count - 1].children.append(done)
                    continue
                }
                let empty = tag.hasSuffix("/")
                if empty { tag.removeLast() }
                let name = localName(String(tag.prefix { $0 != " " && $0 != "\t" && $0 != "\n" && $0 != "\r" }))
                guard !name.isEmpty else { throw CAPError("a tag without a name") }
                if empty {
                    stack[stack.count - 1].children.append(XMLElement(name: name))
                } else {
                    guard stack.count <= maximumDepth else { throw CAPError("elements nested deeper than \(maximumDepth)") }
                    stack.append(XMLElement(name: name))
                }
            }
        }
        guard stack.count == 1, let root = stack[0].children.first else { throw CAPError("the document is not one closed element") }
        return root
    }

    static func localName(_ name: String) -> String {
        name.lastIndex(of: ":").map { String(name[name.index(after: $0)...]) } ?? name
    }

    /// The five predefined entities and character references; any other is refused.
    static func decode(_ text: String) throws(CAPError) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            guard let semicolon = rest[amp...].firstIndex(of: ";") else { throw CAPError("an & without its ;") }
            let name = rest[rest.index(after: amp)..<semicolon]
            switch name {
            case "lt": result += "<"
            case "gt": result += ">"
            case "amp": result += "&"
            case "quot": result += "\""
            case "apos": result += "'"
            default:
                let number: UInt32? =
                    name.hasPrefix("#x") ? UInt32(name.dropFirst(2), radix: 16) : name.hasPrefix("#") ? UInt32(name.dropFirst()) : nil
                guard let number, let scalar = Unicode.Scalar(number) else { throw CAPError("the entity &\(name); is not read") }
                result.unicodeScalars.append(scalar)
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return result + rest
    }
}

extension String {
    var trimmed: String {
        var text = Substring(self)
        while let first = text.first, first.isWhitespace { text.removeFirst() }
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return String(text)
    }
}
