import EVM
import EthereumPrimitives

/// Long dev operations in slices (issue 31): mining many blocks, removing many (a reset, a revert far back) and
/// loading a large state run a few milliseconds at a time and then let the actor answer whatever else is waiting, so
/// `eth_blockNumber` from another client is answered while `anvil_mine` makes 10,000 blocks.
///
/// Every slice ends with a whole chain: its blocks written (mined blocks of one slice go to the database together,
/// in one SQLite transaction, which also makes mining many blocks faster) and the memory matching the database. Other
/// requests between slices see the chain as it is then — a reader may see some of the blocks of an `anvil_mine` that
/// has not answered yet, or a reset part way down — and a request that changes the chain between two slices is
/// applied to it as it is (a transaction sent during a long `anvil_mine` is mined in one of its blocks). Each
/// operation reads the head again at every slice, so none of them depends on what it saw before its last suspension.
extension DevChain {
    /// How long one slice runs before the actor answers others (a time, checked after each block or step).
    static let sliceBudget: Duration = .milliseconds(8)
    /// The most blocks one slice mines (they are written in one SQLite transaction).
    static let maxBlocksPerSlice = 256

    // MARK: Mining

    /// Mines `blocks` blocks (0 ... ``maxBlocksPerMine``), each filled from the pool (transactions that fit
    /// the gas limit, highest priority fee first). The first gets `timestamp` when given; with `interval`,
    /// each later block is that many seconds after the one before (`anvil_mine`'s second parameter), otherwise later
    /// blocks take the clock's time as usual. Returns the new blocks. Runs in slices (above): the blocks of a slice are
    /// written together before the next slice, and all of them before this returns.
    @discardableResult
    public func mine(blocks: Int = 1, timestamp: UInt64? = nil, interval: UInt64? = nil) async throws(ChainError) -> [Block] {
        guard (0...Self.maxBlocksPerMine).contains(blocks) else {
            throw .invalidParams("block count \(blocks) is not in 0...\(Self.maxBlocksPerMine)")
        }
        if let timestamp {
            try Self.checkTimestamp(timestamp)
            if timestamp <= head.timestamp { throw .timestampTooLow(requested: timestamp, head: head.timestamp) }
        }
        if let interval {
            guard interval >= 1 else { throw .invalidParams("interval must be at least 1 second") }
            let first: UInt64
            if let timestamp { first = timestamp } else { first = try peekTimestamp() }
            let (span, o1) = interval.multipliedReportingOverflow(by: UInt64(Swift.max(blocks - 1, 0)))
            guard !o1, Self.timestampSum(first, span) != nil else {
                throw .invalidParams(
                    "\(blocks) blocks \(interval) seconds apart would pass the largest timestamp \(Self.maxTimestamp) (2^63-1)")
            }
        }
        var mined: [Block] = []
        var index = 0
        while index < blocks {
            if index > 0 { try await endSlice() }
            let sliceStart = ContinuousClock.now
            try beginQueuedWrites()
            do throws(ChainError) {
                var inSlice = 0
                repeat {
                    // The next block's time is only computed when there is one: with a single block any interval is
                    // allowed, and head + interval may not even fit 64 bits (a fuzzer found that trap).
                    var next: UInt64? = index == 0 ? timestamp : nil
                    if index > 0, let interval {
                        // Checked above: every block's timestamp is at most maxTimestamp (unless another request
                        // moved the head's time between two slices; then this block fails cleanly).
                        guard let after = Self.timestampSum(head.timestamp, interval) else {
                            throw .invalidParams("block \(index) of \(blocks) would pass the largest timestamp \(Self.maxTimestamp)")
                        }
                        next = after
                    }
                    let result = try mineBlock(limit: Int.max, timestamp: next, allowEmpty: true)
                    if let block = result.block { mined.append(block) }
                    index += 1
                    inSlice += 1
                } while index < blocks && inSlice < Self.maxBlocksPerSlice && ContinuousClock.now - sliceStart < Self.sliceBudget
            } catch {
                // The blocks of this slice before the failure are written; the failure is reported.
                try flushQueuedWrites()
                throw error
            }
            try flushQueuedWrites()
        }
        return mined
    }

    /// Lets the actor answer what waits, then goes on; a chain closed meanwhile stops the operation.
    private func endSlice() async throws(ChainError) {
        await Task.yield()
        if isClosed { throw .storage("the chain was closed while a long operation was running") }
    }

    /// Starts collecting the blocks ``mineBlock(limit:timestamp:allowEmpty:)`` makes instead of writing each.
    private func beginQueuedWrites() throws(ChainError) {
        if isClosed { throw .storage("the chain is closed") }
        queuedWrites = []
        queuedRollback = QueuedRollback(snapshot: currentSnapshot(), nextBaseFee: devSettings.nextBaseFee)
    }

