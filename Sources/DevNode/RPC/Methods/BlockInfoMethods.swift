import Chain
import EthereumPrimitives
import EthereumWire

/// `eth_getBlockReceipts`, `eth_baseFee`, `eth_blobBaseFee` and `eth_capabilities`, as geth answers them.
extension NodeRPCHandler {
    /// Every receipt of a block, in order, each as `eth_getTransactionReceipt` writes it; null for an unknown block.
    /// At `pending`, the receipts the pending block's transactions would get (geth's `miner.Pending` receipts).
    func blockReceipts(_ id: BlockID) async throws(JSONRPCErrorObject) -> JSONValue {
        guard let (block, receipts) = try await onChain({ () async throws(ChainError) in try await chain.blockWithReceipts(id) })
        else { return .null }
        guard receipts.count == block.transactions.count else {
            throw JSONRPCErrorObject(
                code: JSONRPCErrorCode.serverError,
                message: "receipts length mismatch: \(block.transactions.count) vs \(receipts.count)")
        }
        return .array(receipts.map(NodeWire.receipt))
    }

    /// The base fee of the next block; null before London.
    func baseFee() async -> JSONValue {
        await chain.pendingBaseFee().map { NodeWire.q($0) } ?? .null
    }

    /// The blob base fee of the head block (geth: from its excess blob gas, under its fork); null before Cancun.
    func blobBaseFee() async -> JSONValue {
        await chain.headBlobBaseFee().map { NodeWire.q($0) } ?? .null
    }

    /// What history the node serves (execution-apis #755): the head, and for state, transactions, logs,
    /// receipts, blocks and state proofs the oldest block available. This node keeps everything from genesis
    /// (state through its reverse diffs) and deletes nothing, so each is enabled from block 0 without a
    /// deletion strategy.
    func capabilities() async throws(JSONRPCErrorObject) -> JSONValue {
        guard let head = try await onChain({ () async throws(ChainError) in try await chain.block(.latest) }) else { return .null }
        let everything = JSONValue.object([("disabled", .bool(false)), ("oldestBlock", NodeWire.q(UInt64(0)))])
        return .object([
            ("head", .object([("number", NodeWire.q(head.number)), ("hash", NodeWire.hash(head.hash))])),
            ("state", everything), ("tx", everything), ("logs", everything), ("receipts", everything),
            ("blocks", everything), ("stateproofs", everything),
        ])
    }
}
