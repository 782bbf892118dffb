import EthereumPrimitives
import EthereumTransactions

/// A transaction waiting to be mined, with its sender and arrival order.
struct PooledTransaction: Sendable {
    var signed: SignedTransaction
    var sender: Address
    var arrival: UInt64
}

/// The pending transactions, by sender and nonce. A block takes, among the senders whose next
/// nonce is pooled, the transaction paying the highest priority fee (earliest arrival on ties).
struct TransactionPool: Sendable {
    private(set) var bySender: [Address: [UInt64: PooledTransaction]] = [:]
    private(set) var byHash: [Bytes32: PooledTransaction] = [:]
    private var arrivals: UInt64 = 0

    var isEmpty: Bool { byHash.isEmpty }
    var count: Int { byHash.count }

    func transaction(_ hash: Bytes32) -> PooledTransaction? { byHash[hash] }

    func transaction(sender: Address, nonce: UInt64) -> PooledTransaction? { bySender[sender]?[nonce] }

    /// All pooled transactions, in arrival order.
    var all: [PooledTransaction] { byHash.values.sorted { $0.arrival < $1.arrival } }

    /// Adds (or replaces the same sender and nonce).
    mutating func add(_ signed: SignedTransaction, sender: Address) {
        if let old = bySender[sender]?[signed.nonce] { byHash[old.signed.hash] = nil }
        arrivals += 1
        let pooled = PooledTransaction(signed: signed, sender: sender, arrival: arrivals)
        bySender[sender, default: [:]][signed.nonce] = pooled
        byHash[signed.hash] = pooled
    }

    /// Removes a transaction.
    mutating func remove(_ hash: Bytes32) {
        guard let pooled = byHash.removeValue(forKey: hash) else { return }
        bySender[pooled.sender]?[pooled.signed.nonce] = nil
        if bySender[pooled.sender]?.isEmpty == true { bySender[pooled.sender] = nil }
    }

    /// The next nonce of `sender` counting its consecutive pooled transactions from `stateNonce`.
    func pendingNonce(_ sender: Address, stateNonce: UInt64) -> UInt64 {
        guard let pending = bySender[sender] else { return stateNonce }
        var nonce = stateNonce
        while pending[nonce] != nil { nonce += 1 }
        return nonce
    }

    /// Drops transactions whose nonce is below their sender's (mined elsewhere or replaced by a
    /// nonce change).
    mutating func dropStale(nonce: (Address) -> UInt64) {
        for (sender, pending) in bySender {
            let current = nonce(sender)
            for (n, pooled) in pending where n < current { remove(pooled.signed.hash) }
        }
    }

    /// The best executable transaction: the next nonce of some sender, highest priority fee at
    /// `baseFee` first, then earliest arrival; `skipping` excludes transactions that did not fit.
    func best(nonce: (Address) -> UInt64, baseFee: UInt256?, skipping: Set<Bytes32>) -> PooledTransaction? {
        var best: PooledTransaction?
        var bestTip = UInt256.zero
        for (sender, pending) in bySender {
            guard let candidate = pending[nonce(sender)], !skipping.contains(candidate.signed.hash) else { continue }
            let tip = candidate.signed.transaction.effectivePriorityFee(baseFee: baseFee) ?? .zero
            if let current = best {
                if tip < bestTip || (tip == bestTip && candidate.arrival > current.arrival) { continue }
            }
            best = candidate
            bestTip = tip
        }
        return best
    }
}
