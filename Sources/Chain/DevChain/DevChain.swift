import EVM
import EthereumCrypto
import EthereumPrimitives
import EthereumTransactions
import EthereumTrie
import Foundation
import Synchronization

/// A local development chain: blocks, receipts, logs, a transaction pool with automine (one block
/// per transaction, the default) or interval mining, dev controls (snapshots, time, balances, code,
/// nonces, storage) and struct-log traces, persisted in SQLite or kept in memory.
///
/// State: the head state lives in memory (a ``JournaledState`` that records what each transaction
/// changes); the state trie is updated incrementally per block; each block stores a reverse state
/// diff, so the state at any earlier block is rebuilt from the head (see ``balance(_:at:)``).
/// Every block, its receipts, logs, state diff and state rows are written in one SQLite transaction
/// before any method that mined it returns.
public actor DevChain {
    /// The chain id (EIP-155): the configuration's, the remote's on a fork, or `anvil_setChainId`'s. Read without
    /// entering the actor (every request may), behind a lock because ``setChainId(_:)`` changes it.
    public nonisolated var chainId: UInt64 { chainIdBox.withLock { $0 } }
    nonisolated let chainIdBox: Mutex<UInt64>
    /// The fork a dev chain runs; on a chain from a genesis file, the latest fork its schedule names (a block's
    /// own fork is ``fork(number:timestamp:)``).
    public nonisolated let hardfork: Hardfork
    /// When each fork activates (``ForkSchedule/fixed(_:)`` of ``hardfork`` on a dev chain).
    public nonisolated let schedule: ForkSchedule
    /// The genesis block's timestamp (EIP-2124 fork ids skip time forks at or before it).
    public nonisolated let genesisTimestamp: UInt64
    /// The configuration the chain was opened with.
    public nonisolated let config: ChainConfig
    /// The remote a forked chain continues (Fork/DevChain+Fork.swift); nil for a chain of its own. Behind a lock, so
    /// the node reads it without entering the actor, and ``refork(_:)`` replaces it.
    nonisolated let forkBinding: Mutex<ForkCache?>

    /// The blocks; a forked chain's memory store is replaced when it forks again (``refork(_:)``).
    var store: ChainStore
    var lock: ChainLock?
    /// The head state plus dev-control changes not yet in a block; records changes for the next block.
    var working: JournaledState { didSet { stateGeneration &+= 1 } }
    /// The tries (and code) of the head block's state.
    var committed: CommittedState
    var head: BlockHeader
    var headHash: Bytes32
    /// The hashes of the recent blocks (older ones are read from the store: ``blockHash(_:)``, ``blockNumber(of:)``).
    var hashes: RecentBlockHashes
    /// The first block the chain holds: 0, or on a forked chain the fork block (earlier ones are the remote's).
    var base: UInt64 = 0
    /// Recently used blocks with their receipts.
    var blockCache: [UInt64: MinedBlock] = [:]
    /// Reverse state diffs of recent blocks.
    var diffCache: [UInt64: StateDiff] = [:]
    /// The transactions of blocks the database does not hold yet (``ChainStore/append(_:)``).
    var unwritten = UnwrittenBlockIndex()
    var pool = TransactionPool() { didSet { poolGeneration &+= 1 } }
    /// Counters of the changes to ``working`` and ``pool`` (calls that leave the state as it was count too): the pending
    /// block (DevChain+Pending.swift) is built again when either moved.
    var stateGeneration: UInt64 = 0
    var poolGeneration: UInt64 = 0
    var pendingCache: (key: PendingBlockKey, built: ContinuousClock.Instant, block: PendingBlock)?
    var automine: Bool
    /// The block `safe` and `finalized` name, when set; nil names the head.
    var finalized: UInt64?
    var intervalTask: Task<Void, Never>?
    /// The interval of interval mining while it runs (`anvil_getIntervalMining`); nil otherwise.
    var miningInterval: Duration?
    /// Seconds added to wall-clock time: `evm_increaseTime` adds, `anvil_setTime` sets it (negative for an
    /// earlier time; blocks still never go back: each is at least its parent + 1).
    var timeOffset: Int64 = 0
    /// With a fixed-step clock: seconds still to add to the next block.
    var pendingTimeJump: UInt64 = 0
    var nextTimestamp: UInt64?
    var snapshots: [UInt64: Snapshot] = [:]
    var nextSnapshotID: UInt64 = 1
    var headSubscribers: [UInt64: AsyncStream<Block>.Continuation] = [:]
    var pendingSubscribers: [UInt64: AsyncStream<PendingTransaction>.Continuation] = [:]
    var nextSubscriberID: UInt64 = 0
    /// Run-time changes of the node's settings (impersonation, gas limit, coinbase, fees): DevChain+NodeSettings.
    var devSettings = DevSettings()
    /// The hashes the pool accepted, numbered, for `eth_newPendingTransactionFilter`.
    var pendingHashLog = PendingHashLog()
    let buffers = ExecutionBuffers()
    /// Senders recovered ahead of their submission, off the actor.
    package nonisolated let recoveredSenders = RecoveredSenders()
    let devKeys: [Address: PrivateKey]
    /// What the dev methods changed that no block holds yet, kept on disk for a restart (Store/DevJournal.swift);
    /// nil in memory and on a fork.
    var journal: DevJournal?
    /// Blocks mined by a long ``mine(blocks:timestamp:interval:)`` slice, written together when the slice ends
    /// (DevChain+Slices.swift); nil when each block is written as it is mined.
    var queuedWrites: [ChainStore.BlockWrite]?
    /// What the chain goes back to when the queued writes fail.
    var queuedRollback: QueuedRollback?
    /// Set by ``close()``: a long operation running in slices stops at its next slice.
    var isClosed = false
    /// The last BLOCKHASH function made (``blockHashFunction(upTo:)``).
    var blockHashFunctionCache: (key: BlockHashFunctionKey, function: @Sendable (UInt64) -> Bytes32)?

    /// How many blocks' diffs and bodies are kept decoded in memory.
    static let cacheDepth: UInt64 = 1024

    /// Opens the chain in `storage`, or creates it (genesis from `config`) when empty. On open the
    /// state is rebuilt from the state tables and its root checked against the head block's.
    ///
    /// With `fork`, the chain continues the remote chain `fork` reads (Fork/): its first block is the fork block's
    /// child, its state the fork block's read lazily, its chain id the remote's; it is kept in memory only.
    public init(config: ChainConfig = ChainConfig(), storage: ChainStorage = .memory, fork: ForkCache? = nil) async throws(ChainError) {
        var config = config
        // A dev chain mines its own blocks, which need receipts with a status (Byzantium); a chain from a genesis
        // file may start earlier, since its early blocks are imported, not mined.
        guard config.hardfork >= .byzantium || config.genesis != nil else {
            throw .invalidParams("hardfork \(config.hardfork) is not supported: Byzantium or later")
        }
        guard config.extraData.count <= 32 else { throw .invalidParams("extra data longer than 32 bytes") }
        var lock: ChainLock?
        if case .directory(let url) = storage { lock = try ChainLock.acquire(directory: url) }
        let store = try ChainStore(storage: storage)
        // A chain on disk keeps its dev changes and settings in a journal beside its blocks (a fork lives in memory).
        var journal: DevJournal?
        if fork == nil, let path = store.path { journal = try DevJournal(path: path) }
        var restored: (pending: PendingDevState, settings: DevJournal.Settings?)?

        var working: JournaledState
        var committed: CommittedState
        var head: BlockHeader
        var hashes: RecentBlockHashes
        var hardfork = config.hardfork
        var chainId = config.chainId
        var genesis = config.genesis
        var base: UInt64 = 0
        if let fork {
            guard case .memory = storage, config.genesis == nil else {
                throw .configMismatch("a forked chain is kept in memory and has no genesis file")
            }
            // Without --hardfork, local blocks follow the latest fork the fork block's header fields allow.
            if config.keepsStoredHardfork { config.hardfork = fork.point.impliedHardfork(atMost: config.hardfork) }
            hardfork = config.hardfork
            let start = try await Self.forkStart(fork, config: config, store: store)
            (working, committed, head) = (start.working, start.committed, fork.point.header)
            hashes = RecentBlockHashes(first: fork.point.number, hashes: [fork.point.hash])
            chainId = fork.point.chainId
            base = fork.point.number
        } else if let headNumber = try store.headNumber() {
            if let stored = try store.meta("genesis") {
                let storedGenesis: Genesis
                do { storedGenesis = try Genesis(json: stored) } catch { throw .storage("the stored genesis: \(error)") }
                if let requested = config.genesis, requested.json != stored {
                    guard let header = try store.header(number: 0),
                        header.hash == requested.header(stateRoot: requested.alloc.stateRoot, initialBaseFee: config.initialBaseFee).hash
                    else { throw .configMismatch("the data directory holds a chain from another genesis") }
                }
                genesis = storedGenesis
            } else if config.genesis != nil {
                throw .configMismatch("the data directory holds a dev chain, not a chain from a genesis file")
            }
            if let stored = try store.meta("chain_id"), let fork = try store.meta("hardfork") {
                chainId = Self.decodeUInt64(stored)
                guard let storedFork = Hardfork(name: String(decoding: fork, as: UTF8.self)) else {
                    throw .storage("unknown hardfork in metadata")
                }
                hardfork = storedFork
            }
            if let journal, let head = try store.hashes(from: headNumber).first {
                restored = try journal.load(head: head)
            }
            // A chain from a genesis file keeps its file's chain id when reopened without the file; one whose id
            // anvil_setChainId changed opens with either id and keeps the changed one.
            let setByDevMethod = restored?.settings.map(\.chainId)
            guard chainId == config.chainId || setByDevMethod == config.chainId || (genesis != nil && config.genesis == nil) else {
                throw .configMismatch("chain id \(setByDevMethod ?? chainId) on disk, \(config.chainId) requested")
            }
            guard hardfork == config.hardfork || config.keepsStoredHardfork || genesis != nil else {
                throw .configMismatch("hardfork \(hardfork) on disk, \(config.hardfork) requested")
            }
            guard let header = try store.header(number: headNumber) else { throw .storage("head block missing") }
            let state = try store.loadState()
            committed = CommittedState(state: state)
            let root = committed.stateRoot
            guard root == header.stateRoot else {
                throw .stateRootMismatch(block: headNumber, expected: header.stateRoot, computed: root)
            }
            working = JournaledState(state: state)
            head = header
            let first = headNumber >= UInt64(RecentBlockHashes.kept) ? headNumber - UInt64(RecentBlockHashes.kept) + 1 : 0
            let recent = try store.hashes(from: first)
            guard UInt64(recent.count) == headNumber - first + 1 else { throw .storage("block numbers are not contiguous") }
            hashes = RecentBlockHashes(first: first, hashes: recent)
        } else {
            var state: WorldState
            if let genesis {
                state = genesis.alloc
            } else {
                // From Prague the genesis holds the system contracts, as geth's --dev genesis does.
                state = WorldState(accounts: SystemContracts.genesisAccounts(fork: config.hardfork))
                for account in config.devAccounts {
                    state.accounts[account.address, default: Account()].balance = account.balance
                }
            }
            let writes: CommittedState.Writes
            (committed, writes) = Self.genesisTries(of: state)
            head =
                genesis?.header(stateRoot: committed.stateRoot, initialBaseFee: config.initialBaseFee)
                ?? Self.genesisHeader(config: config, stateRoot: committed.stateRoot)
            let genesisBlock = ChainStore.BlockWrite(
                header: head, hash: head.hash, transactions: [], senders: [], receipts: [], logs: [], diff: StateDiff(),
                state: writes)
            try store.commit(genesisBlock)
            var meta: [String: [UInt8]] = [
                "chain_id": config.chainId.bigEndianBytes, "hardfork": Array(config.hardfork.name.utf8),
                "schema": [1],
            ]
            if let genesis { meta["genesis"] = genesis.json }
            try store.setMeta(meta)
            working = JournaledState(state: state)
            hashes = RecentBlockHashes(first: 0, hashes: [head.hash])
        }
        working.recordsChanges = true

        if let genesis {
            config.use(genesis)
            hardfork = genesis.schedule.latestFork
            chainId = genesis.chainId
        }
        self.chainIdBox = Mutex(chainId)
        self.base = base
        self.forkBinding = Mutex(fork)
        if fork != nil { config.chainId = chainId }
        self.hardfork = hardfork
        config.hardfork = hardfork  // the stored fork, when keepsStoredHardfork adopted it
        self.schedule = config.schedule
        self.genesisTimestamp = head.number == base ? head.timestamp : (try store.header(number: base))?.timestamp ?? 0
        self.config = config
        self.store = store
        self.lock = lock
        self.working = working
        self.committed = committed
        self.head = head
        self.headHash = hashes.lastHash
        self.hashes = hashes
        self.automine = config.blockTime == nil && config.automine
        if let stored = try store.meta("finalized"), !stored.isEmpty { self.finalized = Self.decodeUInt64(stored) }
        var keys: [Address: PrivateKey] = [:]
        for account in config.devAccounts { if let key = account.privateKey { keys[account.address] = key } }
        self.devKeys = keys
        self.journal = journal
        // What the dev methods changed before the last stop and no block holds (DevChain+Journal.swift).
        if let restored { try restoreJournal(restored) }
        if let blockTime = config.blockTime { startIntervalMining(blockTime) }
    }

    /// Sets the block `safe` and `finalized` name (what a consensus client's forkchoice update does; kept with a
    /// chain on disk). `nil` goes back to naming the head.
    public func setFinalized(_ id: BlockID?) throws(ChainError) {
        guard let id else {
            finalized = nil
            try store.setMeta(["finalized": []])
            return
        }
        guard let number = resolve(id) else { throw .unknownBlock("\(id)") }
        finalized = number
        try store.setMeta(["finalized": number.bigEndianBytes])
    }

    /// Stops interval mining, waits for the database to hold every block (the journal already does) and releases the
    /// data directory's lock.
    public func close() {
        isClosed = true
        intervalTask?.cancel()
        intervalTask = nil
        // A database that cannot be written keeps its blocks in the journal, which the next open applies.
        try? store.drain()
        lock?.release()
        lock = nil
        for continuation in headSubscribers.values { continuation.finish() }
        headSubscribers = [:]
        for continuation in pendingSubscribers.values { continuation.finish() }
        pendingSubscribers = [:]
    }

    /// The fork whose rules apply to a block with `number` and `timestamp`.
    public nonisolated func fork(number: UInt64, timestamp: UInt64) -> Hardfork {
        schedule.fork(number: number, timestamp: timestamp)
    }

    /// The fork of the block `header` heads.
    public nonisolated func fork(of header: BlockHeader) -> Hardfork {
        schedule.fork(number: header.number, timestamp: header.timestamp)
    }

    /// The fork of the next block (the pending block's rules: the pool's checks, `eth_estimateGas` on
    /// `pending`, mining).
    var pendingFork: Hardfork {
        let number = head.number == UInt64.max ? head.number : head.number + 1
        let timestamp = (try? peekTimestamp()) ?? head.timestamp
        return schedule.fork(number: number, timestamp: timestamp)
    }

    /// The blob parameters of `fork` on this chain (the genesis file's `blobSchedule`, else the fork's own).
    nonisolated func blobSchedule(for fork: Hardfork) -> BlobSchedule {
        schedule.blobSchedule(for: fork) ?? .cancun
    }

    /// The blob base fee of the block `header` heads (nil before Cancun), with its fork's update fraction.
    nonisolated func blobBaseFee(of header: BlockHeader) -> UInt256? {
        header.excessBlobGas.map {
            FeeMarket.blobBaseFee(excessBlobGas: $0, updateFraction: blobSchedule(for: fork(of: header)).baseFeeUpdateFraction)
        }
    }

    /// The excess blob gas of a `fork` block after `parent`.
    nonisolated func nextExcessBlobGas(after parent: BlockHeader, fork: Hardfork) -> UInt64 {
        FeeMarket.nextExcessBlobGas(parent: parent, schedule: blobSchedule(for: fork), fork: fork)
    }

    /// The blob base fee of a `fork` block after `parent`.
    nonisolated func nextBlobBaseFee(after parent: BlockHeader, fork: Hardfork) -> UInt256 {
        FeeMarket.blobBaseFee(
            excessBlobGas: nextExcessBlobGas(after: parent, fork: fork),
            updateFraction: blobSchedule(for: fork).baseFeeUpdateFraction)
    }

    /// The data directory's lock (nil in memory); a node records its URL with ``ChainLock/setURL(_:)``.
    public var dataDirectoryLock: ChainLock? { lock }

    /// The addresses the chain can sign for (`eth_accounts`), in configuration order.
    public nonisolated var accounts: [Address] { config.devAccounts.filter { $0.privateKey != nil }.map(\.address) }

    // MARK: Genesis

    /// The last genesis state built, with its tries and the rows a new store is given. A test bench starts a chain
    /// from the same genesis for every test; building it is a trie of every account and a hash of every node. The
    /// tries are values whose shared nodes are copied before a change, so chains built from one entry do not see
    /// each other's blocks. Only a genesis of at most ``genesisKeptAccounts`` accounts is kept (a large alloc would be
    /// held twice once the chain changes it, and compared whole).
    private static let lastGenesis = Mutex<(state: WorldState, committed: CommittedState, writes: CommittedState.Writes)?>(nil)

    /// The tries of genesis `state` and the rows that store it: the last ones built when `state` is the same.
    static func genesisTries(of state: WorldState) -> (CommittedState, CommittedState.Writes) {
        if state.accounts.count <= genesisKeptAccounts, let last = lastGenesis.withLock({ $0 }), last.state == state {
            return (last.committed, last.writes)
        }
        var committed = CommittedState(state: WorldState())  // empty, so apply() writes every row and code
        var changes = StateChanges()
        changes.accounts = Set(state.accounts.keys)
        for (address, account) in state.accounts where !account.storage.isEmpty {
            changes.slots[address] = Set(account.storage.keys)
        }
        let writes = committed.apply(changes, from: state).writes
        _ = committed.stateRoot  // every node hashed before the tries are shared
        if state.accounts.count <= genesisKeptAccounts { lastGenesis.withLock { $0 = (state, committed, writes) } }
        return (committed, writes)
    }

    static let genesisKeptAccounts = 1024

    static func genesisHeader(config: ChainConfig, stateRoot: Bytes32) -> BlockHeader {
        let fork = config.hardfork
        let timestamp = config.genesisTimestamp ?? config.clock.now() ?? 0
        return BlockHeader(
            parentHash: .zero, coinbase: config.coinbase, stateRoot: stateRoot,
            difficulty: fork >= .paris ? .zero : .one, number: 0, gasLimit: config.gasLimit, timestamp: timestamp,
            extraData: config.extraData, baseFeePerGas: fork >= .london ? config.initialBaseFee : nil,
            withdrawalsRoot: fork >= .shanghai ? MerklePatriciaTrie.emptyRoot : nil,
            blobGasUsed: fork >= .cancun ? 0 : nil, excessBlobGas: fork >= .cancun ? 0 : nil,
            parentBeaconBlockRoot: fork >= .cancun ? .zero : nil,
            requestsHash: fork >= .prague ? BlockHeader.emptyRequestsHash : nil)
    }

    static func decodeUInt64(_ bytes: [UInt8]) -> UInt64 { bytes.reduce(0) { $0 << 8 | UInt64($1) } }
}

