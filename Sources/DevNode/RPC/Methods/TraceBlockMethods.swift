import Chain
import EVM
import EthereumPrimitives
import EthereumWire

/// `debug_traceBlockByNumber` and `debug_traceBlockByHash` with geth's struct logger: `[{txHash, result}]`,
/// one entry per transaction, each result as `debug_traceTransaction` writes it.
extension NodeRPCHandler {
    func traceBlock(_ id: BlockID, options: StructLogOptions, timeout: Duration?) async throws(JSONRPCErrorObject) -> JSONValue {
        var callLimits = limits.calls
        if let timeout { callLimits.timeout = callLimits.timeout.map { Swift.min($0, timeout) } ?? timeout }
        let traces = try await onChain { [callLimits, traceLimits = limits.trace] () async throws(ChainError) in
            try await chain.traceBlock(id, options: options, limits: callLimits, traceLimits: traceLimits)
        }
        return .array(traces.map { .object([("txHash", NodeWire.hash($0.transactionHash)), ("result", NodeWire.trace($0.trace))]) })
    }
}

extension RPCRequest {
    /// `debug_traceBlockByNumber`'s block: a number or a tag, not a hash (geth's rpc.BlockNumber).
    static func traceBlockNumber(_ p: RPCParams) throws(JSONRPCErrorObject) -> BlockID {
        let id = try p.block(0)
        if case .hash = id { throw .invalidParams("invalid argument 0: hex string has length 64, want a block number") }
        return id
    }
}
