import DevNode
import EthereumPrimitives
import EthereumWire

/// A JSON-RPC transport that also delivers `eth_subscription` notifications: a WebSocket connection
/// (``WebSocketTransport``) or the embedded chain in this process (``InProcessSubscriptions``).
protocol SubscribingTransport: RPCTransport {
    /// The `params` member of each `eth_subscription` message (`{"subscription": ID, "result": …}`), in order;
    /// finishes when the connection ends.
    var notifications: AsyncStream<JSONValue> { get }
    /// Why the connection ended, nil while it is open.
    var endReason: String? { get async }
    /// Ends the connection and its subscriptions.
    func close() async
}

/// Subscriptions on the embedded chain opened in this process: the node's own ``NodeRPCHandler`` with one
/// ``SubscriptionSession``, exactly what a WebSocket connection to `carchain node` gets, without the socket.
struct InProcessSubscriptions: SubscribingTransport {
    let handler: NodeRPCHandler
    let session: SubscriptionSession
    let endpoint: String
    let notifications: AsyncStream<JSONValue>

    init(handler: NodeRPCHandler, endpoint: String) {
        self.handler = handler
        self.endpoint = endpoint
        let session = SubscriptionSession(chain: handler.chain)
        self.session = session
        // The session queues answers and notifications alike; only notifications come through it here (answers
        // are returned by `handle`), so each queued message is an `eth_subscription`.
        notifications = AsyncStream { continuation in
            let reader = Task {
                for await text in await session.messages {
                    if let params = (try? JSONValue(parsing: Array(text.utf8)))?["params"] { continuation.yield(params) }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in reader.cancel() }
        }
    }

    func send(_ body: [UInt8]) async throws(TransportError) -> [UInt8] {
        if Task.isCancelled { throw .cancelled }
        return await handler.handle(body, subscriptions: session)
    }

    var endReason: String? {
        get async { await session.closeReason }
    }

    func close() async { await session.close() }
}
