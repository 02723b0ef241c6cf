// What the engine hands to durable storage (the StateStore module implements it): the queue's changes in
// the order they happened and the player's settings and place whenever they change. The engine calls the
// recorder under its lock — that is what keeps the order exact across the control, decode and presenter
// threads — so a recorder must only queue what it is given: no I/O, no waiting (see EngineCore).

import Overlays
import QueueModel

/// The player as it should come back after a restart.
public struct PlayerSnapshot: Sendable, Equatable, Codable {
    public var state: PlayerState
    /// The play being heard (or about to be), and where in it.
    public var current: Cursor?
    public var position: Double
    public var volume: Int
    public var muted: Bool
    public var rate: Double
    public var fit: VideoFit
    public var rotation: VideoRotation
    /// The overlays and their next id.
    public var overlays: OverlaySet
    /// An operator's `display.power on|off` still in force (nil: the schedule rules).
    public var display: ManualScreenPower?

    public init(
        state: PlayerState = .idle, current: Cursor? = nil, position: Double = 0, volume: Int = 100,
        muted: Bool = false, rate: Double = 1, fit: VideoFit = .fit, rotation: VideoRotation = .upright,
        overlays: OverlaySet = OverlaySet(), display: ManualScreenPower? = nil
    ) {
        self.state = state
        self.current = current
        self.position = position
        self.volume = volume
        self.muted = muted
        self.rate = rate
        self.fit = fit
        self.rotation = rotation
        self.overlays = overlays
        self.display = display
    }

    private enum CodingKeys: String, CodingKey {
        case state, current, position, volume, muted, rate, fit, rotation = "rotate", overlays, display
    }

    /// Decoded field by field so that state written before a setting existed still restores (with its default).
    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            state: try fields.decode(PlayerState.self, forKey: .state),
            current: try fields.decodeIfPresent(Cursor.self, forKey: .current),
            position: try fields.decode(Double.self, forKey: .position),
            volume: try fields.decode(Int.self, forKey: .volume), muted: try fields.decode(Bool.self, forKey: .muted),
            rate: try fields.decode(Double.self, forKey: .rate), fit: try fields.decode(VideoFit.self, forKey: .fit),
            rotation: try fields.decodeIfPresent(VideoRotation.self, forKey: .rotation) ?? .upright,
            overlays: try fields.decodeIfPresent(OverlaySet.self, forKey: .overlays) ?? OverlaySet(),
            display: try fields.decodeIfPresent(ManualScreenPower.self, forKey: .display))
    }
}

/// An operator's screen setting and when the schedule takes over again (nil: never).
public struct ManualScreenPower: Sendable, Equatable, Codable {
    public var on: Bool
    public var until: Double?
    public init(on: Bool, until: Double?) {
        self.on = on
        self.until = until
    }
}

/// Where the engine's changes go to be kept.
public protocol StateRecorder: AnyObject, Sendable {
    /// Called with the engine lock held, in order: queue only, never block.
    func record(queue changes: [PlayQueue.Change], player: PlayerSnapshot?)
}

extension EngineState {
    /// The player as a snapshot, its place read at `heard`.
    func playerSnapshot(heard: Int64) -> PlayerSnapshot {
        let place = recordedPlay(heard: heard) ?? restingPlace.map { (cursor: $0, position: 0.0) }
        return PlayerSnapshot(
            state: status.state, current: place?.cursor, position: place?.position ?? 0, volume: status.volume,
            muted: status.muted, rate: status.rate, fit: status.fit, rotation: status.rotation, overlays: overlays,
            display: manualScreenPower)
    }

    private var manualScreenPower: ManualScreenPower? {
        screenPower.manual.map { ManualScreenPower(on: $0, until: screenPower.manualUntil) }
    }

    /// Whether anything but the position differs from `snapshot` (cheap: no clock is read, since which
    /// play is current does not depend on where the listener is in it).
    func playerDiffers(from snapshot: PlayerSnapshot) -> Bool {
        let cursor = recordedPlay(heard: 0)?.cursor ?? restingPlace
        return snapshot.state != status.state || snapshot.current != cursor || snapshot.volume != status.volume
            || snapshot.muted != status.muted || snapshot.rate != status.rate || snapshot.fit != status.fit
            || snapshot.rotation != status.rotation || snapshot.overlays != overlays
            || snapshot.display != manualScreenPower
    }

    /// The play kept: the current one, or during an interrupt (not kept: it is played now or never) the
    /// play it interrupted, where it resumes.
    private func recordedPlay(heard: Int64) -> (cursor: Cursor, position: Double)? {
        guard let now = current else { return nil }
        guard now.cursor.isInterrupt else { return (now.cursor, position(of: now, heard: heard)) }
        return interruptedPlay.map { ($0.cursor, $0.position) }
    }

    /// Where playback goes on from when nothing is current: a stop's resume point, or the play a schedule
    /// wait goes on from.
    private var restingPlace: Cursor? {
        switch phase {
        case .stopped(let resume, _): resume
        case .running: scheduleWait
        case .idle: nil
        }
    }

    /// Puts the player back where a snapshot left it, before the engine starts: the queue's item `cursor`
    /// at `position`, playing or paused; stopped keeps the item for `play`. Settings come back too.
    mutating func restore(_ player: PlayerSnapshot, resumeAt position: Double?) {
        updateStatus {
            $0.volume = player.volume
            $0.muted = player.muted
            $0.rate = player.rate
            $0.fit = player.fit
            $0.rotation = player.rotation
        }
        overlays = player.overlays
        if let display = player.display { restoreScreenPower(on: display.on, until: display.until) }
        // Layers tied to items that are not in the queue (it was replaced) could never show.
        let gone = player.overlays.overlays.compactMap { overlay -> Int? in
            guard case .item(let id) = overlay.scope, queue.entry(ItemID(id)) == nil else { return nil }
            return id
        }
        overlays.removeScoped(to: Set(gone))
        actions.append(.setAudioVolume(Float(player.volume) / 100, muted: player.muted))
        pendingDisplay.fit = player.fit
        pendingDisplay.rotation = player.rotation
        guard let cursor = player.current, queue.entry(cursor.id) != nil else { return }
        switch player.state {
        case .playing, .paused:
            guard let position else {
                enter(.stopped(resume: cursor, error: nil))
                return
            }
            // An item whose window closed while the daemon was down is skipped like any other.
            if !firstOpen(from: cursor).skipped.isEmpty {
                guard startOrWait(from: cursor, endReason: nil) else { return }
            } else {
                cut(to: cursor, position: position, endReason: nil)
            }
            if player.state == .paused {
                actions.append(.setAudioPaused(true))
                updateRun { $0.motion = .paused }
            } else {
                resume()
            }
        case .stopped:
            enter(.stopped(resume: cursor, error: nil))
        case .idle:
            break
        }
    }
}
