import EthereumPrimitives
import EthereumTransactions

/// The pool as geth's `txpool_*` methods show it.
extension DevChain {
    /// The pool split as geth splits it: per sender, `pending` holds the transactions whose nonces follow the
    /// sender's state nonce without a gap (the next block could include them in order), `queued` the rest.
    public struct PoolContent: Sendable {
        /// Per sender, by nonce.
        public var pending: [Address: [UInt64: SignedTransaction]] = [:]
        /// Per sender, by nonce.
        public var queued: [Address: [UInt64: SignedTransaction]] = [:]

        /// The number of pending transactions.
        public var pendingCount: Int { pending.values.reduce(0) { $0 + $1.count } }
        /// The number of queued transactions.
        public var queuedCount: Int { queued.values.reduce(0) { $0 + $1.count } }
    }

    /// The pool's content; with `sender`, only that sender's transactions.
    public func poolContent(sender: Address? = nil) -> PoolContent {
        var content = PoolContent()
        for (address, byNonce) in pool.bySender where sender == nil || sender == address {
            let stateNonce = working.nonce(of: address)
            var next: UInt64? = stateNonce  // nil once a gap was passed: everything after it is queued
            for nonce in byNonce.keys.sorted() where nonce >= stateNonce {  // spent ones go when a block is built
                guard let pooled = byNonce[nonce] else { continue }
                if nonce == next {
                    content.pending[address, default: [:]][nonce] = pooled.signed
                    next = nonce == .max ? nil : nonce + 1
                } else {
                    content.queued[address, default: [:]][nonce] = pooled.signed
                    next = nil
                }
            }
        }
        return content
    }
}
