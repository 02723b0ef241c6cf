// The screen's power, as the engine sees it: on or off, whether the schedule or an operator decided, when
// the schedule next changes it, and which way the screen is told (the video output's own — X11 DPMS, the
// DRM connector — or the operator's commands). Plain values, shared by the state, the status and the
// control layer.

/// What an operator asks of the screen (`display.power`).
public enum ScreenPowerRequest: String, Sendable, CaseIterable {
    case on, off
    /// Back to the schedule at once.
    case auto
}

/// Who decided the screen's power now.
public enum ScreenPowerSource: String, Sendable {
    /// `--display-schedule` (always on without one).
    case schedule
    /// `display.power on|off`: lasts until the schedule's next change.
    case manual
}

/// How the screen is told to sleep and wake.
public enum ScreenPowerMethod: String, Sendable {
    /// The X server's DPMS extension (the display connection SDL opened).
    case x11DPMS = "x11-dpms"
    /// The DRM connector's DPMS property (SDL's kmsdrm driver, on the console).
    case drmDPMS = "drm-dpms"
    /// `--display-off-command` / `--display-on-command`.
    case command
    /// Nothing tells the screen: off is a black picture, silence and paused decoding.
    case none
}

/// What a video output can do about the screen's power, asked once when it opens.
public enum ScreenPowerSupport: Sendable, Equatable {
    case supported(ScreenPowerMethod)
    /// Why not (shown in `daemon.info` and the log).
    case unsupported(String)
}

/// How telling the screen went.
public enum ScreenPowerOutcome: Sendable, Equatable {
    case done
    case failed(String)
}

/// The screen's power in the player's status.
public struct ScreenPowerStatus: Sendable, Equatable {
    public var on = true
    public var source = ScreenPowerSource.schedule
    /// When the schedule next changes it (Unix seconds); nil: never (no schedule, or it never changes).
    public var nextChange: Double?
    /// The last failure telling the screen, until the next success.
    public var error: String?
    public init() {}
}

/// The way in use and why, and what telling the screen has done since the start (`daemon.info`, health).
public struct ScreenPowerInfo: Sendable, Equatable {
    public var method = ScreenPowerMethod.none
    public var why = "the video output has not opened yet"
    /// Changes of the screen's power since the start (the first decision counts none), and failures telling it.
    public var changes = 0
    public var failures = 0
    public init() {}
}

/// The operator's commands, split into words (run without a shell).
public struct ScreenPowerCommands: Sendable, Equatable {
    public var off: [String]
    public var on: [String]
    /// Seconds before a command is killed (its whole process group).
    public var timeout: Double
    public init(off: [String], on: [String], timeout: Double = 10) {
        self.off = off
        self.on = on
        self.timeout = timeout
    }
}
