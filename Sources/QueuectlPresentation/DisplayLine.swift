// The screen's power as `queuectl display` and the status block say it:
//   display: off (schedule; on at 07:00:00)
//   display: on (manual until 22:00:00)
//   display: on — display on: cec-ctl exited with status 1: …   (a failure telling the screen)
// Pure: the Status's `display` in, text out; `clock` formats a Unix time (injected by tests).

import QueueRPC

public enum DisplayLine {
    public static func render(_ display: RPCDisplay, clock: (Double) -> String = WallClock.localTime) -> String {
        var line = "display: \(display.power) (\(display.source)"
        if let next = display.nextChange {
            // A manual setting lasts until the schedule's next change; the schedule's own next change
            // turns the screen the other way.
            line += display.source == "manual"
                ? " until \(clock(next))" : "; \(display.isOff ? "on" : "off") at \(clock(next))"
        }
        line += ")"
        if let error = display.error { line += " — \(error)" }
        return line
    }

    /// Whether the status block mentions the display: only when it is off or telling it failed.
    public static func isWorthAStatusLine(_ display: RPCDisplay) -> Bool {
        display.isOff || display.error != nil
    }
}
