import EVM
import EthereumPrimitives
import EthereumTransactions
import Foundation

/// The history of a chain in memory (``ChainStorage/memory``: `--ephemeral`, `TestChain`): each block as the chain
/// made it (``ChainStore/BlockWrite`` without its state rows, which only a file needs), by number, with indexes of
/// block and transaction hashes. The transactions are kept as their raw bytes (which the signed transaction already
/// holds) and, once ``decodedDiffs`` newer blocks follow, the reverse diff as RLP: each a fraction of its decoded size,
/// and only reading a block older than the chain caches decodes them. A short-lived chain (a test's) never encodes a
/// diff. Nothing is copied to another thread.
final class MemoryChainHistory: @unchecked Sendable {
    /// A kept block (a class: the dictionary holds a reference, not the block's several hundred bytes of fields with
    /// its spare capacity).
    final class Kept: @unchecked Sendable {
        let header: BlockHeader
        let hash: Bytes32
        /// The raw transactions and their hashes.
        let transactions: [[UInt8]]
        let transactionHashes: [Bytes32]
        let senders: [Address]
        let receipts: [StoredReceipt]
        let logs: [(transactionIndex: Int, log: Log)]
        /// The reverse diff, decoded while the block is recent (sharing the chain's cached copy), then as RLP;
        /// changed only under the history's lock.
        var diff: Diff
        let ommers: [BlockHeader]
        let withdrawals: [Withdrawal]
        /// Nil when the block was mined on no dev changes.
        let devChanges: PendingDevState?

        init(_ write: ChainStore.BlockWrite) {
            header = write.header
            hash = write.hash
            transactions = write.transactions.map(\.encoded)
            transactionHashes = write.transactions.map(\.hash)
            senders = write.senders
            receipts = write.receipts
            logs = write.logs
            diff = .decoded(write.diff)
            ommers = write.ommers
            withdrawals = write.withdrawals
            devChanges = write.devChanges?.isEmpty == false ? write.devChanges : nil
        }
    }

    enum Diff {
        case decoded(StateDiff)
        case encoded([UInt8])
    }

    /// How many of the newest blocks keep their reverse diff decoded.
    static let decodedDiffs: UInt64 = 64

    private let lock = NSLock()
    /// Blocks by number (a fork's first block is its fork point, not 0; numbers are consecutive from the lowest).
    private var blocks: [UInt64: Kept] = [:]
    private var numbersByHash: [Bytes32: UInt64] = [:]
    private var transactionsByHash: [Bytes32: (block: UInt64, index: Int)] = [:]
    private var metadata: [String: [UInt8]] = [:]
    private var lowest: UInt64?
    private var highest: UInt64?

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    func meta(_ key: String) -> [UInt8]? { locked { metadata[key] } }

    func setMeta(_ values: [String: [UInt8]]) {
        locked { metadata.merge(values) { _, new in new } }
    }

    /// Keeps `writes` (consecutive blocks, oldest first); a block number already held is replaced, as the database's
    /// rows would be.
    func add(_ writes: some Collection<ChainStore.BlockWrite>) {
        locked {
            for write in writes {
                let number = write.header.number
                forget(number)
                for (index, transaction) in write.transactions.enumerated() {
                    transactionsByHash[transaction.hash] = (number, index)
                }
                numbersByHash[write.hash] = number
                blocks[number] = Kept(write)
                if number >= Self.decodedDiffs, let old = blocks[number - Self.decodedDiffs], case .decoded(let diff) = old.diff {
                    old.diff = .encoded(diff.encoded)
                }
                lowest = Swift.min(lowest ?? number, number)
                highest = Swift.max(highest ?? number, number)
            }
        }
    }

    /// Drops block `number` and its index entries (the lock is held).
    private func forget(_ number: UInt64) {
        guard let block = blocks.removeValue(forKey: number) else { return }
        numbersByHash.removeValue(forKey: block.hash)
        for (index, hash) in block.transactionHashes.enumerated()
        where transactionsByHash[hash].map({ $0.block == number && $0.index == index }) == true {
            transactionsByHash.removeValue(forKey: hash)
        }
    }

