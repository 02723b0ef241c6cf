// The libpulse linked at run time ("libpulse 16.1.0"), for `queued --version`.

import CPulse

public enum PulseVersion {
    public static var summary: String {
        guard let version = pa_get_library_version() else { return "libpulse (unknown)" }
        return "libpulse " + String(cString: version)
    }
}
