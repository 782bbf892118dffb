import EthereumPrimitives
import EthereumTransactions
import Synchronization

/// Senders recovered ahead of their transactions' submission (``DevChain/recoverSenders(_:)``), by transaction hash:
/// a JSON-RPC batch of raw transactions has them all recovered on every core at once, and each submission takes its
/// own. Bounded: at most ``capacity`` wait, and a batch larger than that simply recovers the rest one at a time.
final class RecoveredSenders: Sendable {
    static let capacity = 4096
    private let entries = Mutex<[Bytes32: Result<Address, TransactionError>]>([:])

    /// Keeps `recovered` until taken (dropping what an earlier batch left unused, when full).
    func store(_ recovered: [(Bytes32, Result<Address, TransactionError>)]) {
        entries.withLock { entries in
            if entries.count + recovered.count > Self.capacity { entries.removeAll(keepingCapacity: true) }
            for (hash, result) in recovered.prefix(Self.capacity) { entries[hash] = result }
        }
    }

    /// The sender recovered for `hash`, removed; nil when there is none.
    func take(_ hash: Bytes32) -> Result<Address, TransactionError>? {
        entries.withLock { entries in entries.isEmpty ? nil : entries.removeValue(forKey: hash) }
    }
}
