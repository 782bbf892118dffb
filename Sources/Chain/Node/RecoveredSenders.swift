import EthereumPrimitives
import EthereumTransactions
import Synchronization

/// Senders recovered ahead of their transactions' submission (``DevChain/recoverSenders(_:)``), by transaction hash.
///
/// A JSON-RPC batch of raw transactions queues its hashes here and a worker thread recovers them in order while the
/// chain mines the first ones: each submission then takes its sender ready. A submission that comes before the worker
/// has started its transaction takes that transaction off the queue and recovers it itself; one that comes while the
/// worker is recovering it recovers it too, and the worker's answer is dropped. So nothing waits, and nothing is left
/// behind: an entry is removed by the submission, or, for a batch request that never submits it, when the store is
/// full. Bounded: at most ``capacity`` entries; a batch larger than that queues its first ``capacity`` transactions.
package final class RecoveredSenders: Sendable {
    package static let capacity = 4096

    private enum Entry {
        /// Waiting for the worker.
        case queued
        /// The worker is recovering it.
        case recovering
        /// The submission came while the worker was recovering it: the worker's answer is dropped.
        case abandoned
        /// Recovered, waiting for its submission.
        case recovered(Result<Address, TransactionError>)
    }

    private let entries = Mutex<[Bytes32: Entry]>([:])

    package init() {}

    /// Queues `hashes` for the worker; returns the ones queued (all, unless more than ``capacity`` are asked for).
    /// When the new ones do not fit, what earlier batches left is dropped first.
    package func enqueue(_ hashes: [Bytes32]) -> [Bytes32] {
        let queued = Array(hashes.prefix(Self.capacity))
        entries.withLock { entries in
            if entries.count + queued.count > Self.capacity {
                // A worker finishing an entry dropped here finds it gone and keeps nothing.
                entries.removeAll(keepingCapacity: true)
            }
            for hash in queued where entries[hash] == nil { entries[hash] = .queued }
        }
        return queued
    }

    /// For the worker: true when `hash` is still queued (it is now being recovered), false when its submission took it
    /// (or the store dropped it).
    package func claim(_ hash: Bytes32) -> Bool {
        entries.withLock { entries in
            guard case .queued? = entries[hash] else { return false }
            entries[hash] = .recovering
            return true
        }
    }

    /// For the worker: the sender of a claimed `hash`, kept for its submission unless that came meanwhile.
    package func finish(_ hash: Bytes32, _ result: Result<Address, TransactionError>) {
        entries.withLock { entries in
            switch entries[hash] {
            case .recovering?: entries[hash] = .recovered(result)
            case .abandoned?: entries.removeValue(forKey: hash)
            default: break  // dropped when the store was full
            }
        }
    }

    /// For the submission: the sender recovered for `hash`, removed; nil when the submission must recover it itself
    /// (never queued, still queued — then no worker will — or being recovered by the worker right now).
    package func take(_ hash: Bytes32) -> Result<Address, TransactionError>? {
        entries.withLock { entries in
            guard !entries.isEmpty, let entry = entries[hash] else { return nil }
            switch entry {
            case .recovered(let result):
                entries.removeValue(forKey: hash)
                return result
            case .queued, .abandoned:
                entries.removeValue(forKey: hash)
                return nil
            case .recovering:
                entries[hash] = .abandoned
                return nil
            }
        }
    }

    /// How many entries the store holds (tests).
    package var count: Int { entries.withLock { $0.count } }

    /// How many entries wait for the worker or are being recovered (tests).
    package var unfinished: Int {
        entries.withLock { entries in
            entries.values.count { entry in
                switch entry {
                case .queued, .recovering: true
                case .abandoned, .recovered: false
                }
            }
        }
    }
}
