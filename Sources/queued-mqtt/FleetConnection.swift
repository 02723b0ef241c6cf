// A daemon connection that carries what the fleet asks for (forwarded requests, a document's application):
// before anything else it sends `session.confine` with the door's confinement (CallerPolicy), so the daemon
// itself refuses every local path outside it — an item, an image layer, a playlist's entry, a directory's
// file — whatever the bridge's own check missed. A connection whose confinement failed is closed, never used.

import CallerPolicy
import QueueClient
import QueueRPC

extension QueueClient {
    static func fleetConnection(
        socketPath: String, policy: CallerPolicy, timeout: Double
    ) throws(ClientError) -> QueueClient {
        let client = try QueueClient(socketPath: socketPath, timeout: timeout)
        if let confinement = policy.confinement {
            do {
                _ = try client.call(API.SessionConfine.self, confinement)
            } catch {
                client.close()
                throw error
            }
        }
        return client
    }
}
