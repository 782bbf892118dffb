import EVM
import EthereumPrimitives
import EthereumTransactions
import EthereumTrie

extension DevChain {
    // MARK: Public mining controls (mine(blocks:timestamp:interval:) runs in slices: DevChain+Slices.swift)

    /// The most blocks one ``mine(blocks:timestamp:interval:)`` (`evm_mine`, `anvil_mine`) may mine: each is
    /// written to the database before the call returns, so a huge count would hold the chain for hours.
    public static let maxBlocksPerMine = 10_000

    /// The longest mining interval (`evm_setIntervalMining`, `--block-time`): one year, in seconds.
    public static let maxMiningInterval: Double = 31_536_000

    /// Turns automine on (mining what the pool holds) or off.
    public func setAutomine(_ on: Bool) throws(ChainError) {
        automine = on
        if on {
            intervalTask?.cancel()
            intervalTask = nil
            miningInterval = nil
            _ = try mineReady()
        }
    }

    /// True while every transaction is mined in its own block as it arrives.
    public var isAutomining: Bool { automine }

    /// Mines a block every `seconds` (turning automine off; at most ``maxMiningInterval``, at least a
    /// millisecond); nil or 0 stops interval mining.
    public func setIntervalMining(_ seconds: Double?) throws(ChainError) {
        if let seconds, !(seconds == 0 || (seconds >= 0.001 && seconds <= Self.maxMiningInterval)) {
            throw .invalidParams("mining interval \(seconds) s is not 0 (off) or in 0.001...\(Int(Self.maxMiningInterval)) seconds")
        }
        intervalTask?.cancel()
        intervalTask = nil
        miningInterval = nil
        guard let seconds, seconds > 0 else { return }
        automine = false
        startIntervalMining(.milliseconds(Int64((seconds * 1000).rounded())))
    }

    func startIntervalMining(_ interval: Duration) {
        automine = false
        miningInterval = interval
        intervalTask = Task { [weak self] in
            while !Task.isCancelled {
                do { try await Task.sleep(for: interval) } catch { return }
                guard let self else { return }
                await self.intervalTick()
            }
        }
    }

    private func intervalTick() async {
        // Forked: a block that reads state not fetched yet is abandoned; the fork's tick fetches it and mines again.
        if forkCache != nil { return await mineIntervalBlock() }
        _ = try? mineBlock(limit: Int.max, timestamp: nil, allowEmpty: true)
    }

    /// Automine: one block per executable pooled transaction until none is left. Returns the
    /// rejections of transactions that failed at inclusion.
    func mineReady() throws(ChainError) -> [Bytes32: TransactionValidationError] {
        var rejected: [Bytes32: TransactionValidationError] = [:]
        while true {
            let result = try mineBlock(limit: 1, timestamp: nil, allowEmpty: false)
            rejected.merge(result.rejected) { a, _ in a }
            if result.block == nil && result.rejected.isEmpty { return rejected }
        }
    }

    // MARK: Block building

    /// The environment of the next block.
    func nextBlockEnvironment(timestamp: UInt64) -> BlockEnvironment {
        let fork = self.fork(number: head.number + 1, timestamp: timestamp)
        return BlockEnvironment(
            coinbase: devSettings.coinbase ?? config.coinbase, number: head.number + 1, timestamp: timestamp, gasLimit: nextGasLimit(fork: fork),
            difficulty: fork >= .paris ? .zero : .one,
            prevRandao: fork >= .paris ? headHash.withUnsafeBytes { Keccak256.hash($0) } : .zero,
            baseFee: nextBaseFee(fork: fork) ?? .zero,
            excessBlobGas: fork >= .cancun ? nextExcessBlobGas(after: head, fork: fork) : 0,
            chainID: UInt256(chainId), blobSchedule: blobSchedule(for: fork))
    }

    /// The base fee of the next block (nil before London).
    var nextBaseFee: UInt256? { nextBaseFee(fork: pendingFork) }

    /// The base fee of a `fork` block after the head (nil before London).
    func nextBaseFee(fork: Hardfork) -> UInt256? {
        guard fork >= .london else { return nil }
        return devSettings.nextBaseFee ?? FeeMarket.nextBaseFee(parent: head, initialBaseFee: config.initialBaseFee)
    }

