// queued's version, the one place it is written: the daemon's and queuectl's --version, daemon.info.
public enum QueuedVersion {
    public static let number = "0.2.0"
}
