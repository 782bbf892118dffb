import EVM
import EthereumPrimitives

extension DevChain {
    /// The remote this chain forks, nil for a chain of its own.
    public var forkCache: ForkCache? { working.state.fork?.cache }

    /// The fork block's number on a forked chain (blocks up to it are the remote's), nil otherwise.
    public nonisolated var forkBlockNumber: UInt64? { forkPoint?.number }

    /// The state and tries a forked chain starts from: the fork block's state read through `cache`, with the dev
    /// accounts funded as configured (their nonce and code stay the fork block's, as anvil does); the fork block
    /// is stored as the chain's first block, with those balances as its local state rows.
    static func forkStart(
        _ cache: ForkCache, config: ChainConfig, store: ChainStore
    ) async throws(ChainError) -> (working: JournaledState, committed: CommittedState) {
        do { try await cache.prefetch(ForkFetchRequest(accounts: config.devAccounts.map(\.address))) } catch {
            throw .fork(error)
        }
        var state = WorldState(fork: ForkOverlay(cache: cache))
        for account in config.devAccounts {
            var local = state.account(account.address) ?? Account()
            local.balance = account.balance
            state.accounts[account.address] = local
        }
        var committed = CommittedState(state: WorldState())
        var changes = StateChanges()
        changes.accounts = Set(state.accounts.keys)
        let writes = committed.apply(changes, from: state)
        let header = cache.point.header
        try store.commit(
            ChainStore.BlockWrite(
                header: header, hash: cache.point.hash, transactions: [], senders: [], receipts: [], logs: [],
                diff: StateDiff(), state: writes))
        try store.setMeta([
            "chain_id": encodeUInt64(cache.point.chainId), "hardfork": Array(config.hardfork.name.utf8), "schema": [1],
            "fork_block": encodeUInt64(header.number),
        ])
        var working = JournaledState(state: state)
        working.recordsChanges = true
        return (working, committed)
    }
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