    /// The gas limit of the next block: the configured one on a dev chain; on a chain from a genesis file the
    /// head's (doubled at the first London block, EIP-1559's elasticity), so mined blocks continue an
    /// imported chain within the gas-limit bounds.
    func nextGasLimit(fork: Hardfork) -> UInt64 {
        if let gasLimit = devSettings.gasLimit { return gasLimit }
        guard config.genesis != nil else { return config.gasLimit }
        if fork >= .london && head.baseFeePerGas == nil {
            return head.gasLimit.multipliedReportingOverflow(by: FeeMarket.elasticityMultiplier).partialValue
        }
        return head.gasLimit
    }

    /// The environment a block's own transactions ran in (for calls and traces at that block).
    func environment(of header: BlockHeader) -> BlockEnvironment {
        BlockEnvironment(
            coinbase: header.coinbase, number: header.number, timestamp: header.timestamp, gasLimit: header.gasLimit,
            difficulty: header.difficulty, prevRandao: header.mixHash, baseFee: header.baseFeePerGas ?? .zero,
            excessBlobGas: header.excessBlobGas ?? 0, chainID: UInt256(chainId),
            blobSchedule: blobSchedule(for: fork(of: header)))
    }

    /// BLOCKHASH for blocks built on block `number`: the 256 hashes up to it.
    /// The last one made is kept for the next block or call on the same block (a test bench's invariant run makes
    /// one per call, each a copy of 256 hashes otherwise): it is the same function while block `last` has the same hash.
    func blockHashFunction(upTo number: UInt64) -> @Sendable (UInt64) -> Bytes32 {
        let last = Swift.min(number, head.number)
        // Not on a fork, whose older hashes are the remote's (refork changes the remote).
        let key = working.state.fork != nil ? nil : hashes.hash(last).map { BlockHashFunctionKey(last: last, hash: $0, base: base) }
        if let key, let cached = blockHashFunctionCache, cached.key == key { return cached.function }
        let function = makeBlockHashFunction(last: last)
        if let key { blockHashFunctionCache = (key, function) }
        return function
    }

    private func makeBlockHashFunction(last: UInt64) -> @Sendable (UInt64) -> Bytes32 {
        let base = self.base
        let first = last >= 255 ? last - 255 : 0
        // Forked: hashes before the chain's first block are the remote's.
        if first < base, let cache = working.state.fork?.cache {
            let recent = last >= base ? hashRange(from: base, through: last) : []
            return { n in
                guard n >= first && n <= last else { return .zero }
                return n >= base ? recent[Int(n - base)] : cache.blockHash(n)
            }
        }
        let start = Swift.max(first, base)
        let recent = hashRange(from: start, through: last)
        return { n in n >= start && n <= last ? recent[Int(n - start)] : .zero }
    }

    /// What a block-hash function is made from: the last block it answers for (by number and hash: the chain
    /// ending there) and the chain's first block.
    struct BlockHashFunctionKey: Equatable {
        var last: UInt64
        var hash: Bytes32
        var base: UInt64
    }

    /// The hashes of blocks `from...through` (held ones from memory, older ones from the database; zero for one the
    /// database cannot give).
    func hashRange(from: UInt64, through: UInt64) -> [Bytes32] {
        guard from <= through else { return [] }
        if let held = hashes.hashes(from: from, through: through) { return Array(held) }
        return (from...through).map { n in ((try? blockHash(n)) ?? nil) ?? .zero }
    }

    /// Consumes a pending `setNextBlockTimestamp` or time jump, once a block took ``peekTimestamp()``.
    func consumeNextTimestamp() {
        nextTimestamp = nil
        pendingTimeJump = 0
    }

