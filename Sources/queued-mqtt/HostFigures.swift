// The box's own figures for the fleet's view (`reported.host`): free space on the disk that holds the media
// (statvfs of `--disk`), the hottest thermal zone's temperature, and undervoltage where a Raspberry Pi's
// firmware reports it (`get_throttled`: bit 0 now, bit 16 since boot). A figure the box cannot tell is left
// out. Read on the bridge's work queue with the rest of the report.

import FoundationEssentials
import Glibc
import JSONText

enum HostFigures {
    static func read(diskPath: String) -> JSONValue {
        var object: JSONObject = [:]
        var disk = statvfs()
        if statvfs(diskPath, &disk) == 0, disk.f_blocks > 0 {
            let free = Double(disk.f_bavail) * Double(disk.f_frsize)
            object["diskFreeBytes"] = .int(Int64(free))
            object["diskFreePercent"] = .double((Double(disk.f_bavail) / Double(disk.f_blocks) * 1000).rounded() / 10)
        }
        var hottest: Double?
        for zone in 0..<16 {
            guard let text = firstLine("/sys/class/thermal/thermal_zone\(zone)/temp"), let milli = Double(text) else { continue }
            hottest = max(hottest ?? -.infinity, milli / 1000)
        }
        if let hottest { object["temperature"] = .double((hottest * 10).rounded() / 10) }
        if let text = firstLine("/sys/devices/platform/soc/soc:firmware/get_throttled"),
            let bits = Int(text.hasPrefix("0x") ? String(text.dropFirst(2)) : text, radix: 16)
        {
            object["undervoltage"] = .string(bits & 0x1 != 0 ? "now" : bits & 0x10000 != 0 ? "since boot" : "no")
        }
        return .object(object)
    }

    private static func firstLine(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 64)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
        let text = String(cString: buffer).filter { !$0.isWhitespace }
        return text.isEmpty ? nil : text
    }
}
