// The pace of a live stream, decided without a clock: a simulated sender whose clock runs fast or slow against
// ours by a crystal's error (100 ppm) and by far more (0.4 %), measured every audio frame (20 ms) with the
// jitter of bursty delivery, for hours of stream time. The latency stays in its band, the pace never moves
// by more than 0.5 %, it does not hunt while in the band, and stream time maps to item time without a jump.

import Media
import Testing

/// Plays `hours` of a sender running at `senderRate` (stream seconds sent per second of our clock) through
/// `corrector`, from `latency` behind: the latency it measured (less the jitter) at every step.
private func simulate(
    _ corrector: inout DriftCorrector, senderRate: Double, from latency: Double, hours: Double,
    jitter: Double = 0.08
) -> (latencies: [Double], paces: Set<Double>) {
    let step = 0.02  // one 960-sample frame at 48 kHz
    var latency = latency
    var stream = 0.0
    var latencies: [Double] = []
    var paces: Set<Double> = [corrector.pace]
    let steps = Int(hours * 3600 / step)
    for index in 0..<steps {
        // Packets arrive in bursts: the measurement saws up and down by `jitter` around the true latency.
        let burst = jitter * (Double(index % 50) / 50 - 0.5)
        _ = corrector.observe(latency: max(0, latency + burst), at: stream)
        paces.insert(corrector.pace)
        stream += step * corrector.pace
        latency += step * (senderRate - corrector.pace)
        latencies.append(latency)
    }
    return (latencies, paces)
}

@Suite struct DriftCorrectorTests {
    @Test(arguments: [1.0001, 0.9999, 1.004, 0.996])
    func aSenderFastOrSlowIsKeptInTheBand(senderRate: Double) {
        var corrector = DriftCorrector(target: 1)
        let run = simulate(&corrector, senderRate: senderRate, from: 1, hours: 6)
        // Past the first minutes (the smoothing's lag), within the band and a little of its smoothing's lag.
        let settled = run.latencies.dropFirst(run.latencies.count / 20)
        #expect(settled.min()! > 0.7 && settled.max()! < 1.3, "\(settled.min()!)...\(settled.max()!)")
        // Without it: 100 ppm is 2.2 s in six hours, 0.4 % is 86 s — an overflow or a stream run dry.
        #expect(run.paces.isSubset(of: [1, 1 + DriftCorrector.maxCorrection, 1 - DriftCorrector.maxCorrection]))
        #expect(run.paces.contains(senderRate > 1 ? 1.005 : 0.995), "\(run.paces)")
        #expect(!run.paces.contains(senderRate > 1 ? 0.995 : 1.005), "it never pushes the wrong way: \(run.paces)")
    }

    @Test func aSenderFasterThanTheCorrectionCanFollowIsFollowedAtMostHalfAPercentFaster() {
        var corrector = DriftCorrector(target: 1)
        let run = simulate(&corrector, senderRate: 1.02, from: 1, hours: 0.1)
        #expect(run.paces.max()! == 1.005)
    }

    @Test func aLatencyInTheBandLeavesThePaceAlone() {
        var corrector = DriftCorrector(target: 1)
        var changes = 0
        var stream = 0.0
        for index in 0..<100_000 {
            // 0.8 to 1.2 s: inside 0.75...1.25, however it wanders.
            let latency = 1 + 0.2 * Double((index / 500) % 3 - 1)
            if corrector.observe(latency: latency, at: stream) != nil { changes += 1 }
            stream += 0.02
        }
        #expect(changes == 0)
        #expect(corrector.pace == 1)
    }

    @Test func theMapFromStreamToItemTimeBendsWithoutAJump() {
        var corrector = DriftCorrector(target: 1)
        #expect(corrector.itemTime(ofStream: 10) == 10)
        // Far above the band: faster once the play has warmed up (5 s).
        var stream = 0.0
        var changedAt: Double?
        while changedAt == nil && stream < 100 {
            if corrector.observe(latency: 3, at: stream) != nil { changedAt = stream }
            stream += 0.02
        }
        let bend = try! #require(changedAt)
        #expect(corrector.pace == 1.005)
        #expect(abs(corrector.itemTime(ofStream: bend) - bend) < 1e-9, "continuous at the bend")
        // Ten stream seconds later, ten seconds played 0.5 % faster take 9.95 s of item time.
        #expect(abs(corrector.itemTime(ofStream: bend + 10) - (bend + 10 / 1.005)) < 1e-9)
    }

    @Test func aSegmentedStreamsTargetIsWhatItSettlesAt() {
        var corrector = DriftCorrector(target: nil)
        var stream = 0.0
        while stream < DriftCorrector.settling - 1 {
            #expect(corrector.observe(latency: 6, at: stream) == nil)
            stream += 0.5
        }
        #expect(corrector.target == nil)
        while stream < DriftCorrector.settling + 1 {
            _ = corrector.observe(latency: 6, at: stream)
            stream += 0.5
        }
        #expect(corrector.target == 6)
        #expect(corrector.pace == 1)
    }

    @Test func aPlayPlacedAnewStartsItsMapThere() {
        var corrector = DriftCorrector(target: 1)
        var stream = 0.0
        while corrector.pace == 1 && stream < 100 {
            _ = corrector.observe(latency: 0.2, at: stream)
            stream += 0.02
        }
        #expect(corrector.pace == 0.995)
        corrector.restart(item: 300, stream: 300)
        #expect(corrector.itemTime(ofStream: 300) == 300)
        #expect(abs(corrector.itemTime(ofStream: 301) - (300 + 1 / 0.995)) < 1e-9)
    }
}
