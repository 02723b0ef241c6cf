// Executables of this package (queued, queuectl), built next to the test bundle by `swift build`.

import Foundation

public enum BuiltProduct {
    public static func path(_ name: String) -> String {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let beside = bundle.appendingPathComponent(name).path
        if FileManager.default.fileExists(atPath: beside) { return beside }
        // Fall back to the package's debug folder, found from this file's place in the tree.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/\(name)").path
    }

    /// The package's root folder (where Package.swift and contrib/ are), from this file's place in the tree.
    public static var packageRoot: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
    }
}
