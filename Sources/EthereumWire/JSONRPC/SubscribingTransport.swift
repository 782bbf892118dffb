import EthereumPrimitives

/// A JSON-RPC transport that also delivers `eth_subscription` notifications: a WebSocket connection
/// (EthereumRPC's `WebSocketTransport`) or a node in this process (DevNode's `InProcessSubscriptions`). One
/// connection: when it ends, its subscriptions end with it (EthereumRPC's `RPCSubscriptions` reconnects).
public protocol SubscribingTransport: RPCTransport {
    /// The `params` member of each `eth_subscription` message (`{"subscription": ID, "result": …}`), in order;
    /// finishes when the connection ends.
    var notifications: AsyncStream<JSONValue> { get }
    /// Why the connection ended, nil while it is open.
    var endReason: String? { get async }
    /// Ends the connection and its subscriptions.
    func close() async
}
