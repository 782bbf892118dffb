import EthereumPrimitives
import EthereumWire

/// Subscriptions on the embedded chain opened in this process: the node's own ``NodeRPCHandler`` with one
/// ``SubscriptionSession``, exactly what a WebSocket connection to `carchain node` gets, without the socket.
public struct InProcessSubscriptions: SubscribingTransport {
    /// The node's handler.
    public let handler: NodeRPCHandler
    /// This connection's subscriptions.
    public let session: SubscriptionSession
    public let endpoint: String
    public let notifications: AsyncStream<JSONValue>

    /// A new connection to `handler`'s chain (a session of its own).
    public init(handler: NodeRPCHandler, endpoint: String) {
        self.handler = handler
        self.endpoint = endpoint
        let session = SubscriptionSession(chain: handler.chain)
        self.session = session
        // The session queues answers and notifications alike; only notifications come through it here (answers
        // are returned by `handle`), so each queued message is an `eth_subscription`.
        notifications = AsyncStream { continuation in
            let reader = Task {
                for await text in session.messages {
                    if let params = (try? JSONValue(parsing: Array(text.utf8)))?["params"] { continuation.yield(params) }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in reader.cancel() }
        }
    }

    public func send(_ body: [UInt8]) async throws(TransportError) -> [UInt8] {
        if Task.isCancelled { throw .cancelled }
        return await handler.handle(body, subscriptions: session)
    }

    public var endReason: String? {
        get async { await session.closeReason }
    }

    public func close() async { await session.close() }
}
