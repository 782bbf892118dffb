import EVM
import EthereumPrimitives
import EthereumTransactions
import EthereumTrie

/// What a simulation needs to know about the chain it builds on.
struct SimulationChain: Sendable {
    var chainID: UInt64
    /// The base fee of the first London block.
    var initialBaseFee: UInt256
    /// Where deposit logs come from (EIP-6110).
    var depositContract: Address
    /// The fork of a block with this number and timestamp.
    var fork: @Sendable (_ number: UInt64, _ timestamp: UInt64) -> Hardfork
    /// The blob parameters of a fork (Cancun and later).
    var blobSchedule: @Sendable (Hardfork) -> BlobSchedule
    /// The hash of a canonical block at or below the base (BLOCKHASH).
    var canonicalHash: @Sendable (UInt64) -> Bytes32
    /// The base block and its hash.
    var base: BlockHeader
    var baseHash: Bytes32
}

/// Builds the blocks of an `eth_simulateV1` request on a base block's state, as geth's `simulator`: per block the
/// state overrides, the start-of-block system calls, the calls as unsigned transactions (checked as real ones with
/// `validation`, else as free calls), the end-of-block requests and withdrawals (or, before the merge, the
/// block reward), then the header with every root a mined block would have, so hashes chain and BLOCKHASH sees them.
///
/// The state is journaled from the base's, its tries updated from what each block changed (so a state root costs the
/// changed paths only). Every call together may use `gasCap` gas (geth's RPC gas cap, shared across the request) and
/// the whole request must finish by `deadline`.
struct Simulator {
    let chain: SimulationChain
    let validate: Bool
    let traceTransfers: Bool
    let buffers: ExecutionBuffers
    let deadline: ContinuousClock.Instant?
    let timeout: Duration?
    /// Gas the request's calls may still use (geth's `gasBudget`; UInt64.max when uncapped).
    var budget: UInt64
    var state: JournaledState
    var tries: CommittedState
    /// The hashes of the blocks built so far.
    private var hashes: [Bytes32] = []

    init(
        chain: SimulationChain, state: WorldState, tries: CommittedState, request: SimulationRequest, limits: CallLimits,
        buffers: ExecutionBuffers
    ) {
        self.chain = chain
        self.validate = request.validation
        self.traceTransfers = request.traceTransfers
        self.buffers = buffers
        self.deadline = limits.deadline()
        self.timeout = limits.timeout
        self.budget = limits.gasCap == 0 ? .max : limits.gasCap
        self.state = JournaledState(state: state)
        self.state.recordsChanges = true
        self.tries = tries
    }

    /// Runs every block of `request` (already sized by ``SimulationPlan/checkSize(_:)``).
    mutating func run(_ request: SimulationRequest) throws(SimulationError) -> [SimulatedBlock] {
        let blocks = try SimulationPlan.blocks(request.blocks, baseNumber: chain.base.number, baseTime: chain.base.timestamp)
        var results: [SimulatedBlock] = []
        results.reserveCapacity(blocks.count)
        var parent = chain.base
        var parentHash = chain.baseHash
        for block in blocks {
            let built = try build(block, parent: parent, parentHash: parentHash)
            results.append(built)
            parent = built.block.header
            parentHash = built.hash
            hashes.append(built.hash)
        }
        return results
    }

    // MARK: One block