    /// Drops every block above `number`.
    func rewind(to number: UInt64) {
        locked {
            guard let top = highest, top > number else { return }
            for n in (number &+ 1)...top { forget(n) }
            if let low = lowest, low > number {
                lowest = nil
                highest = nil
            } else {
                highest = number
            }
        }
    }

    var headNumber: UInt64? { locked { highest } }

    func block(_ number: UInt64) -> Kept? { locked { blocks[number] } }

    /// Block `number`'s transactions and senders, decoded.
    func transactions(block number: UInt64) throws(ChainError) -> [(SignedTransaction, Address)] {
        guard let block = block(number) else { return [] }
        var out: [(SignedTransaction, Address)] = []
        out.reserveCapacity(block.transactions.count)
        for (raw, sender) in zip(block.transactions, block.senders) {
            do { out.append((try SignedTransaction.decode(raw), sender)) } catch {
                throw .storage("block \(number): bad transaction encoding: \(error)")
            }
        }
        return out
    }

    func number(hash: Bytes32) -> UInt64? { locked { numbersByHash[hash] } }

    func transactionPosition(hash: Bytes32) -> (block: UInt64, index: Int)? { locked { transactionsByHash[hash] } }

    /// The numbers of the held blocks among `from...to`, in order (the lock is held).
    private func held(from: UInt64, to: UInt64) -> ClosedRange<UInt64>? {
        guard let low = lowest, let high = highest else { return nil }
        let first = Swift.max(from, low)
        let last = Swift.min(to, high)
        return first <= last ? first...last : nil
    }

    func hashes(from: UInt64) -> [Bytes32] {
        locked { held(from: from, to: .max).map { range in range.compactMap { blocks[$0]?.hash } } ?? [] }
    }

    func diffs(from: UInt64, to: UInt64) throws(ChainError) -> [UInt64: StateDiff] {
        let kept: [(UInt64, Diff)] = locked {
            held(from: from, to: to).map { range in range.compactMap { n in blocks[n].map { (n, $0.diff) } } } ?? []
        }
        var out: [UInt64: StateDiff] = [:]
        for (number, diff) in kept {
            switch diff {
            case .decoded(let decoded): out[number] = decoded
            case .encoded(let bytes):
                do { out[number] = try StateDiff(encoded: bytes) } catch {
                    throw .storage("block \(number): bad state diff: \(error)")
                }
            }
        }
        return out
    }

    func blocksWithDevChanges(from: UInt64, to: UInt64) -> [UInt64] {
        locked { held(from: from, to: to).map { range in range.filter { blocks[$0]?.devChanges != nil } } ?? [] }
    }

    /// The logs of `from...to` that ``LogFilter/matches(_:)`` `addresses` and the first four topic positions (a log has
    /// at most four, as the SQLite store's columns).
    func logs(from: UInt64, to: UInt64, addresses: [Address], topics: [[Bytes32]]) -> [ChainStore.LogRow] {
        let filter = LogFilter(addresses: addresses, topics: Array(topics.prefix(4)))
        return locked {
            var out: [ChainStore.LogRow] = []
            guard let range = held(from: from, to: to) else { return out }
            for number in range {
                guard let block = blocks[number] else { continue }
                for (index, entry) in block.logs.enumerated()
                where entry.transactionIndex < block.transactions.count && filter.matches(entry.log) {
                    out.append(
                        ChainStore.LogRow(
                            blockNumber: number, logIndex: index, transactionIndex: entry.transactionIndex,
                            transactionHash: block.transactionHashes[entry.transactionIndex], log: entry.log,
                            blockHash: block.hash, blockTimestamp: block.header.timestamp))
                }
            }
            return out
        }
    }
}
