// LineFramer: lines split anywhere across reads, the exact limit boundary, over-long lines skipped once.

import QueueRPC
import Testing

@Suite struct LineFramerTests {
    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func splitsLines() {
        var framer = LineFramer()
        #expect(framer.append(bytes("a\nbc\n\nd")) == [.line(bytes("a")), .line(bytes("bc")), .line([])])
        #expect(framer.pendingByteCount == 1)
        #expect(framer.append(bytes("e\r\n")) == [.line(bytes("de\r"))])
        #expect(framer.append([]) == [])
        #expect(framer.finish() == nil)
    }

    @Test func everySplitPointGivesTheSameLines() {
        let stream = bytes("{\"a\":1}\n[2,\"é\"]\r\n\nlast\n")
        let expected: [LineFramer.Piece] = [
            .line(bytes("{\"a\":1}")), .line(bytes("[2,\"é\"]\r")), .line([]), .line(bytes("last")),
        ]
        for cut in 0...stream.count {
            var framer = LineFramer()
            let pieces = framer.append(stream[..<cut]) + framer.append(stream[cut...])
            #expect(pieces == expected, "cut at \(cut)")
        }
        var framer = LineFramer()
        #expect(stream.flatMap { framer.append([$0]) } == expected)
    }

    @Test func limitBoundaryIsExact() {
        var framer = LineFramer(limit: 4)
        #expect(framer.append(bytes("abcd\nabcde\nab")) == [.line(bytes("abcd")), .oversized(byteCount: 5)])
        #expect(framer.append(bytes("cd")) == [])
        #expect(framer.append(bytes("\n")) == [.line(bytes("abcd"))])
        // The limit counts a "\r" (it is part of the line) but never the "\n".
        #expect(framer.append(bytes("abc\r\nabcd\r\n")) == [.line(bytes("abc\r")), .oversized(byteCount: 5)])
    }

    @Test func oversizedLinesAreReportedOnceAndSkipped() {
        var framer = LineFramer(limit: 10)
        #expect(framer.append(bytes("ok\n0123456")) == [.line(bytes("ok"))])
        #expect(framer.append(bytes("789ab")) == [])  // over the limit now: counted, not kept
        #expect(framer.pendingByteCount == 12)
        #expect(framer.append([UInt8](repeating: 0x78, count: 100_000)) == [])
        #expect(framer.append(bytes("yz\nnext\n")) == [.oversized(byteCount: 100_014), .line(bytes("next"))])
        #expect(framer.append(bytes(String(repeating: "z", count: 11) + "\n")) == [.oversized(byteCount: 11)])
    }

    @Test func finishHandsOutTheUnterminatedLine() {
        var framer = LineFramer(limit: 3)
        _ = framer.append(bytes("ab"))
        #expect(framer.finish() == .line(bytes("ab")))
        _ = framer.append(bytes("abcdef"))
        #expect(framer.finish() == .oversized(byteCount: 6))
        #expect(framer.finish() == nil)
    }

    @Test func acceptsAnySequence() {
        var framer = LineFramer()
        #expect(framer.append(AnySequence(bytes("x\ny"))) == [.line(bytes("x"))])
        #expect(framer.append(bytes("z\n").lazy.map { $0 }) == [.line(bytes("yz"))])
    }

    @Test func defaultLimitIsOneMebibyte() {
        var framer = LineFramer()
        #expect(framer.limit == 1 << 20)
        let line = [UInt8](repeating: 0x20, count: 1 << 20)
        #expect(
            framer.append(line + [0x0A] + line + [0x20, 0x0A])
                == [.line(line), .oversized(byteCount: (1 << 20) + 1)])
    }
}
