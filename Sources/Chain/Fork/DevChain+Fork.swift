import EVM
import EthereumPrimitives
import Synchronization

extension DevChain {
    /// The cache of the remote this chain forks, nil for a chain of its own. Read without entering the actor: the
    /// node asks it on every request.
    public nonisolated var forkCache: ForkCache? { forkBinding.withLock { $0 } }

    /// The block a forked chain continues (nil for a chain of its own).
    public nonisolated var forkPoint: ForkPoint? { forkCache?.point }

    /// The fork block's number on a forked chain (blocks up to it are the remote's), nil otherwise.
    public nonisolated var forkBlockNumber: UInt64? { forkPoint?.number }

    /// The state and tries a forked chain starts from: the fork block's state read through `cache`, with the dev
    /// accounts funded as configured (their nonce and code stay the fork block's, as anvil does); the fork block
    /// is stored as the chain's first block, with those balances as its local state rows.
    ///
    /// From Prague, blocks need the system contracts (EIP-7002 and EIP-7251's end-of-block calls fail without code).
    /// A remote that lacks them at the fork block (a test chain, such as eth-tester's, that never deployed them) gets
    /// the standard ones in the fork's local state, as a dev chain's genesis holds them, so local blocks can be built;
    /// they are read in the dev accounts' batch, at no extra round trip.
    static func forkStart(
        _ cache: ForkCache, config: ChainConfig, store: ChainStore
    ) async throws(ChainError) -> (working: JournaledState, committed: CommittedState) {
        let systemContracts = SystemContracts.genesisAccounts(fork: config.hardfork)
        do { try await cache.prefetch(ForkFetchRequest(accounts: config.devAccounts.map(\.address) + systemContracts.keys)) } catch {
            throw .fork(error)
        }
        var state = WorldState(fork: ForkOverlay(cache: cache))
        for account in config.devAccounts {
            var local = state.account(account.address) ?? Account()
            local.balance = account.balance
            state.accounts[account.address] = local
        }
        for (address, standard) in systemContracts where state.account(address)?.code.isEmpty ?? true {
            var local = standard
            local.balance = state.account(address)?.balance ?? .zero
            state.accounts[address] = local
        }
        var committed = CommittedState(state: WorldState())
        var changes = StateChanges()
        changes.accounts = Set(state.accounts.keys)
        let writes = committed.apply(changes, from: state).writes
        let header = cache.point.header
        try store.commit(
            ChainStore.BlockWrite(
                header: header, hash: cache.point.hash, transactions: [], senders: [], receipts: [], logs: [],
                diff: StateDiff(), state: writes))
        try store.setMeta([
            "chain_id": cache.point.chainId.bigEndianBytes, "hardfork": Array(config.hardfork.name.utf8), "schema": [1],
            "fork_block": header.number.bigEndianBytes,
        ])
        var working = JournaledState(state: state)
        working.recordsChanges = true
        return (working, committed)
    }

    /// Forks again (`anvil_reset` with forking parameters): the chain continues `cache`'s block instead, as if it had
    /// been started there — blocks, state, pool, snapshots, time and run-time settings are those of a fresh fork;
    /// automine or interval mining stay as they are, and so do the chain id and the fork rules (a remote of another
    /// chain id is refused: a running node's chain id is fixed, start a new node for another chain).
    public func refork(_ cache: ForkCache) async throws(ChainError) {
        guard forkCache != nil else {
            throw .invalidParams("this node was not started with --fork-url: it cannot fork (start it with --fork-url)")
        }
        guard cache.point.chainId == chainId else {
            throw .fork(.wrongChain(expected: chainId, remote: cache.point.chainId))
        }
        // Everything that waits comes first: the actor's state is replaced in one synchronous step after it.
        let fresh = try ChainStore(storage: .memory)
        var start = config
        start.hardfork = hardfork
        let (newWorking, newCommitted) = try await Self.forkStart(cache, config: start, store: fresh)
        store = fresh
        forkBinding.withLock { $0 = cache }
        working = newWorking
        committed = newCommitted
        head = cache.point.header
        headHash = cache.point.hash
        hashes = RecentBlockHashes(first: cache.point.number, hashes: [cache.point.hash])
        base = cache.point.number
        clearRunTimeState()
        finalized = nil
    }

    /// One interval-mining block on a forked chain: a block that read state not fetched yet was abandoned by the
    /// miner; the state is fetched (one batch per round) and the block built again. A remote that cannot be
    /// reached leaves the pool as it is for the next tick.
    func mineIntervalBlock() async {
        for _ in 0..<Self.maxForkRounds {
            do {
                _ = try mineBlock(limit: Int.max, timestamp: nil, allowEmpty: true)
                return
            } catch {
                guard case .fork(.notFetched) = error, let cache = forkCache else { return }
                do { try await cache.fetchMissing() } catch { return }
            }
        }
    }

    /// Fetch-and-repeat rounds before an operation is given up (each round fetches at least one new value).
    public static let maxForkRounds = 64
}

/// What a forked chain's miner restores when a block read state not fetched yet: the block is abandoned
/// (nothing committed), the state and pool put back; the node fetches what was missing and runs the request
/// again. A dev chain makes none (``init(_:)`` is nil), so its miner does no extra work.
struct ForkMiningGuard {
    let cache: ForkCache
    let mark: UInt64
    let working: JournaledState
    let pool: TransactionPool

    init?(_ chain: isolated DevChain) {
        guard let cache = chain.working.state.fork?.cache else { return nil }
        self.cache = cache
        self.mark = cache.missMark
        self.working = chain.working
        self.pool = chain.pool
    }

    /// True when the block read something the cache did not hold.
    var missed: Bool { cache.missed(since: mark) }

    /// Puts the state and pool back; `droppingIncluded` leaves the pool (an automined submission, which the
    /// node sends again once the state is fetched).
    func restore(_ chain: isolated DevChain, droppingIncluded: [Bytes32]) {
        chain.working = working
        chain.pool = pool
        for hash in droppingIncluded { chain.pool.remove(hash) }
    }
}