    /// Writes the collected blocks in one SQLite transaction and announces them. If the write fails, nothing of the
    /// slice is kept: the chain in memory goes back to the last block written (state, pool, time), and the error is
    /// thrown.
    private func flushQueuedWrites() throws(ChainError) {
        guard let writes = queuedWrites, let rollback = queuedRollback else { return }
        queuedWrites = nil
        queuedRollback = nil
        guard !writes.isEmpty else { return }
        do { try store.commit(writes) } catch {
            try restore(rollback.snapshot)
            devSettings.nextBaseFee = rollback.nextBaseFee
            throw error
        }
        for write in writes {
            let block = blockCache[write.header.number]?.block
                ?? Block(header: write.header, transactions: write.transactions, senders: write.senders)
            for continuation in headSubscribers.values { continuation.yield(block) }
        }
    }

    /// Writes a mined block: at once, or with the rest of a slice's blocks (``flushQueuedWrites()``).
    func persist(_ write: ChainStore.BlockWrite) throws(ChainError) {
        if queuedWrites != nil {
            queuedWrites?.append(write)
        } else {
            try store.append(write)
        }
    }

    /// Announces a new head to subscribers, unless its slice is not written yet (it is announced when it is).
    func announce(_ block: Block) {
        guard queuedWrites == nil else { return }
        for continuation in headSubscribers.values { continuation.yield(block) }
    }

    // MARK: Removing blocks

    /// Takes the chain down to block `target` in slices, each removing as many blocks from the top as fit its time (in
    /// the database, one SQLite transaction, and in memory), so the chain is whole after each. Pending dev changes are
    /// dropped; pool, snapshots, time and settings are left to the caller. Blocks mined by other requests between the
    /// slices are removed too; a head already at or below `target` is left alone.
    ///
    /// With `landing` (a snapshot of block `target` and that block's hash), the state there is known: the last stretch
    /// of up to ``maxBlocksDroppedAtOnce`` blocks removes their rows only and takes the snapshot's state and tries,
    /// without undoing each block's diff (the snapshot's pending dev changes come with it). If block `target` is no
    /// longer the snapshot's block (a reset between two slices), the blocks are removed as without it.
    func rewindInSlices(to target: UInt64, landing: (snapshot: Snapshot, hash: Bytes32)? = nil) async throws(ChainError) {
        var step: UInt64 = 64
        while head.number > target {
            if let landing, head.number - target <= Self.maxBlocksDroppedAtOnce, landing.snapshot.headNumber == target,
                try blockHash(target) == landing.hash
            {
                try store.rewind(to: target)
                var state = landing.snapshot
                (state.pool, state.timeOffset, state.pendingTimeJump, state.nextTimestamp) = (pool, timeOffset, pendingTimeJump, nextTimestamp)
                try restore(state)
                return
            }
            let started = ContinuousClock.now
            let newHead = head.number - Swift.min(step, head.number - target)
            try dropBlocks(downTo: newHead)
            let spent = ContinuousClock.now - started
            if spent < Self.sliceBudget / 2 { step = Swift.min(step * 2, 4096) } else if spent > Self.sliceBudget * 2 { step = Swift.max(step / 2, 1) }
            if head.number > target { try await endSlice() }
        }
    }

    /// The most blocks a revert to a snapshot removes in one step when it needs no state work (their database rows
    /// only: about 2 µs a block in memory, so some 30 ms at most).
    static let maxBlocksDroppedAtOnce: UInt64 = 16_384

    /// Removes the blocks above `newHead` (below the head, at least ``base``): the state is the head's with their
    /// reverse diffs applied, the tries updated on the paths those diffs name (and checked against `newHead`'s state
    /// root, except on a fork, whose roots cover the local accounts only), the database rewound.
    private func dropBlocks(downTo newHead: UInt64) throws(ChainError) {
        var state = working.state
        committed.reverseDiff(for: working.changes).revert(&state, code: committed.code)  // pending dev changes
        var changes = StateChanges()
        let diffs = try store.diffs(from: newHead + 1, to: head.number)
        var n = head.number
        while n > newHead {
            let diff = diffCache[n] ?? diffs[n] ?? StateDiff()
            diff.revert(&state, code: committed.code)
            for (address, account) in diff.accounts {
                changes.accounts.insert(address)
                if account.storageCleared { changes.clearedStorage[address] = [:] }
                if !account.slots.isEmpty { changes.slots[address, default: []].formUnion(account.slots.keys) }
            }
            n -= 1
        }
        var tries = committed
        _ = tries.apply(changes, from: state)
        guard let header = try store.header(number: newHead) else { throw .storage("block \(newHead) missing") }
        let root = tries.stateRoot
        guard root == header.stateRoot || state.fork != nil else {
            throw .stateRootMismatch(block: newHead, expected: header.stateRoot, computed: root)
        }
        try store.rewind(to: newHead)
        var rewound = JournaledState(state: state)
        rewound.recordsChanges = true
        try restore(
            Snapshot(
                headNumber: newHead, working: rewound, committed: tries, pool: pool, timeOffset: timeOffset,
                pendingTimeJump: pendingTimeJump, nextTimestamp: nextTimestamp))
    }
}

/// What a slice of mined blocks goes back to when its write fails.
struct QueuedRollback {
    var snapshot: Snapshot
    var nextBaseFee: UInt256?
}
