// An alert's times on the wire: RFC 3339 as CAP 1.2 writes them ("2026-11-29T18:00:00-05:00", "…Z", with or
// without fractions), read and written with Foundation's ISO 8601 styles; kept as seconds since 1970.

import FoundationEssentials

public enum AlertTime {
    /// Seconds since 1970 of an RFC 3339 date-time with a zone; nil when `text` is not one.
    public static func seconds(_ text: String) -> Double? {
        if let date = try? Date.ISO8601FormatStyle().parse(text) { return date.timeIntervalSince1970 }
        if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) {
            return date.timeIntervalSince1970
        }
        return nil
    }

    /// `seconds` as RFC 3339 in UTC ("2026-11-29T18:00:00Z").
    public static func text(_ seconds: Double) -> String {
        Date(timeIntervalSince1970: seconds.rounded(.down)).formatted(Date.ISO8601FormatStyle())
    }
}
