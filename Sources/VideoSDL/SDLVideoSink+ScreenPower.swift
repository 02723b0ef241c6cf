// The screen's power the window system's own way (CScreenPower): X11 DPMS on SDL's display connection, or
// the DRM connector's DPMS property under SDL's kmsdrm driver. Presenter thread only, like every SDL call.
// While a DRM screen sleeps nothing is presented (a page flip on a CRTC that is off fails or wakes it);
// the next picture after waking presents again.

import CScreenPower
import Playback

extension SDLVideoSink {
    public func screenPowerSupport() -> ScreenPowerSupport {
        assertOnSinkThread()
        var why = [CChar](repeating: 0, count: 256)
        let method = qd_screen_power_probe(window.map { UnsafeMutableRawPointer($0) }, &why, why.count)
        screenPowerMethod = method
        switch method {
        case Int32(QD_SCREEN_POWER_X11_DPMS): return .supported(.x11DPMS)
        case Int32(QD_SCREEN_POWER_DRM_DPMS): return .supported(.drmDPMS)
        default: return .unsupported(String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
    }

    public func setScreenPower(_ on: Bool) -> ScreenPowerOutcome {
        assertOnSinkThread()
        var error = [CChar](repeating: 0, count: 256)
        let result = qd_screen_power_set(
            window.map { UnsafeMutableRawPointer($0) }, screenPowerMethod, on ? 1 : 0, &screenPowerMemory, &error,
            error.count)
        guard result == 0 else {
            return .failed(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        screenAsleep = !on && screenPowerMethod == Int32(QD_SCREEN_POWER_DRM_DPMS)
        return .done
    }
}
