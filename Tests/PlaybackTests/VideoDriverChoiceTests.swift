// `--video auto`'s choice over the machines a screen box can be: Wayland, X11, a console with a connected
// DRM connector (SDL's kmsdrm), nothing — and how /sys/class/drm is read.

import Foundation
import TestSupport
import Testing
import VideoSDL

@Suite struct VideoDriverChoiceTests {
    @Test func aDisplayServerComesFirstThenTheKernelsDisplayThenNone() {
        let wayland = VideoDriverChoice.decide(
            for: VideoMachine(waylandDisplay: "wayland-0", x11Display: ":0", connectedConnectors: ["card0-HDMI-A-1"]))
        #expect(wayland == VideoDriverChoice(driver: "wayland", reason: "WAYLAND_DISPLAY=wayland-0"))
        let x11 = VideoDriverChoice.decide(for: VideoMachine(x11Display: ":1", connectedConnectors: ["card0-DP-1"]))
        #expect(x11 == VideoDriverChoice(driver: "x11", reason: "DISPLAY=:1"))
        let console = VideoDriverChoice.decide(for: VideoMachine(connectedConnectors: ["card1-HDMI-A-2"]))
        #expect(console.driver == "kmsdrm" && console.reason.contains("card1-HDMI-A-2"))
        let nothing = VideoDriverChoice.decide(for: VideoMachine())
        #expect(nothing.driver == nil && nothing.reason.contains("no connected DRM connector"))
    }

    @Test func theMachineIsReadFromTheEnvironmentAndSysfs() throws {
        let sys = try TemporaryDirectory(prefix: "queued-drm")
        for (name, status) in [
            ("card0-HDMI-A-1", "disconnected"), ("card0-HDMI-A-2", "connected"), ("card0-eDP-1", "unknown"),
        ] {
            try FileManager.default.createDirectory(atPath: sys.path + "/" + name, withIntermediateDirectories: true)
            try (status + "\n").write(toFile: sys.path + "/" + name + "/status", atomically: true, encoding: .utf8)
        }
        try FileManager.default.createDirectory(atPath: sys.path + "/card0", withIntermediateDirectories: true)
        let machine = VideoMachine.current(environment: ["DISPLAY": "", "WAYLAND_DISPLAY": ""], drm: sys.path)
        #expect(machine == VideoMachine(connectedConnectors: ["card0-HDMI-A-2"]), "empty variables count as unset")
        #expect(VideoDriverChoice.decide(for: machine).driver == "kmsdrm")
        let none = VideoMachine.current(environment: [:], drm: sys.path + "/missing")
        #expect(VideoDriverChoice.decide(for: none).driver == nil)
    }
}
