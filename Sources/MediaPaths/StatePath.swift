// Where the daemon keeps its state by default ($XDG_STATE_HOME/queued when that is absolute, else
// ~/.local/state/queued; `--state-dir` overrides it in the daemon). Here, beside the socket's path, so that
// the programs around the daemon (queued-web's token and uploads) find it without the state store.

import FoundationEssentials
import Glibc
import SystemSupport

public enum StatePath {
    public static func `default`(environment: [String: String]) -> String {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/queued" }
        let home = environment["HOME"] ?? PathText.homeDirectory()
        return home + "/.local/state/queued"
    }
}
