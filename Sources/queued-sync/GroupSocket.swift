// The group's UDP socket: every message sealed with the group's key (HMAC-SHA256 over the datagram's JSON,
// the 32 bytes of the code after it) and sent to every peer named on the command line, or to the group's
// multicast address. What arrives is believed only when its code is the key's, it fits in a datagram, it
// reads as a message of this group, its sender's run has echoed this member's challenge and it has not said
// it before (PeerTrust): a stranger on the network can neither lead the wall, nor move it, nor keep a dead
// leader alive with a recording. Answers go to the peers
// named, never back to the address a datagram came from. IPv4. Sends from any thread; `receive` from one.

import Crypto
import FoundationEssentials
import Glibc
import JSONText
import SyncGroup

struct GroupAddress: Sendable, Equatable, CustomStringConvertible {
    var host: String
    var port: UInt16

    /// `HOST:PORT` (an IPv4 address).
    init(parsing text: String) throws {
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]), port > 0 else {
            throw SyncFailure("\(text): not HOST:PORT")
        }
        host = String(text[..<colon])
        self.port = port
        _ = try socketAddress()
    }

    func socketAddress() throws -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { throw SyncFailure("\(host): not an IPv4 address") }
        return address
    }

    var description: String { "\(host):\(port)" }
}

struct SyncFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

final class GroupSocket: @unchecked Sendable {
    private let descriptor: Int32
    private let key: SymmetricKey
    /// Fixed at creation: where every message goes.
    private let targets: [sockaddr_in]

    init(listen: GroupAddress, peers: [GroupAddress], multicast: GroupAddress?, key: [UInt8]) throws {
        self.key = SymmetricKey(data: key)
        let descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        self.descriptor = descriptor
        guard descriptor >= 0 else { throw SyncFailure("socket: \(String(cString: strerror(errno)))") }
        // Sharing the port only where a multicast group needs it: on Linux another local program bound to a
        // shared unicast port would take the datagrams meant for this member.
        if multicast != nil {
            var yes: Int32 = 1
            setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        }
        // Room for a burst (a flood of strangers' datagrams must not crowd out the group's hellos at once).
        var buffer: Int32 = 1 << 20
        setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &buffer, socklen_t(MemoryLayout<Int32>.size))
        var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var bound = try listen.socketAddress()
        let result = withUnsafePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw SyncFailure("cannot listen on \(listen): \(reason)")
        }
        if let multicast {
            var request = ip_mreq()
            request.imr_multiaddr = try multicast.socketAddress().sin_addr
            request.imr_interface.s_addr = in_addr_t(0)  // INADDR_ANY: the interface the route names
            guard setsockopt(descriptor, Int32(IPPROTO_IP), IP_ADD_MEMBERSHIP, &request, socklen_t(MemoryLayout<ip_mreq>.size)) == 0 else {
                let reason = String(cString: strerror(errno))
                close(descriptor)
                throw SyncFailure("cannot join multicast group \(multicast): \(reason)")
            }
            targets = [try multicast.socketAddress()]
        } else {
            targets = try peers.map { try $0.socketAddress() }
        }
    }

    deinit { close(descriptor) }

    /// Seals `message` and sends it to every target; a target that cannot be reached now is tried again
    /// with the next message.
    func send(_ message: SyncMessage) {
        var bytes = JSON.serialize(message.json)
        guard bytes.count + 32 <= SyncMessage.maximumBytes else { return }
        bytes.append(contentsOf: HMAC<SHA256>.authenticationCode(for: bytes, using: key))
        for var target in targets {
            _ = bytes.withUnsafeBytes { raw in
                withUnsafePointer(to: &target) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        sendto(descriptor, raw.baseAddress, raw.count, Int32(MSG_DONTWAIT), $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                    }
                }
            }
        }
    }

    /// The next message whose seal is the key's (nil: none within 0.1 s, or one that was not), and when it
    /// arrived on `clock`.
    func receive(stamp: () -> Double) -> (SyncMessage, Double)? {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        let arrived = stamp()
        guard count > 32, count <= SyncMessage.maximumBytes else { return nil }
        let body = Array(buffer[..<(count - 32)])
        let code = Array(buffer[(count - 32)..<count])
        guard HMAC<SHA256>.isValidAuthenticationCode(code, authenticating: body, using: key),
            let json = try? JSON.parse(body), let message = SyncMessage(json: json)
        else { return nil }
        return (message, arrived)
    }
}