    /// Builds, commits and announces one block with up to `limit` pool transactions. With
    /// `allowEmpty` false, no block is made when no transaction was included.
    func mineBlock(
        limit: Int, timestamp: UInt64?, allowEmpty: Bool
    ) throws(ChainError) -> (block: Block?, rejected: [Bytes32: TransactionValidationError]) {
        pool.dropStale { working.nonce(of: $0) }
        guard allowEmpty || !pool.isEmpty else { return (nil, [:]) }

        let blockTimestamp: UInt64
        if let timestamp { blockTimestamp = timestamp } else { blockTimestamp = try peekTimestamp() }
        let fork = self.fork(number: head.number + 1, timestamp: blockTimestamp)
        guard fork >= .byzantium else {
            throw .rejected("block \(head.number + 1) would be a \(fork) block: blocks before Byzantium are imported, not mined")
        }
        let rules = ForkRules(fork)
        let baseFee = nextBaseFee(fork: fork)
        let env = nextBlockEnvironment(timestamp: blockTimestamp)
        working.blockHashes = blockHashFunction(upTo: head.number)
        // The block processor's start-of-block system calls (EIP-4788 from Cancun, EIP-2935 from Prague). The
        // block may yet be abandoned (no transaction fits an automined block; a Prague request contract fails):
        // be able to put the state back, unless the calls cannot change it (a Cancun chain without the 4788 code).
        // With no dev change pending, the journal and a reverse diff against the head do it; a copy of the state
        // would cost a copy of every storage map the block writes (the system contracts' rings hold 8,191 slots).
        let beaconRoot: Bytes32? = fork >= .cancun ? .zero : nil
        let callsRunCode = fork >= .cancun && !working.code(at: SystemCalls.beaconRoots).isEmpty
        let mayAbandon = fork >= .prague || (!allowEmpty && callsRunCode)
        let saved = mayAbandon && !working.changes.isEmpty ? working : nil
        func putBack() {
            if let saved { working = saved } else if mayAbandon { undoUnminedBlock(fork: fork) }
        }
        // The dev changes the block is built on, kept with it for replays (DevChain+PreBlockChanges.swift).
        let devChanges = working.changes.isEmpty ? nil : pendingState(of: working)
        // Forked: a block that read state not fetched yet is abandoned whole (DevChain+Fork.swift).
        let forkGuard = ForkMiningGuard(self)
        SystemCalls.beginBlock(parentHash: headHash, parentBeaconBlockRoot: beaconRoot, in: &working, block: env, fork: fork)
        let afterSystemCalls = forkGuard?.cache.missMark

        var included: [SignedTransaction] = []
        var senders: [Address] = []
        var outcomes: [TransactionOutcome] = []
        var rejected: [Bytes32: TransactionValidationError] = [:]
        var skipped: Set<Bytes32> = []
        var gasUsed: UInt64 = 0
        var blobGasUsed: UInt64 = 0
        let maxBlobGas = blobSchedule(for: fork).max.multipliedReportingOverflow(by: BlobGas.perBlob).partialValue
        var noTracer = NoTracer()

        while included.count < limit {
            guard let candidate = pool.best(nonce: { working.nonce(of: $0) }, baseFee: baseFee, skipping: skipped)
            else { break }
            let tx = candidate.signed.transaction
            if tx.blobGas > 0 && blobGasUsed + tx.blobGas > maxBlobGas {
                skipped.insert(candidate.signed.hash)
                continue
            }
            let outcome: TransactionOutcome
            do {
                outcome = try TransactionExecutor.execute(
                    ExecutableTransaction(candidate.signed, sender: candidate.sender), in: &working, block: env,
                    fork: fork, blockGasAvailable: env.gasLimit - gasUsed, tracer: &noTracer, buffers: buffers)
            } catch {
                switch error {
                case .gasLimitExceedsBlock where !included.isEmpty, .feeCapBelowBaseFee, .blobFeeCapTooLow:
                    skipped.insert(candidate.signed.hash)  // may fit a later block
                default:
                    rejected[candidate.signed.hash] = error
                    pool.remove(candidate.signed.hash)
                }
                continue
            }
            working.finalize(rules: rules)
            pool.remove(candidate.signed.hash)
            gasUsed += outcome.gasUsed
            blobGasUsed += tx.blobGas
            included.append(candidate.signed)
            senders.append(candidate.sender)
            outcomes.append(outcome)
        }
        if let forkGuard, forkGuard.missed {
            // A block with nothing to mine is not built anyway: misses of the system calls alone do not fail it (an
            // automined submission would fail after its own block was mined), misses choosing or running a
            // transaction do.
            let nothingToMine = included.isEmpty && !allowEmpty
            let missedAfterSystemCalls = afterSystemCalls.map { forkGuard.cache.missed(since: $0) } ?? true
            if !nothingToMine || missedAfterSystemCalls {
                forkGuard.restore(self, droppingIncluded: allowEmpty ? [] : included.map(\.hash))
                throw .fork(.notFetched)
            }
        }
        if included.isEmpty && !allowEmpty {
            putBack()
            return (nil, rejected)
        }
        // The end-of-block requests (EIP-7685): deposit logs and the EIP-7002 / EIP-7251 queues, as the block
        // processor collects them.
        var requestsHash: Bytes32?
        if fork >= .prague {
            do {
                let requests = try ExecutionRequests.collect(
                    logs: outcomes.flatMap(\.logs), depositContract: schedule.depositContract,
                    in: &working, block: env, fork: fork)
                requestsHash = ExecutionRequests.hash(requests)
            } catch {
                if let forkGuard, forkGuard.missed {  // a system contract not fetched yet
                    forkGuard.restore(self, droppingIncluded: allowEmpty ? [] : included.map(\.hash))
                    throw .fork(.notFetched)
                }
                // Only a chain whose genesis lacks the system contracts gets here: nothing is mined.
                putBack()
                for (i, tx) in included.enumerated() { pool.add(tx, sender: senders[i]) }
                throw .executionFailed("cannot finish block \(env.number): \(error)")
            }
        }
        if let forkGuard, forkGuard.missed {
            forkGuard.restore(self, droppingIncluded: allowEmpty ? [] : included.map(\.hash))
            throw .fork(.notFetched)
        }
        if timestamp == nil { consumeNextTimestamp() }

        // State: the tries updated in place from what the block changed, which gives the reverse diff too.
        let changes = working.takeChanges()
        let (writes, diff) = committed.apply(changes, from: working.state)
        let stateRoot = committed.stateRoot

        // Receipts (consensus part), roots and bloom.
        var cumulative: UInt64 = 0
        var bloom = Bloom()
        var stored: [StoredReceipt] = []
        var receiptEncodings: [[UInt8]] = []
        var blooms: [Bloom] = []
        var blockLogs: [(transactionIndex: Int, log: Log)] = []
        for (i, outcome) in outcomes.enumerated() {
            cumulative += outcome.gasUsed
            let txBloom = Bloom(logs: outcome.logs)
            bloom.formUnion(txBloom)
            blooms.append(txBloom)
            let tx = included[i].transaction
            let contract = tx.to == nil ? ContractAddress.create(sender: senders[i], nonce: tx.nonce) : nil
            stored.append(
                StoredReceipt(
                    status: outcome.isSuccess, cumulativeGasUsed: cumulative, gasUsed: outcome.gasUsed,
                    effectiveGasPrice: outcome.effectiveGasPrice, contractAddress: contract, root: nil))
            receiptEncodings.append(
                Receipt.consensusEncoding(
                    type: tx.type, status: outcome.isSuccess, root: nil, cumulativeGasUsed: cumulative, bloom: txBloom,
                    logs: outcome.logs))
            for log in outcome.logs { blockLogs.append((i, log)) }
        }
        let header = BlockHeader(
            parentHash: headHash, coinbase: env.coinbase, stateRoot: stateRoot,
            transactionsRoot: MerklePatriciaTrie.root(ofList: included.map(\.encoded)),
            receiptsRoot: MerklePatriciaTrie.root(ofList: receiptEncodings), logsBloom: bloom,
            difficulty: env.difficulty, number: env.number, gasLimit: env.gasLimit, gasUsed: gasUsed,
            timestamp: env.timestamp, extraData: config.extraData, mixHash: env.prevRandao, nonce: 0,
            baseFeePerGas: baseFee, withdrawalsRoot: fork >= .shanghai ? MerklePatriciaTrie.emptyRoot : nil,
            blobGasUsed: fork >= .cancun ? blobGasUsed : nil, excessBlobGas: fork >= .cancun ? env.excessBlobGas : nil,
            parentBeaconBlockRoot: beaconRoot, requestsHash: requestsHash)
        let block = Block(header: header, transactions: included, senders: senders)

        do {
            try persist(
                ChainStore.BlockWrite(
                    header: header, hash: block.hash, transactions: included, senders: senders, receipts: stored,
                    logs: blockLogs, diff: diff, state: writes, devChanges: devChanges))
        } catch {
            // Nothing was written: put the state and the tries back as they were before the block (pending dev
            // changes included in the block are lost with it) and the transactions back in the pool.
            diff.revert(&working.state, code: committed.code)
            _ = committed.apply(changes, from: working.state)
            for (i, tx) in included.enumerated() { pool.add(tx, sender: senders[i]) }
            throw error
        }

        adopt(block, diff: diff, receipts: stored, logs: blockLogs, devChanges: devChanges ?? PendingDevState())
        var failed: [Int: [UInt8]] = [:]
        for (i, outcome) in outcomes.enumerated() where !outcome.isSuccess { failed[i] = outcome.output }
        blockCache[header.number]?.revertData = failed
        blockCache[header.number]?.blooms = blooms
        return (block, rejected)
    }

