// Every kind of bad input a queue item can point at, one case each, for failure tests.

public enum BrokenInput: String, CaseIterable, Sendable {
    case missing, empty, garbage, directory, unsupported, noMediaStreams, truncated

    public func make() throws -> String {
        switch self {
        case .missing: return Fixtures.missing()
        case .empty: return try Fixtures.empty()
        case .garbage: return try Fixtures.garbage()
        case .directory: return try Fixtures.directoryPath()
        case .unsupported: return try Fixtures.unsupported()
        case .noMediaStreams: return try Fixtures.noMediaStreams()
        case .truncated:
            let whole = try Fixtures.video(seconds: 2, hue: .red, withAudio: .aacMP4)
            return try Fixtures.truncated(of: whole, keepBytes: 20_000)
        }
    }
}
