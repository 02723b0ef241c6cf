// Font files by family name, through fontconfig (the system's font configuration: what `fc-match` says).
// A family fontconfig does not have falls back to DejaVu Sans (Debian's fonts-dejavu-core), with a warning
// from the caller. Owns its FcConfig; presenter thread only.

import CFontconfig

final class FontFinder {
    /// A font file and the family it holds.
    struct Match: Equatable {
        var path: String
        var family: String
    }

    static let fallbackFamily = "DejaVu Sans"
    /// Used when fontconfig finds nothing at all (no configuration, an empty font directory).
    static let fallbackPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    /// Owned; destroyed in deinit. Loaded on first use: scanning the font cache costs a few milliseconds.
    private var config: OpaquePointer?
    private var loaded = false

    deinit {
        if let config { FcConfigDestroy(config) }
    }

    /// The file for `family` (a fontconfig pattern: "DejaVu Sans", "DejaVu Serif:bold") and whether it is
    /// that family; a family it lacks gives DejaVu Sans and `exact: false`.
    func find(_ family: String) -> (match: Match, exact: Bool) {
        if let match = lookUp(family) {
            let wanted = family.split(separator: ":").first.map(String.init) ?? family
            if match.family.lowercased() == wanted.trimmingSpaces().lowercased() {
                return (match, true)
            }
        }
        let fallback = lookUp(Self.fallbackFamily) ?? Match(path: Self.fallbackPath, family: Self.fallbackFamily)
        return (fallback, false)
    }

    private func lookUp(_ family: String) -> Match? {
        if !loaded {
            loaded = true
            config = FcInitLoadConfigAndFonts()
        }
        guard let config else { return nil }
        let pattern = family.withCString { FcNameParse(UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self)) }
        guard let pattern else { return nil }
        defer { FcPatternDestroy(pattern) }
        guard FcConfigSubstitute(config, pattern, FcMatchPattern) != 0 else { return nil }
        FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        guard let font = FcFontMatch(config, pattern, &result) else { return nil }
        defer { FcPatternDestroy(font) }
        guard let path = string(font, qd_fc_file()) else { return nil }
        return Match(path: path, family: string(font, qd_fc_family()) ?? "")
    }

    private func string(_ pattern: OpaquePointer, _ property: UnsafePointer<CChar>) -> String? {
        var value: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(pattern, property, 0, &value) == FcResultMatch, let value else { return nil }
        return String(cString: UnsafeRawPointer(value).assumingMemoryBound(to: CChar.self))
    }
}