/// A block with the stored parts of its receipts and its logs, as the chain caches it; the full receipts (with their
/// chain positions and blooms) are made when asked for.
struct MinedBlock: Sendable {
    var block: Block
    var stored: [StoredReceipt]
    /// The block's logs with their transaction index, in block order.
    var logs: [(transactionIndex: Int, log: Log)]
    /// The blob base fee of the block (nil before Cancun), for blob receipts.
    var blobGasPrice: UInt256?
    /// The revert data of each failed transaction, by index, for a block this chain mined (kept while the block is
    /// cached: ``DevChain/revertData(transaction:)`` answers from it instead of re-executing the block).
    var revertData: [Int: [UInt8]]?
    /// Each receipt's logs bloom, for a block this chain mined (kept while the block is cached, so a receipt asked for
    /// right after mining does not hash its logs again); nil for a block read back or imported.
    var blooms: [Bloom]?
    /// The dev changes the block was mined on (DevChain+PreBlockChanges.swift): set for a block this chain mined or
    /// imported, and once read from the database; nil while not read yet.
    var devChanges: PendingDevState?

    /// Every receipt, in order.
    var receipts: [Receipt] { stored.indices.map(receipt(at:)) }

    /// Receipt `index` (which must be one of the block's).
    func receipt(at index: Int) -> Receipt {
        let header = block.header
        let signed = block.transactions[index]
        let tx = signed.transaction
        var entries: [LogEntry] = []
        for (logIndex, entry) in logs.enumerated() where entry.transactionIndex == index {
            entries.append(
                LogEntry(
                    address: entry.log.address, topics: entry.log.topics, data: entry.log.data, blockNumber: header.number,
                    blockHash: block.hash, transactionHash: signed.hash, transactionIndex: index, logIndex: logIndex,
                    blockTimestamp: header.timestamp))
        }
        let receipt = stored[index]
        return Receipt(
            type: tx.type, status: receipt.status, root: receipt.root, cumulativeGasUsed: receipt.cumulativeGasUsed,
            gasUsed: receipt.gasUsed, effectiveGasPrice: receipt.effectiveGasPrice, logs: entries,
            logsBloom: blooms?[index] ?? Bloom(logs: entries.map(\.log)), contractAddress: receipt.contractAddress,
            from: block.senders[index],
            to: tx.to, transactionHash: signed.hash, transactionIndex: index, blockHash: block.hash,
            blockNumber: header.number, blobGasUsed: tx.type == .blob ? tx.blobGas : nil,
            blobGasPrice: tx.type == .blob ? blobGasPrice : nil)
    }
}

/// What a snapshot restores.
struct Snapshot {
    var headNumber: UInt64
    var working: JournaledState
    var committed: CommittedState
    var pool: TransactionPool
    var timeOffset: Int64
    var pendingTimeJump: UInt64
    var nextTimestamp: UInt64?
}
