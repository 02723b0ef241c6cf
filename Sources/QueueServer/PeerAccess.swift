// Who may talk to the daemon: the peer's uid (SO_PEERCRED) must be ours or root's, or the peer must be
// in the group access was widened to. Checked once per connection, before anything is read.

import Glibc
import NIOCore

/// struct ucred's layout (hidden from Swift's Glibc import without _GNU_SOURCE).
struct PeerCredentials: Sendable {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
}

public struct PeerAccess: Sendable {
    /// Members of this group may connect too (`--socket-group`).
    public var group: gid_t?
    public init(group: gid_t? = nil) {
        self.group = group
    }

    func allows(_ peer: PeerCredentials) -> Bool {
        if peer.uid == getuid() || peer.uid == 0 { return true }
        guard let group else { return false }
        if peer.gid == group { return true }
        return Self.groups(of: peer.uid).contains(group)
    }

    /// The supplementary groups of a user, from the group database.
    private static func groups(of uid: uid_t) -> [gid_t] {
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return [] }
        var count: Int32 = 64
        var groups = [gid_t](repeating: 0, count: Int(count))
        if getgrouplist(name, entry.pointee.pw_gid, &groups, &count) < 0 {
            groups = [gid_t](repeating: 0, count: Int(count))
            _ = getgrouplist(name, entry.pointee.pw_gid, &groups, &count)
        }
        return Array(groups.prefix(Int(max(0, count))))
    }

    static func credentials(of channel: Channel) -> EventLoopFuture<PeerCredentials> {
        guard let provider = channel as? SocketOptionProvider else {
            return channel.eventLoop.makeFailedFuture(ChannelError.operationUnsupported)
        }
        return provider.unsafeGetSocketOption(level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED))
    }
}
