// A connection for the programs that carry requests from a network (queued-web's page, queued-mqtt's fleet):
// before anything else it sends `session.confine`, so the daemon itself refuses every local path outside the
// door's folders — an item, an image layer, a playlist's entry, a directory's file — whatever the door's own
// check missed. A connection whose confinement failed is closed, never used.

import QueueRPC

extension QueueClient {
    /// Connects and confines (nil `confinement`: the door lets anything be named, and the connection is plain).
    public static func confined(
        socketPath: String, confinement: API.SessionConfine.Params?, timeout: Double
    ) throws(ClientError) -> QueueClient {
        let client = try QueueClient(socketPath: socketPath, timeout: timeout)
        guard let confinement else { return client }
        do {
            _ = try client.call(API.SessionConfine.self, confinement)
        } catch {
            client.close()
            throw error
        }
        return client
    }
}
