// The table `queuectl ls` prints: one row per item with the current one marked, aligned columns, the
// file name when an item has no title. Pure: it takes decoded items and returns text, so it is tested
// without a daemon.

import QueueRPC

public enum QueueTable {
    /// Marks the current item's row (the item Status.currentId names).
    public static let currentMarker = "▶"

    /// The header and one line per item, without a trailing newline; "queue is empty" for no items.
    /// Widths count Characters, which is right for the ASCII columns and close enough for titles (only the
    /// last column, so a wide title cannot misalign the others).
    public static func render(_ items: [QueueItemView], currentId: Int64?) -> String {
        guard !items.isEmpty else { return "queue is empty" }
        // The CACHE column only when some item is an http(s) one.
        let showsCache = items.contains { $0.cache != nil }
        // The SCHEDULE column only when some item has one.
        let showsSchedule = items.contains { $0.schedule != nil }
        let header =
            ["ID", "STATE", "PLAYS", "LENGTH"] + (showsCache ? ["CACHE"] : []) + (showsSchedule ? ["SCHEDULE"] : [])
            + ["TITLE"]
        let rows = items.map { item -> [String] in
            [
                String(item.id), item.state, "\(item.plays)/\(DurationFormat.loops(item.loops))",
                item.duration.map(DurationFormat.clock) ?? "-",
            ] + (showsCache ? [cacheCell(item.cache)] : []) + (showsSchedule ? [scheduleCell(item)] : [])
                + [title(of: item)]
        }
        var widths = header.map(\.count)
        for row in rows {
            for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.count) }
        }
        // ID, PLAYS and LENGTH are numbers: right-aligned so their digits line up.
        let rightAligned: Set<Int> = [0, 2, 3]
        func line(_ cells: [String], marker: String) -> String {
            var parts: [String] = []
            for (column, cell) in cells.enumerated() {
                if column == cells.count - 1 {
                    parts.append(cell)
                } else {
                    parts.append(pad(cell, to: widths[column], right: rightAligned.contains(column)))
                }
            }
            return marker + " " + parts.joined(separator: "  ")
        }
        var lines = [line(header, marker: " ")]
        for (item, row) in zip(items, rows) {
            lines.append(line(row, marker: item.id == currentId ? currentMarker : " "))
        }
        return lines.joined(separator: "\n")
    }

    /// ✓ complete, a percentage while partial (? without a declared length), "stale" while a newer
    /// version downloads, "error", "-" for nothing cached yet or a local file.
    public static func cacheCell(_ cache: RPCCacheStatus?) -> String {
        guard let cache else { return "-" }
        switch cache.state {
        case "complete": return "✓"
        case "stale": return "✓ stale"
        case "error": return "error"
        case "partial":
            guard let length = cache.length, length > 0 else { return "?" }
            return "\(min(99, Int(Double(cache.bytes) * 100 / Double(length))))%"
        default: return "-"
        }
    }

    /// "-" without a schedule, else whether the item may play now and its window: "open mon,fri 09:00-17:00".
    public static func scheduleCell(_ item: QueueItemView) -> String {
        guard let schedule = item.schedule else { return "-" }
        var parts = [item.inWindow ? "open" : "closed"]
        if let days = schedule.days { parts.append(days.joined(separator: ",")) }
        if schedule.from != nil || schedule.until != nil {
            parts.append("\(schedule.from ?? "00:00")-\(schedule.until ?? "24:00")")
        }
        if schedule.start != nil || schedule.end != nil {
            parts.append("\(schedule.start ?? "")..\(schedule.end ?? "")")
        }
        return parts.joined(separator: " ")
    }

    /// The title column; a failed item carries its error so `ls` alone explains a skipped file.
    static func title(of item: QueueItemView) -> String {
        guard let error = item.error, !error.isEmpty else { return item.displayName }
        return "\(item.displayName)  (\(error))"
    }

    static func pad(_ text: String, to width: Int, right: Bool) -> String {
        let fill = String(repeating: " ", count: max(0, width - text.count))
        return right ? fill + text : text + fill
    }
}
