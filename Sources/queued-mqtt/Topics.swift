// The bridge's topics (Protocol/queued.asyncapi.yaml): one place for their names, so the AsyncAPI document,
// the bridge and `queuectl fleet` agree.

struct Topics: Sendable {
    let prefix: String
    let player: String
    let groups: [String]

    /// Retained: online/offline (the Last Will).
    var status: String { prefix + player + "/status" }
    /// Retained, written by the operator: the player's own desired state.
    var desired: String { prefix + player + "/desired" }
    /// Retained: what the player is showing and how far it applied the desired state.
    var reported: String { prefix + player + "/reported" }
    /// QoS 1: proof of play, one record per play.
    var events: String { prefix + player + "/events" }
    var rpcRequest: String { prefix + player + "/rpc/req" }
    var rpcResponse: String { prefix + player + "/rpc/res" }

    func groupDesired(_ group: String) -> String { prefix + "group/" + group + "/desired" }
}
