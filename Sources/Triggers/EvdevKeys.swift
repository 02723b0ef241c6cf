// Linux input event key codes by name (linux/input-event-codes.h), for the keys a button box, a presenter's
// remote or a keypad sends: letters, digits, F1–F12, arrows, Enter, Space, Escape, media keys and BTN_0–9.

public enum EvdevKeys {
    static let table: [String: UInt16] = {
        var table: [String: UInt16] = [
            "KEY_ESC": 1, "KEY_BACKSPACE": 14, "KEY_TAB": 15, "KEY_ENTER": 28, "KEY_SPACE": 57, "KEY_UP": 103,
            "KEY_PAGEUP": 104, "KEY_LEFT": 105, "KEY_RIGHT": 106, "KEY_DOWN": 108, "KEY_PAGEDOWN": 109,
            "KEY_HOME": 102, "KEY_END": 107, "KEY_MUTE": 113, "KEY_VOLUMEDOWN": 114, "KEY_VOLUMEUP": 115,
            "KEY_NEXTSONG": 163, "KEY_PLAYPAUSE": 164, "KEY_PREVIOUSSONG": 165, "KEY_STOPCD": 166,
            "KEY_F11": 87, "KEY_F12": 88, "KEY_KPENTER": 96,
        ]
        for (index, digit) in ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0"].enumerated() { table["KEY_" + digit] = UInt16(2 + index) }
        for (index, letter) in ["Q", "W", "E", "R", "T", "Y", "U", "I", "O", "P"].enumerated() { table["KEY_" + letter] = UInt16(16 + index) }
        for (index, letter) in ["A", "S", "D", "F", "G", "H", "J", "K", "L"].enumerated() { table["KEY_" + letter] = UInt16(30 + index) }
        for (index, letter) in ["Z", "X", "C", "V", "B", "N", "M"].enumerated() { table["KEY_" + letter] = UInt16(44 + index) }
        for index in 1...10 { table["KEY_F\(index)"] = UInt16(58 + index) }
        for index in 0...9 { table["BTN_\(index)"] = UInt16(0x100 + index) }
        return table
    }()

    /// The code of key `name` ("KEY_F1"), nil when unknown.
    public static func code(named name: String) -> UInt16? { table[name.uppercased()] }
}
