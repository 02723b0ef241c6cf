// Screen power decisions: the schedule (`--display-schedule`) or an operator (`display.power`) turns the
// screen off and on. Off is a hold beside the run, not a phase of it: the run keeps what the user asked for
// (playing, paused, an armed start), while the audio output is corked with nothing dropped, the decode
// thread parks with its play open (DecoderStep.hold), and the presenter shows black without overlays and
// has the screen put to sleep (PresenterStep.darken). On, everything goes on from the very next sample —
// unless the current item's own window closed meanwhile; then the queue goes on where the schedule says.
// A manual setting lasts until the schedule's next change. The presenter thread asks `screenPowerTick`
// before anything else, so edges are kept to half a second with no timer of their own; the clock is the
// state's injected `localClock`.

import QueueModel

/// What the state remembers of the screen's power beyond the status. Guarded by the engine lock.
struct ScreenPowerState {
    /// The operator's setting and when it gives way to the schedule again (nil: never, no schedule edge).
    var manual: Bool?
    var manualUntil: Double?
    /// Evaluate again at this instant (a schedule edge, or a minute later in case the zone changed).
    var checkAt = -Double.infinity
    /// When it last evaluated: a wall clock set back before it (NTP, an operator) evaluates again.
    var evaluatedAt = -Double.infinity
    /// What the operator's commands were last asked to do (nil: nothing yet; the first decision tells even
    /// "on", so a daemon restarted after a crash in the dark wakes the screen).
    var told: Bool?
    var info = ScreenPowerInfo()
}

extension EngineState {
    /// Presenter thread, under the lock, on every question: decides again only at the schedule's next
    /// change, a minute after the last decision, or when the wall clock went back. Costs a clock read otherwise.
    mutating func screenPowerTick() {
        let now = localClock.now()
        guard now >= screenPower.checkAt || now < screenPower.evaluatedAt else { return }
        screenPower.evaluatedAt = now
        let next = scheduleNextChange(after: now)
        screenPower.checkAt = min(now + 60, next ?? .infinity)
        if let until = screenPower.manualUntil, now >= until {
            screenPower.manual = nil
            screenPower.manualUntil = nil
        }
        let on = screenPower.manual ?? displaySchedule.isOn(at: localClock.localTime(at: now))
        applyScreenPower(on: on, source: screenPower.manual == nil ? .schedule : .manual, nextChange: next)
    }

    /// `display.power`: on or off until the schedule's next change, or back to the schedule.
    mutating func setScreenPower(_ request: ScreenPowerRequest) {
        switch request {
        case .auto:
            screenPower.manual = nil
            screenPower.manualUntil = nil
        case .on, .off:
            screenPower.manual = request == .on
            screenPower.manualUntil = scheduleNextChange(after: localClock.now())
        }
        screenPower.checkAt = -.infinity
        screenPowerTick()
    }

    /// A manual setting restored after a restart, if it still holds.
    mutating func restoreScreenPower(on: Bool, until: Double?) {
        if let until, localClock.now() >= until { return }
        screenPower.manual = on
        screenPower.manualUntil = until
        screenPower.checkAt = -.infinity
    }

    /// The presenter opened the video output: how the screen is told from now on. The operator's
    /// commands win over the output's own way.
    mutating func noteScreenPowerSupport(_ support: ScreenPowerSupport, commands: Bool) {
        switch (commands, support) {
        case (true, _):
            screenPower.info.method = .command
            screenPower.info.why = "--display-off-command and --display-on-command are given"
        case (false, .supported(let method)):
            screenPower.info.method = method
            screenPower.info.why = "the video output supports it"
        case (false, .unsupported(let why)):
            screenPower.info.method = .none
            screenPower.info.why = why
        }
    }

    /// Whether the presenter tells the screen itself (the video output's own way).
    var screenToldByPresenter: Bool {
        screenPower.info.method == .x11DPMS || screenPower.info.method == .drmDPMS
    }

    /// How telling the screen went (the presenter's built-in way, or the command thread).
    mutating func screenPowerTold(on: Bool, outcome: ScreenPowerOutcome) {
        switch outcome {
        case .done: updateStatus { $0.display.error = nil }
        case .failed(let message):
            screenPower.info.failures += 1
            updateStatus { $0.display.error = "display \(on ? "on" : "off"): \(message)" }
        }
    }

    private func scheduleNextChange(after instant: Double) -> Double? {
        displaySchedule.nextChange(after: localClock.localTime(at: instant)).map { localClock.instant(of: $0) }
    }

    private mutating func applyScreenPower(on: Bool, source: ScreenPowerSource, nextChange: Double?) {
        let changed = status.display.on != on
        updateStatus {
            $0.display.on = on
            $0.display.source = source
            $0.display.nextChange = nextChange
        }
        if screenPower.info.method == .command && screenPower.told != on { actions.append(.tellScreen(on: on)) }
        screenPower.told = on
        guard changed else { return }
        screenPower.info.changes += 1
        wakeWaiters = true
        if !on {
            // The cork `pause` uses, without a flush: the output keeps what it holds for the morning. The
            // decode thread is let out of a write blocked on the corked output, and parks (keeping its chunk).
            actions.append(.setAudioPaused(true))
            actions.append(.cancelAudioWrite)
            return
        }
        if let cursor = current?.cursor, !cursor.isInterrupt, item(for: cursor)?.schedule != nil,
            firstOpen(from: cursor).cursor != cursor
        {
            // The item's own window closed in the dark: the queue goes on where the schedule says.
            _ = startOrWait(from: cursor, endReason: .skipped)
        }
        if phase.run?.motion == .playing { actions.append(.setAudioPaused(false)) }
    }
}
