// Where the engine's timeline and the audio device's meet when the sound is played a little faster or
// slower (TrimmedAudioSink): each chunk written at a pace leaves an anchor — device frame `device` carries
// engine frame `engine`, and from there `pace` engine frames go by per device frame — so a position on one
// side maps to the other exactly, across every change of pace. Pure value, owned by its sink under its lock.

struct PaceMap: Equatable {
    struct Anchor: Equatable {
        var device: Int64
        var engine: Double
        var pace: Double
    }

    /// In device order; never empty.
    private(set) var anchors = [Anchor(device: 0, engine: 0, pace: 1)]

    /// The engine frame heard when the device has played `device` frames (not beyond the next anchor's).
    func engine(atDevice device: Int64) -> Double {
        let index = anchors.lastIndex { $0.device <= device } ?? 0
        let anchor = anchors[index]
        let mapped = anchor.engine + Double(device - anchor.device) * anchor.pace
        if index + 1 < anchors.count { return min(mapped, anchors[index + 1].engine) }
        return mapped
    }

    /// The device frame that carries engine frame `engine`.
    func device(atEngine engine: Double) -> Double {
        let index = anchors.lastIndex { $0.engine <= engine } ?? 0
        let anchor = anchors[index]
        let mapped = Double(anchor.device) + (engine - anchor.engine) / anchor.pace
        if index + 1 < anchors.count { return min(mapped, Double(anchors[index + 1].device)) }
        return mapped
    }

    /// From device frame `device` on, engine frame `engine` and `pace` (what was mapped from there on before
    /// is gone: written anew, or taken back).
    mutating func mark(device: Int64, engine: Double, pace: Double) {
        anchors.removeAll { $0.device >= device }
        anchors.append(Anchor(device: device, engine: engine, pace: pace))
    }

    /// Drops the anchors only frames before `device` needed (already heard).
    mutating func forget(before device: Int64) {
        guard let keep = anchors.lastIndex(where: { $0.device <= device }), keep > 0 else { return }
        anchors.removeFirst(keep)
    }
}
