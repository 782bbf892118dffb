import Chain
import EthereumPrimitives
import EthereumTransactions
import EthereumWire

/// geth's `txpool_content`, `txpool_contentFrom` and `txpool_status`: the pool split into `pending` (nonces
/// that follow the sender's without a gap) and `queued`, per sender (checksummed, as geth's map keys are)
/// and then by nonce (decimal), each transaction as `eth_getTransactionByHash` shows a pending one.
extension NodeRPCHandler {
    func txpoolContent(from sender: Address?) async -> JSONValue {
        let content = await chain.poolContent(sender: sender)
        if sender != nil {
            let pending = content.pending.values.first ?? [:]
            let queued = content.queued.values.first ?? [:]
            return .object([("pending", Self.byNonce(pending, sender)), ("queued", Self.byNonce(queued, sender))])
        }
        return .object([("pending", Self.bySender(content.pending)), ("queued", Self.bySender(content.queued))])
    }

    func txpoolStatus() async -> JSONValue {
        let content = await chain.poolContent()
        return .object([("pending", NodeWire.q(content.pendingCount)), ("queued", NodeWire.q(content.queuedCount))])
    }

    private static func bySender(_ transactions: [Address: [UInt64: SignedTransaction]]) -> JSONValue {
        .object(transactions.sorted { $0.key.lowercasedHex < $1.key.lowercasedHex }.map { sender, transactions in
            (key: sender.checksummed, value: Self.byNonce(transactions, sender))
        })
    }

    private static func byNonce(_ transactions: [UInt64: SignedTransaction], _ sender: Address?) -> JSONValue {
        .object(transactions.sorted { $0.key < $1.key }.map { nonce, signed in
            let from = sender ?? .zero
            return (key: String(nonce), value: NodeWire.transaction(signed, location: TransactionLocation(sender: from), baseFee: nil))
        })
    }
}
