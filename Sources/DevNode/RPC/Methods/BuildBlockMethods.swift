import Chain
import EthereumPrimitives
import EthereumTransactions
import EthereumWire

/// `testing_buildBlockV1` (geth's testing namespace): `[parentHash, payloadAttributes, transactions|null,
/// extraData|null]` builds a block on the head and answers the Engine API's payload envelope
/// (`executionPayload`, `blockValue`, `blobsBundle`, `executionRequests`, `shouldOverrideBuilder`) without
/// inserting it. Transactions `null` takes the pool's; `[]` builds an empty block.
extension RPCRequest {
    /// The decoded parameters.
    public struct BuildBlock: Sendable, Equatable {
        public var parentHash: Bytes32
        public var attributes: DevChain.PayloadAttributes
        public var transactions: [[UInt8]]?
        public var extraData: [UInt8]
    }

    static func buildBlock(_ p: RPCParams) throws(JSONRPCErrorObject) -> BuildBlock {
        try p.expect(2, 4)
        let parent = try p.hash(0)
        let attributes = try RPCParams.wire(1) { () throws(WireError) in
            let o = try p.items[1].wireObject("payloadAttributes")
            let withdrawals = try o.optional("withdrawals").map { list throws(WireError) in
                try list.wireArray("withdrawals").map { item throws(WireError) in
                    let w = try item.wireObject("withdrawal")
                    return Withdrawal(
                        index: try w.uint64("index"), validatorIndex: try w.uint64("validatorIndex"),
                        address: try w.address("address"), amount: try w.uint64("amount"))
                }
            }
            return DevChain.PayloadAttributes(
                timestamp: try o.uint64("timestamp"), prevRandao: try o.bytes32("prevRandao"),
                feeRecipient: try o.address("suggestedFeeRecipient"), withdrawals: withdrawals,
                parentBeaconBlockRoot: try o.optionalBytes32("parentBeaconBlockRoot"))
        }
        var transactions: [[UInt8]]?
        if let list = p.optional(2) {
            transactions = try RPCParams.wire(2) { () throws(WireError) in
                try list.wireArray("transactions").map { item throws(WireError) in try item.wireBytes("transaction") }
            }
        }
        let extra = p.optional(3) == nil ? [] : try p.bytes(3)
        return BuildBlock(parentHash: parent, attributes: attributes, transactions: transactions, extraData: extra)
    }
}

extension NodeRPCHandler {
    func buildBlock(_ request: RPCRequest.BuildBlock) async throws(JSONRPCErrorObject) -> JSONValue {
        var transactions: [SignedTransaction]?
        if let raw = request.transactions {
            var decoded: [SignedTransaction] = []
            for (i, bytes) in raw.enumerated() {
                do { decoded.append(try SignedTransaction.decode(bytes)) } catch {
                    throw .invalidParams("invalid transaction \(i): \(error.description)")
                }
            }
            transactions = decoded
        }
        let built = try await onChain { [transactions] () async throws(ChainError) in
            try await chain.buildPayload(
                parentHash: request.parentHash, attributes: request.attributes, transactions: transactions,
                extraData: request.extraData)
        }
        let block = built.block
        let h = block.header
        var payload: [(key: String, value: JSONValue)] = [
            ("parentHash", NodeWire.hash(h.parentHash)), ("feeRecipient", NodeWire.address(h.coinbase)),
            ("stateRoot", NodeWire.hash(h.stateRoot)), ("receiptsRoot", NodeWire.hash(h.receiptsRoot)),
            ("logsBloom", NodeWire.data(h.logsBloom.bytes)), ("prevRandao", NodeWire.hash(h.mixHash)),
            ("blockNumber", NodeWire.q(h.number)), ("gasLimit", NodeWire.q(h.gasLimit)), ("gasUsed", NodeWire.q(h.gasUsed)),
            ("timestamp", NodeWire.q(h.timestamp)), ("extraData", NodeWire.data(h.extraData)),
            ("baseFeePerGas", NodeWire.q(h.baseFeePerGas ?? .zero)), ("blockHash", NodeWire.hash(block.hash)),
            ("transactions", .array(block.transactions.map { NodeWire.data($0.encoded) })),
        ]
        if let withdrawals = built.withdrawals {
            payload.append(("withdrawals", .array(withdrawals.map { w in
                .object([
                    ("index", NodeWire.q(w.index)), ("validatorIndex", NodeWire.q(w.validatorIndex)),
                    ("address", NodeWire.address(w.address)), ("amount", NodeWire.q(w.amount)),
                ])
            })))
        }
        if let used = h.blobGasUsed { payload.append(("blobGasUsed", NodeWire.q(used))) }
        if let excess = h.excessBlobGas { payload.append(("excessBlobGas", NodeWire.q(excess))) }
        // No blob sidecars reach this node (the pool keeps transactions without them), so the bundle is empty.
        let bundle = JSONValue.object([("commitments", .array([])), ("proofs", .array([])), ("blobs", .array([]))])
        return .object([
            ("executionPayload", .object(payload)), ("blockValue", NodeWire.q(built.blockValue)), ("blobsBundle", bundle),
            ("executionRequests", built.requests.map { .array($0.map(NodeWire.data)) } ?? .null),
            ("shouldOverrideBuilder", .bool(false)),
        ])
    }
}