    private mutating func build(
        _ request: SimulatedBlockRequest, parent: BlockHeader, parentHash: Bytes32
    ) throws(SimulationError) -> SimulatedBlock {
        let o = request.overrides
        let number = o.number ?? parent.number &+ 1  // set by SimulationPlan
        let timestamp = o.time ?? parent.timestamp
        let fork = chain.fork(number, timestamp)
        let rules = ForkRules(fork)
        let parentFork = chain.fork(parent.number, parent.timestamp)

        var header = BlockHeader(
            parentHash: parentHash, coinbase: o.feeRecipient ?? parent.coinbase, stateRoot: .zero,
            difficulty: o.difficulty ?? (fork >= .paris ? .zero : parent.difficulty), number: number,
            gasLimit: o.gasLimit ?? parent.gasLimit, gasUsed: 0, timestamp: timestamp, extraData: [],
            mixHash: o.prevRandao ?? .zero, nonce: 0, baseFeePerGas: o.baseFeePerGas)
        if rules.baseFee && header.baseFeePerGas == nil {
            // Without validation the base fee is zero unless given, so a free call is never below it.
            header.baseFeePerGas = validate ? FeeMarket.nextBaseFee(parent: parent, initialBaseFee: chain.initialBaseFee) : .zero
        }
        if fork >= .cancun {
            header.excessBlobGas =
                parentFork >= .cancun
                ? FeeMarket.nextExcessBlobGas(parent: parent, schedule: chain.blobSchedule(fork), fork: fork) : 0
            header.parentBeaconBlockRoot = o.beaconRoot ?? .zero
        }
        var precompiles = PrecompileOverrides()
        try StateOverrideApplication.apply(request.stateOverrides, to: &state, precompiles: &precompiles, fork: fork)

        let env = BlockEnvironment(
            coinbase: header.coinbase, number: number, timestamp: timestamp, gasLimit: header.gasLimit,
            difficulty: header.difficulty, prevRandao: header.mixHash, baseFee: header.baseFeePerGas ?? .zero,
            excessBlobGas: header.excessBlobGas ?? 0, chainID: UInt256(chain.chainID),
            blobSchedule: chain.blobSchedule(fork), blobBaseFeeOverride: o.blobBaseFee,
            precompileOverrides: precompiles == PrecompileOverrides() ? nil : precompiles)
        state.blockHashes = blockHashes(below: number)
        SystemCalls.beginBlock(
            parentHash: parentHash, parentBeaconBlockRoot: header.parentBeaconBlockRoot, in: &state, block: env, fork: fork)

        var transactions: [SignedTransaction] = []
        var senders: [Address] = []
        var receipts: [[UInt8]] = []
        var calls: [SimulatedCallResult] = []
        var blockLogs: [Log] = []
        var bloom = Bloom()
        var gasUsed: UInt64 = 0
        var blobGasUsed: UInt64 = 0
        var tracer = SimulationTracer(traceTransfers: traceTransfers)
        for (index, call) in request.calls.enumerated() {
            if let deadline, ContinuousClock.now >= deadline { throw .chain(.executionTimeout(timeout ?? .zero)) }
            let prepared = try prepare(call, header: header, remainingGas: header.gasLimit - gasUsed)
            let tx = prepared.transaction
            tracer.reset()
            var outcome: TransactionOutcome
            do {
                outcome = try TransactionExecutor.execute(
                    ExecutableTransaction(tx, sender: prepared.sender), in: &state, block: env, fork: fork,
                    blockGasAvailable: header.gasLimit - gasUsed,
                    checks: TransactionChecks(nonce: validate, transaction: false, feesWhenFree: validate),
                    tracer: &tracer, buffers: buffers, deadline: deadline)
            } catch {
                throw SimulationError.transaction(
                    error, sender: prepared.sender, transaction: tx, baseFee: env.baseFee,
                    balance: state.balance(of: prepared.sender), nonce: state.nonce(of: prepared.sender))
            }
            if outcome.status == .aborted { throw .chain(.executionTimeout(timeout ?? .zero)) }
            if let reason = outcome.unsupportedReason { throw .chain(.executionFailed("unsupported by this EVM: \(reason)")) }
            // A creation returns the code it deployed (read before a self-destruct in the constructor removes it).
            if outcome.isSuccess, let created = outcome.createdAddress { outcome.output = state.code(at: created) }
            state.finalize(rules: rules)
            gasUsed += outcome.gasUsed
            blobGasUsed += tx.blobGas
            budget -= Swift.min(budget, outcome.gasUsed)  // gas was capped to the budget, so this never clamps

            // Before Byzantium a receipt holds the state root after its transaction (EIP-658 replaced it).
            let root: Bytes32? = fork >= .byzantium ? nil : stateRoot()
            let txBloom = Bloom(logs: outcome.logs)
            bloom.formUnion(txBloom)
            receipts.append(
                Receipt.consensusEncoding(
                    type: tx.type, status: outcome.isSuccess, root: root, cumulativeGasUsed: gasUsed, bloom: txBloom,
                    logs: outcome.logs))
            blockLogs += outcome.logs
            let signed = SignedTransaction(transaction: tx, signature: TransactionSignature(v: .zero, r: .zero, s: .zero))
            transactions.append(signed)
            senders.append(prepared.sender)
            calls.append(
                result(
                    outcome, logs: tracer.logs, transaction: signed.hash, index: index, number: number,
                    timestamp: timestamp, gasCapped: prepared.gasCapped))
        }
        header.gasUsed = gasUsed
        if fork >= .cancun { header.blobGasUsed = blobGasUsed }

        if fork >= .prague {
            do {
                let requests = try ExecutionRequests.collect(
                    logs: blockLogs, depositContract: chain.depositContract, in: &state, block: env, fork: fork)
                header.requestsHash = ExecutionRequests.hash(requests)
            } catch {
                throw .chain(.executionFailed("cannot finish simulated block \(number): \(error)"))
            }
        }
        let withdrawals = fork >= .shanghai ? o.withdrawals ?? [] : []
        if header.difficulty.isZero {
            // Proof of stake: the withdrawals are credited; the consensus layer pays the proposer.
            BlockProcessor.applyWithdrawals(withdrawals, in: &state, fork: fork)
        } else {
            ProofOfWork.applyRewards(header: header, ommers: [], fork: fork, in: &state)
        }
        if fork >= .shanghai { header.withdrawalsRoot = MerklePatriciaTrie.root(ofList: withdrawals.map { RLP.encode($0.rlp) }) }
        header.stateRoot = stateRoot()
        header.transactionsRoot = MerklePatriciaTrie.root(ofList: transactions.map(\.encoded))
        header.receiptsRoot = MerklePatriciaTrie.root(ofList: receipts)
        header.logsBloom = bloom

        let block = Block(header: header, transactions: transactions, senders: senders, withdrawals: withdrawals)
        for i in calls.indices {
            for j in calls[i].logs.indices { calls[i].logs[j].blockHash = block.hash }
        }
        return SimulatedBlock(block: block, calls: calls)
    }

