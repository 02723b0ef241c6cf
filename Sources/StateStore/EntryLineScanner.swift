// The fastest way back for a snapshot entry line, which a million-item restore reads a million of, and for a
// journal's insert record (an add of thousands of items is one line): the bytes are matched against the exact
// shape StateEncoding writes (members in its order, strings without escapes), with no JSON tree built.
// Anything else (an escape, a schedule, another order) returns nil and the line goes to StateDecoding's
// parser, then to JSONDecoder: this only takes lines it cannot misread. Hand-written because it is the
// restore's hot loop (~0.3 µs a line against ~3 µs through a general parser).

import QueueModel

struct EntryLineScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var at = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    static func entry(_ line: some Collection<UInt8>) -> QueueEntry? {
        line.withContiguousStorageIfAvailable { buffer in
            var scanner = EntryLineScanner(buffer)
            return scanner.entry()
        } ?? nil
    }

    /// A journal line holding `.insert(items, at:)`, or nil (another record, or a shape not taken here).
    static func insertion(_ line: some Collection<UInt8>) -> PlayQueue.Change? {
        line.withContiguousStorageIfAvailable { buffer in
            var scanner = EntryLineScanner(buffer)
            return scanner.insertion()
        } ?? nil
    }

    private mutating func entry() -> QueueEntry? {
        guard take("{\"id\":"), let id = integer(), take(",\"item\":"), let item = item(),
            take(",\"playsDone\":"), let playsDone = integer(), take(",\"state\":{\"")
        else { return nil }
        let state: ItemState
        if take("queued\":{}}") {
            state = .queued
        } else if take("playing\":{}}") {
            state = .playing
        } else if take("played\":{}}") {
            state = .played
        } else if take("failed\":{\"message\":"), let message = string(), take("}}") {
            state = .failed(message: message)
        } else {
            return nil
        }
        var entry = QueueEntry(id: ItemID(id), item: item, playsDone: playsDone, state: state)
        if take(",\"knownDuration\":") {
            guard let value = number() else { return nil }
            entry.knownDuration = value
        }
        if take(",\"knownSize\":{\"width\":") {
            guard let width = integer(), take(",\"height\":"), let height = integer(), take("}") else { return nil }
            entry.knownSize = PictureSize(width: width, height: height)
        }
        guard take("}"), at == bytes.count else { return nil }
        return entry
    }

    private mutating func insertion() -> PlayQueue.Change? {
        guard take("{\"queue\":{\"_0\":{\"insert\":{\"_0\":[") else { return nil }
        var items: [MediaItem] = []
        if !take("]") {
            repeat {
                guard let item = item() else { return nil }
                items.append(item)
            } while take(",")
            guard take("]") else { return nil }
        }
        guard take(",\"at\":"), let index = integer(), take("}}}}"), at == bytes.count else { return nil }
        return .insert(items, at: index)
    }

    /// `{"uri":…,"loops":…,…}` as StateEncoding writes a MediaItem (a schedule or anything else: nil).
    private mutating func item() -> MediaItem? {
        guard take("{\"uri\":"), let uri = string() else { return nil }
        var item = MediaItem(uri: uri)
        guard take(",\"loops\":"), let loops = integer() else { return nil }
        item.loops = loops
        if take(",\"start\":") { guard let value = number() else { return nil }; item.start = value }
        if take(",\"end\":") { guard let value = number() else { return nil }; item.end = value }
        if take(",\"duration\":") { guard let value = number() else { return nil }; item.duration = value }
        if take(",\"title\":") { guard let value = string() else { return nil }; item.title = value }
        if take(",\"trackEnd\":") {
            guard let value = string(), let trackEnd = TrackEnd(rawValue: value) else { return nil }
            item.trackEnd = trackEnd
        }
        if take(",\"sha256\":") { guard let value = string() else { return nil }; item.sha256 = value }
        guard take("}") else { return nil }
        return item
    }

    /// Consumes `literal` if the bytes continue with it.
    private mutating func take(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard at + count <= bytes.count else { return false }
        let start = literal.utf8Start
        for offset in 0..<count where bytes[at + offset] != start[offset] { return false }
        at += count
        return true
    }

    private mutating func integer() -> Int? {
        var value = 0
        var negative = false
        if at < bytes.count, bytes[at] == UInt8(ascii: "-") {
            negative = true
            at += 1
        }
        let first = at
        while at < bytes.count, bytes[at] >= UInt8(ascii: "0"), bytes[at] <= UInt8(ascii: "9"), at - first < 18 {
            value = value * 10 + Int(bytes[at] - UInt8(ascii: "0"))
            at += 1
        }
        // No digits, too many for this fast path, or a number that is not an integer: not taken here.
        guard at > first, at - first < 18 else { return nil }
        if at < bytes.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[at]) {
            return nil
        }
        return negative ? -value : value
    }

    private mutating func number() -> Double? {
        let first = at
        while at < bytes.count, Self.isNumberByte(bytes[at]) { at += 1 }
        guard at > first else { return nil }
        return Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[first..<at]), as: UTF8.self))
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e")
            || byte == UInt8(ascii: "E")
    }

    /// A string with no escapes (an escape or a control byte: not taken here).
    private mutating func string() -> String? {
        guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { return nil }
        let first = at + 1
        var end = first
        while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
            if bytes[end] == UInt8(ascii: "\\") || bytes[end] < 0x20 { return nil }
            end += 1
        }
        guard end < bytes.count else { return nil }
        at = end + 1
        return String(validating: UnsafeBufferPointer(rebasing: bytes[first..<end]), as: UTF8.self)
    }
}
