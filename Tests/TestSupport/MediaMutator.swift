// Damages valid media the way half-copied files, bad sectors and broken uploads do: bit flips, a cut-off
// tail, a range overwritten with junk or a fill byte, a range duplicated elsewhere. Seeded, so a failing
// case is reproduced from (fixture, seed) alone; nothing mutated is ever committed.

public struct MediaMutation: CustomStringConvertible, Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        case flip, truncate, overwrite, duplicate
    }
    public let kind: Kind
    public let offset: Int
    public let length: Int
    /// flip: the XOR mask; overwrite: the fill byte (nil: random bytes); duplicate: the insertion offset.
    public let detail: Int?

    public var description: String {
        switch kind {
        case .flip: return "flip @\(offset) ^0x\(String(detail ?? 0, radix: 16))"
        case .truncate: return "truncate @\(offset)"
        case .overwrite:
            return "overwrite @\(offset)+\(length) with \(detail.map { "0x" + String($0, radix: 16) } ?? "random")"
        case .duplicate: return "duplicate @\(offset)+\(length) to @\(detail ?? 0)"
        }
    }
}

public enum MediaMutator {
    /// `original` damaged by one to three mutations chosen by `seed`. Headers hold what a demuxer trusts
    /// most, so half of the positions fall in the first 4 KiB.
    public static func mutate(_ original: [UInt8], seed: UInt64) -> (bytes: [UInt8], mutations: [MediaMutation]) {
        var random = SeededGenerator(seed: seed)
        var bytes = original
        var mutations: [MediaMutation] = []
        let count = Int.random(in: 1...3, using: &random)
        for _ in 0..<count where bytes.count > 8 {
            func position() -> Int {
                let limit = Bool.random(using: &random) ? min(bytes.count, 4096) : bytes.count
                return Int.random(in: 0..<limit, using: &random)
            }
            let kind = MediaMutation.Kind.allCases.randomElement(using: &random) ?? .flip
            switch kind {
            case .flip:
                let flips = Int.random(in: 1...16, using: &random)
                for _ in 0..<flips {
                    let at = position()
                    let mask = 1 << Int.random(in: 0..<8, using: &random)
                    bytes[at] ^= UInt8(mask)
                    mutations.append(MediaMutation(kind: .flip, offset: at, length: 1, detail: mask))
                }
            case .truncate:
                let at = Int.random(in: bytes.count / 8..<bytes.count, using: &random)
                bytes.removeLast(bytes.count - at)
                mutations.append(MediaMutation(kind: .truncate, offset: at, length: 0, detail: nil))
            case .overwrite:
                let at = position()
                let length = min(Int.random(in: 1...512, using: &random), bytes.count - at)
                let fills: [Int?] = [nil, 0x00, 0xFF]
                let fill = fills.randomElement(using: &random) ?? nil
                for index in at..<(at + length) {
                    bytes[index] = fill.map { UInt8($0) } ?? UInt8.random(in: 0...255, using: &random)
                }
                mutations.append(MediaMutation(kind: .overwrite, offset: at, length: length, detail: fill))
            case .duplicate:
                let at = position()
                let length = min(Int.random(in: 1...2048, using: &random), bytes.count - at)
                let target = Int.random(in: 0...bytes.count, using: &random)
                bytes.insert(contentsOf: bytes[at..<(at + length)], at: target)
                mutations.append(MediaMutation(kind: .duplicate, offset: at, length: length, detail: target))
            }
        }
        return (bytes, mutations)
    }
}
