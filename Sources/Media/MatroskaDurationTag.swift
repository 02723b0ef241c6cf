// Matroska's per-track statistics tag DURATION ("HH:MM:SS.nnnnnnnnn", as FFmpeg and mkvmerge write it):
// the one place a Matroska or WebM file says where each of its tracks ends. Pure: no FFmpeg.

public enum MatroskaDurationTag {
    /// Seconds from a DURATION tag's text, or nil when it is not one ("00:00:02.300000000" → 2.3).
    public static func seconds(_ text: String) -> Double? {
        let fields = text.split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count == 3, let hours = Int(fields[0]), let minutes = Int(fields[1]),
            let seconds = Double(fields[2]), (0..<1_000_000).contains(hours), (0..<60).contains(minutes),
            seconds >= 0, seconds < 60,
            fields[2].allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") })
        else { return nil }
        let total = Double(hours * 3600 + minutes * 60) + seconds
        return total > 0 ? total : nil
    }
}
