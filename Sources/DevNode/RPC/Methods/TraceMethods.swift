import Chain
import EVM
import EthereumPrimitives
import EthereumTransactions
import EthereumWire

/// `debug_traceTransaction`, `debug_traceBlockByNumber` / `debug_traceBlockByHash` and `debug_traceCall`, under the
/// tracer the trace config names (``TraceConfig``), with the node's call limits (`timeout` can only shorten the
/// time limit) and trace size limit. A block's traces are `[{txHash, result}]`, each as `debug_traceTransaction`
/// gives it.
extension NodeRPCHandler {
    func traceTransaction(_ hash: Bytes32, _ config: TraceConfig) async throws(JSONRPCErrorObject) -> JSONValue {
        let result = try await onChain { [callLimits = config.limits(limits.calls), traceLimits = limits.trace] () async throws(ChainError) in
            try await chain.trace(transaction: hash, tracer: config.tracer, limits: callLimits, traceLimits: traceLimits)
        }
        return NodeWire.trace(result)
    }

    func traceBlock(_ id: BlockID, _ config: TraceConfig) async throws(JSONRPCErrorObject) -> JSONValue {
        let traces = try await onChain { [callLimits = config.limits(limits.calls), traceLimits = limits.trace] () async throws(ChainError) in
            try await chain.traceBlock(id, tracer: config.tracer, limits: callLimits, traceLimits: traceLimits)
        }
        return .array(traces.map { .object([("txHash", NodeWire.hash($0.transactionHash)), ("result", NodeWire.trace($0.result))]) })
    }

    func traceCall(_ request: CallRequest, at block: BlockID, _ config: TraceConfig) async throws(JSONRPCErrorObject) -> JSONValue {
        let result = try await onChain { [callLimits = config.limits(limits.calls), traceLimits = limits.trace] () async throws(ChainError) in
            try await chain.traceCall(
                request, at: block, overrides: config.stateOverrides, blockOverrides: config.blockOverrides,
                tracer: config.tracer, limits: callLimits, traceLimits: traceLimits)
        }
        return NodeWire.trace(result)
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
