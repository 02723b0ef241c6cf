// The wire types are built from JSONText's values: every user of QueueRPC sees them as its own, as it did
// when they lived here (the state store uses JSONText alone, without the RPC layer).

@_exported import JSONText
