import EVM
import EthereumPrimitives
import EthereumTransactions

/// The pending block: the block the miner would mine next, on the head, from the pool's transactions in the order the
/// miner takes them (geth's `miner.Pending`). It is what the `pending` block tag names: `eth_getBlockByNumber`,
/// the block's transactions and receipts, and the state reads and calls at `pending` (the state after its
/// transactions). Nothing is inserted and the pool is not changed.
extension DevChain {
    /// How long a built pending block is reused while nothing it was built from changed (geth's `pendingTTL`): its
    /// timestamp is the clock's, so it is rebuilt now and then even on an idle chain.
    static let pendingBlockLifetime: Duration = .seconds(2)

    /// A pending block with what reading it needs.
    struct PendingBlock {
        var mined: MinedBlock
        /// The state after the block's transactions.
        var state: WorldState
        /// The block's environment (calls at `pending` run in it).
        var environment: BlockEnvironment
        var fork: Hardfork
    }

    /// What a cached pending block was built from: when any of it changed, the block is built again.
    struct PendingBlockKey: Equatable {
        var headHash: Bytes32
        var poolGeneration: UInt64
        var stateGeneration: UInt64
    }

    /// The pending block (with hash, receipts and the state after it). Its number is the head's + 1, its timestamp
    /// the next block's (``peekTimestamp()``), its fee recipient, base fee, gas limit and extra data the miner's.
    public func pendingBlock() throws(ChainError) -> Block { try pending().mined.block }

    /// The pending block, built or reused.
    func pending() throws(ChainError) -> PendingBlock {
        let key = PendingBlockKey(headHash: headHash, poolGeneration: poolGeneration, stateGeneration: stateGeneration)
        if let cached = pendingCache, cached.key == key, ContinuousClock.now - cached.built < Self.pendingBlockLifetime {
            return cached.block
        }
        let timestamp = try peekTimestamp()
        let fork = self.fork(number: head.number + 1, timestamp: timestamp)
        let env = nextBlockEnvironment(timestamp: timestamp)
        let assembled = try assembleBlock(
            environment: env, fork: fork, baseFee: nextBaseFee(fork: fork), beaconRoot: fork >= .cancun ? .zero : nil,
            withdrawals: fork >= .shanghai ? [] : nil, extraData: config.extraData, transactions: nil)
        let block = PendingBlock(
            mined: minedBlock(assembled.block, stored: assembled.receipts, logs: assembled.logs),
            state: assembled.state, environment: env, fork: fork)
        pendingCache = (key, ContinuousClock.now, block)
        return block
    }

    /// The state at `pending` for a read: the state after the pending block when the pool holds transactions, else
    /// nil, for the live state (the pending block then only adds the system calls' ring-buffer writes; reads of those
    /// contracts at `pending` see the head's).
    func pendingStateForReads() throws(ChainError) -> WorldState? {
        guard !pool.isEmpty else { return nil }
        return try pending().state
    }
}