    /// Puts the working state back to the head's after a block failed or was abandoned part way, when no dev change
    /// was pending before it: an unfinished transaction is undone from the journal; what finished transactions and
    /// system calls changed is undone with the reverse diff against the committed head (`taken`, when the state-root
    /// step already took the changes).
    /// With `taken`, the tries were already updated from those changes (in place): they are put back too.
    func undoUnminedBlock(_ taken: (changes: StateChanges, diff: StateDiff)? = nil, fork: Hardfork) {
        working.revert(to: 0)
        working.finalize(rules: ForkRules(fork))
        _ = working.takeLogs()
        let remaining = working.takeChanges()
        guard let taken else {
            committed.reverseDiff(for: remaining).revert(&working.state, code: committed.code)
            return
        }
        taken.diff.revert(&working.state, code: committed.code)
        _ = committed.apply(taken.changes, from: working.state)
    }

    /// Makes a block that is in the database the head (mined or imported; the tries already hold its state): its
    /// hash, caches, and the announcement to head subscribers.
    /// `devChanges`: the dev changes it was mined on (none for an imported block).
    func adopt(
        _ block: Block, diff: StateDiff, receipts stored: [StoredReceipt], logs: [(transactionIndex: Int, log: Log)],
        devChanges: PendingDevState = PendingDevState()
    ) {
        let number = block.header.number
        devSettings.nextBaseFee = nil  // anvil_setNextBlockBaseFeePerGas names one block
        head = block.header
        headHash = block.hash
        hashes.append(block.hash)
        diffCache[number] = diff
        blockCache[number] = minedBlock(block, stored: stored, logs: logs)
        blockCache[number]?.devChanges = devChanges
        unwritten.add(block: number, hashes: block.transactions.map(\.hash))
        unwritten.forget(through: store.writtenThrough)
        trimCaches()
        announce(block)
    }

