// Which SDL video driver `--video auto` uses, and why: a display server when one is named (Wayland first,
// then X11), else the kernel's display (SDL's `kmsdrm`) when a DRM card has a connected connector — a
// console-only signage board — else no video at all. The decision is a pure function of what the machine
// has (`VideoMachine`), read from the environment and /sys/class/drm by `VideoMachine.current()`.

import CSDL2
import FoundationEssentials
import Glibc
import SystemSupport

/// What the machine offers for showing pictures.
public struct VideoMachine: Sendable, Equatable {
    public var waylandDisplay: String?
    public var x11Display: String?
    /// DRM connectors reported connected, as /sys/class/drm names them ("card0-HDMI-A-1").
    public var connectedConnectors: [String]

    public init(waylandDisplay: String? = nil, x11Display: String? = nil, connectedConnectors: [String] = []) {
        self.waylandDisplay = waylandDisplay
        self.x11Display = x11Display
        self.connectedConnectors = connectedConnectors
    }

    /// This machine: $WAYLAND_DISPLAY, $DISPLAY (empty counts as unset) and /sys/class/drm/card*-*/status.
    public static func current(
        environment: [String: String] = ProcessInfo.processInfo.environment, drm: String = "/sys/class/drm"
    ) -> VideoMachine {
        func named(_ key: String) -> String? { environment[key].flatMap { $0.isEmpty ? nil : $0 } }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: drm)) ?? []
        let connected = entries.filter { $0.hasPrefix("card") && $0.contains("-") }.sorted().filter { name in
            let status = (try? String(contentsOfFile: drm + "/" + name + "/status", encoding: .utf8)) ?? ""
            return status.trimmingWhitespace() == "connected"
        }
        return VideoMachine(
            waylandDisplay: named("WAYLAND_DISPLAY"), x11Display: named("DISPLAY"), connectedConnectors: connected)
    }
}

/// The choice, with the reason the log and daemon.info give.
public struct VideoDriverChoice: Sendable, Equatable {
    /// SDL's driver name; nil: no video.
    public var driver: String?
    public var reason: String

    public init(driver: String?, reason: String) {
        self.driver = driver
        self.reason = reason
    }

    public static func decide(for machine: VideoMachine) -> VideoDriverChoice {
        if let display = machine.waylandDisplay {
            return VideoDriverChoice(driver: "wayland", reason: "WAYLAND_DISPLAY=\(display)")
        }
        if let display = machine.x11Display {
            return VideoDriverChoice(driver: "x11", reason: "DISPLAY=\(display)")
        }
        if let connector = machine.connectedConnectors.first {
            return VideoDriverChoice(
                driver: "kmsdrm", reason: "no display server; DRM connector \(connector) is connected")
        }
        return VideoDriverChoice(
            driver: nil, reason: "no display server (DISPLAY, WAYLAND_DISPLAY unset) and no connected DRM connector")
    }
}

/// The SDL library linked at run time ("SDL 2.26.5"), for `queued --version`.
public enum SDLVersion {
    public static var summary: String {
        var version = SDL_version()
        SDL_GetVersion(&version)
        return "SDL \(version.major).\(version.minor).\(version.patch)"
    }
}
