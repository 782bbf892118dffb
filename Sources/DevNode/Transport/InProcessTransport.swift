import EthereumWire

/// An ``RPCTransport`` that hands request bodies straight to a ``NodeRPCHandler`` in the same
/// process: the CLI's embedded chain speaks the same JSON-RPC as a remote node, with no sockets.
public struct InProcessTransport: RPCTransport {
    /// The handler answering the requests.
    public let handler: NodeRPCHandler
    /// Where requests go, for error messages (e.g. `embedded chain at /home/me/.carchain/chain`).
    public let endpoint: String

    /// A transport to `handler`; `endpoint` names it in error messages.
    public init(handler: NodeRPCHandler, endpoint: String) {
        self.handler = handler
        self.endpoint = endpoint
    }

    public func send(_ body: [UInt8]) async throws(TransportError) -> [UInt8] {
        if Task.isCancelled { throw .cancelled }
        return await handler.handle(body)
    }
}
