import EVM
import EthereumPrimitives
import EthereumTransactions
import Foundation

/// A dev chain's history: its blocks, transactions, receipts, logs, reverse state diffs and metadata, and on disk the
/// head's state rows. On disk that is ``SQLiteChainStore`` (`<dir>/chain.sqlite` and its journal); in memory
/// (`--ephemeral`, `TestChain`) ``MemoryChainHistory``, which keeps what a block adds as the chain made it — no
/// database, no writer thread, nothing encoded — since nothing reopens it.
///
/// Both answer the same questions the same way (`ChainStoreParityTests` runs one script on each and compares every
/// answer); the chain's actor serialises writes.
struct ChainStore: Sendable {
    private enum Backend: Sendable {
        case database(SQLiteChainStore)
        case memory(MemoryChainHistory)
    }

    private let backend: Backend

    /// Opens (creating if needed) the store for `storage`; on disk, first applies the journal's blocks the database
    /// does not hold yet.
    init(storage: ChainStorage) throws(ChainError) {
        switch storage {
        case .memory: backend = .memory(MemoryChainHistory())
        case .directory(let url): backend = .database(try SQLiteChainStore(directory: url))
        }
    }

    /// Everything one block adds to the history.
    struct BlockWrite: Sendable {
        var header: BlockHeader
        var hash: Bytes32
        var transactions: [SignedTransaction]
        var senders: [Address]
        var receipts: [StoredReceipt]
        /// The block's logs with their transaction index, in block order.
        var logs: [(transactionIndex: Int, log: Log)]
        var diff: StateDiff
        /// The state rows the block changes (written on disk only: in memory the chain's own state is the only copy).
        var state: CommittedState.Writes
        /// The ommer headers (imported proof-of-work blocks only).
        var ommers: [BlockHeader] = []
        /// The withdrawals (imported blocks only; a mined block's list is empty).
        var withdrawals: [Withdrawal] = []
        /// The dev changes the block was mined on (DevChain+PreBlockChanges.swift), nil when none.
        var devChanges: PendingDevState? = nil
    }

    /// A log as `eth_getLogs` reads it, with its block's hash and timestamp.
    struct LogRow: Sendable {
        var blockNumber: UInt64
        var logIndex: Int
        var transactionIndex: Int
        var transactionHash: Bytes32
        var log: Log
        var blockHash: Bytes32
        var blockTimestamp: UInt64
    }

    /// The database file, nil in memory.
    var path: String? {
        switch backend {
        case .database(let store): store.path
        case .memory: nil
        }
    }

    /// A metadata value.
    func meta(_ key: String) throws(ChainError) -> [UInt8]? {
        switch backend {
        case .database(let store): try store.meta(key)
        case .memory(let history): history.meta(key)
        }
    }

    /// Sets metadata values together (after every appended block is written).
    func setMeta(_ values: [String: [UInt8]]) throws(ChainError) {
        switch backend {
        case .database(let store): try store.setMeta(values)
        case .memory(let history): history.setMeta(values)
        }
    }

    /// Makes a mined block durable and queues it for the database: in the journal on return (on disk), in the
    /// database soon after; in memory, kept at once. Throws, with nothing kept, when the journal cannot be written or
    /// the database could not be written earlier.
    func append(_ block: BlockWrite) throws(ChainError) {
        switch backend {
        case .database(let store): try store.append(block)
        case .memory(let history): history.add(CollectionOfOne(block))
        }
    }

    /// Waits until the database holds every appended block.
    func drain() throws(ChainError) {
        if case .database(let store) = backend { try store.drain() }
    }

    /// The highest block number the history holds; appended blocks above it are still being written.
    var writtenThrough: UInt64 {
        switch backend {
        case .database(let store): store.writtenThrough
        case .memory(let history): history.headNumber ?? 0
        }
    }

    /// Writes a block and its state changes atomically, before returning.
    func commit(_ block: BlockWrite) throws(ChainError) {
        try commit(CollectionOfOne(block))
    }

    /// Writes consecutive blocks, oldest first, and their state changes together, before returning: all or none
    /// (after every appended block is written).
    func commit(_ blocks: some Collection<BlockWrite>) throws(ChainError) {
        switch backend {
        case .database(let store): try store.commit(blocks)
        case .memory(let history): history.add(blocks)
        }
    }

    /// Removes every block above `number` (and, on disk, turns the state rows back into block `number`'s).
    func rewind(to number: UInt64) throws(ChainError) {
        switch backend {
        case .database(let store): try store.rewind(to: number)
        case .memory(let history): history.rewind(to: number)
        }
    }

