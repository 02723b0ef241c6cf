// The layout every source file keeps, checked over the whole tree: a file's header comment (its place in
// the data flow) comes first and is separated from the imports by a blank line. swift-format's
// OrderedImports treats a comment touching an import as that import's own and sorts it along with it —
// that is how headers ended up between imports — but leaves a separated header where it is.

import Foundation
import Testing

@Suite struct SourceLayoutTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func swiftFiles() -> [String] {
        var files: [String] = []
        for folder in ["Sources", "Tests"] {
            let base = root.appendingPathComponent(folder).path
            guard let walker = FileManager.default.enumerator(atPath: base) else { continue }
            for case let path as String in walker where path.hasSuffix(".swift") { files.append(base + "/" + path) }
        }
        return files.sorted()
    }

    @Test func headersStandApartFromTheImports() throws {
        let files = Self.swiftFiles()
        #expect(files.count > 100, "the tree was found: \(files.count) files under \(Self.root.path)")
        for file in files {
            let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            let header = lines.prefix { $0.hasPrefix("//") }.count
            if header > 0, header < lines.count {
                #expect(
                    !lines[header].hasPrefix("import ") && !lines[header].hasPrefix("@testable import"),
                    "\(file): the header comment touches the first import (leave a blank line)")
            }
            // No comment among the imports (a header sorted into them).
            let importLines = lines.indices.filter { lines[$0].hasPrefix("import ") || lines[$0].hasPrefix("@testable import ") }
            if let first = importLines.first, let last = importLines.last, last - first < 40 {
                let between = lines[first...last].filter { $0.hasPrefix("//") }
                #expect(between.isEmpty, "\(file): a comment between the imports: \(between.first ?? "")")
            }
        }
    }
}