    /// The timestamp the next block will get, without consuming it. Fails when it would pass
    /// ``maxTimestamp`` (the chain has reached the end of time: only a revert to a snapshot helps).
    func peekTimestamp() throws(ChainError) -> UInt64 {
        if let next = nextTimestamp { return next }
        let next: UInt64?
        switch config.clock {
        case .fixedStep(let step): next = Self.timestampSum(head.timestamp, step, pendingTimeJump)
        case .system, .custom:
            next = Self.timestampSum(head.timestamp, 1).map { Swift.max(Self.shifted(config.clock.now() ?? 0, by: timeOffset) ?? $0, $0) }
        }
        guard let next else {
            throw .invalidParams(
                "the next block's timestamp would pass the largest timestamp \(Self.maxTimestamp) (2^63-1); revert to a snapshot")
        }
        return next
    }

    /// A block as the cache holds it.
    func minedBlock(_ block: Block, stored: [StoredReceipt], logs: [(transactionIndex: Int, log: Log)]) -> MinedBlock {
        MinedBlock(block: block, stored: stored, logs: logs, blobGasPrice: blobBaseFee(of: block.header))
    }

    /// Keeps the caches to the most recent ``cacheDepth`` blocks.
    func trimCaches() {
        let number = head.number
        guard number > Self.cacheDepth else { return }
        let floor = number - Self.cacheDepth
        blockCache[floor] = nil
        diffCache[floor] = nil
        // Entries read back from the database for older blocks are dropped in bulk, rarely.
        if blockCache.count > Int(Self.cacheDepth) * 2 { blockCache = blockCache.filter { $0.key > floor } }
        if diffCache.count > Int(Self.cacheDepth) * 4 { diffCache = diffCache.filter { $0.key > floor } }
    }
}