    /// The highest block number, nil for an empty history (after every appended block is written).
    func headNumber() throws(ChainError) -> UInt64? {
        switch backend {
        case .database(let store): try store.headNumber()
        case .memory(let history): history.headNumber
        }
    }

    /// A block's header.
    func header(number: UInt64) throws(ChainError) -> BlockHeader? {
        switch backend {
        case .database(let store): try store.header(number: number)
        case .memory(let history): history.block(number)?.header
        }
    }

    /// The number of the block with `hash`, among the blocks the history holds (appended blocks not yet written are
    /// not seen: the chain knows those).
    func number(hash: Bytes32) throws(ChainError) -> UInt64? {
        switch backend {
        case .database(let store): try store.number(hash: hash)
        case .memory(let history): history.number(hash: hash)
        }
    }

    /// The hash of block `number`.
    func hash(number: UInt64) throws(ChainError) -> Bytes32? {
        switch backend {
        case .database(let store): try store.hash(number: number)
        case .memory(let history): history.block(number)?.hash
        }
    }

    /// All block hashes from `from` up, in order (for the in-memory hash index).
    func hashes(from: UInt64) throws(ChainError) -> [Bytes32] {
        switch backend {
        case .database(let store): try store.hashes(from: from)
        case .memory(let history): history.hashes(from: from)
        }
    }

    /// A block's transactions and senders, in order.
    func transactions(block number: UInt64) throws(ChainError) -> [(SignedTransaction, Address)] {
        switch backend {
        case .database(let store): try store.transactions(block: number)
        case .memory(let history): try history.transactions(block: number)
        }
    }

    /// The ommers and withdrawals of block `number` (both empty when the block has none).
    func body(number: UInt64) throws(ChainError) -> (ommers: [BlockHeader], withdrawals: [Withdrawal]) {
        switch backend {
        case .database(let store): try store.body(number: number)
        case .memory(let history): history.block(number).map { ($0.ommers, $0.withdrawals) } ?? ([], [])
        }
    }

    /// Where a transaction is, among the blocks the history holds (the chain knows those not yet written).
    func transactionPosition(hash: Bytes32) throws(ChainError) -> (block: UInt64, index: Int)? {
        switch backend {
        case .database(let store): try store.transactionPosition(hash: hash)
        case .memory(let history): history.transactionPosition(hash: hash)
        }
    }

    /// A block's stored receipts, in order.
    func receipts(block number: UInt64) throws(ChainError) -> [StoredReceipt] {
        switch backend {
        case .database(let store): try store.receipts(block: number)
        case .memory(let history): history.block(number)?.receipts ?? []
        }
    }

    /// The logs of blocks `from...to` matching the addresses (empty: any) and the per-position topic sets (an empty
    /// set matches anything; a log needs at least as many topics as there are positions, up to four), in chain order.
    func logs(from: UInt64, to: UInt64, addresses: [Address], topics: [[Bytes32]]) throws(ChainError) -> [LogRow] {
        switch backend {
        case .database(let store): try store.logs(from: from, to: to, addresses: addresses, topics: topics)
        case .memory(let history): history.logs(from: from, to: to, addresses: addresses, topics: topics)
        }
    }

    /// The logs of one block, in order.
    func logs(block number: UInt64) throws(ChainError) -> [LogRow] {
        try logs(from: number, to: number, addresses: [], topics: [])
    }

    /// The reverse state diffs of blocks `from...to`, by number.
    func diffs(from: UInt64, to: UInt64) throws(ChainError) -> [UInt64: StateDiff] {
        switch backend {
        case .database(let store): try store.diffs(from: from, to: to)
        case .memory(let history): try history.diffs(from: from, to: to)
        }
    }

    /// The dev changes block `number` was mined on, nil when it has none.
    func devChanges(block number: UInt64) throws(ChainError) -> PendingDevState? {
        switch backend {
        case .database(let store): try store.devChanges(block: number)
        case .memory(let history): history.block(number)?.devChanges
        }
    }

    /// The numbers of the blocks among `from...to` mined on dev changes, in order.
    func blocksWithDevChanges(from: UInt64, to: UInt64) throws(ChainError) -> [UInt64] {
        switch backend {
        case .database(let store): try store.blocksWithDevChanges(from: from, to: to)
        case .memory(let history): history.blocksWithDevChanges(from: from, to: to)
        }
    }

    /// The head state kept beside the blocks (on disk; in memory there is none to reopen, so it is empty).
    func loadState() throws(ChainError) -> WorldState {
        switch backend {
        case .database(let store): try store.loadState()
        case .memory: WorldState()
        }
    }
}