    /// The state root now, after bringing the tries up to the state.
    private mutating func stateRoot() -> Bytes32 {
        _ = tries.apply(state.takeChanges(), from: state.state)
        return tries.stateRoot
    }

    /// BLOCKHASH for a block numbered `number`: simulated blocks after the base, canonical ones up to it.
    private func blockHashes(below number: UInt64) -> @Sendable (UInt64) -> Bytes32 {
        let base = chain.base.number
        let simulated = hashes
        let canonical = chain.canonicalHash
        return { n in
            guard n < number else { return .zero }
            if n > base {
                let i = n - base - 1
                return i < UInt64(simulated.count) ? simulated[Int(i)] : .zero
            }
            return canonical(n)
        }
    }

    // MARK: One call

    /// A call's result as `eth_simulateV1` reports it.
    private func result(
        _ outcome: TransactionOutcome, logs: [SimulationTracer.IndexedLog], transaction: Bytes32, index: Int,
        number: UInt64, timestamp: UInt64, gasCapped: Bool
    ) -> SimulatedCallResult {
        var error: SimulatedCallError?
        if outcome.status == .reverted {
            let reason = CallResult.reason(outcome.output)
            error = SimulatedCallError(
                code: 3, message: reason.map { "execution reverted: \($0)" } ?? "execution reverted", data: outcome.output)
        } else if !outcome.isSuccess {
            var message = outcome.status.errorDescription ?? "execution failed"
            if gasCapped { message += " (gas limit was capped by the RPC server's global gas cap)" }
            error = SimulatedCallError(code: SimulatedCallError.vmErrorCode, message: message, data: nil)
        }
        let entries = logs.map { indexed in
            LogEntry(
                address: indexed.log.address, topics: indexed.log.topics, data: indexed.log.data, blockNumber: number,
                blockHash: .zero, transactionHash: transaction, transactionIndex: index, logIndex: indexed.index,
                blockTimestamp: timestamp)
        }
        return SimulatedCallResult(
            status: outcome.isSuccess, returnData: outcome.isSuccess ? outcome.output : [], gasUsed: outcome.gasUsed,
            maxUsedGas: outcome.peakGasUsed, logs: entries, error: error)
    }
}
