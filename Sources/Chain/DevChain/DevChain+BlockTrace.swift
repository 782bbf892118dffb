import EVM
import EthereumPrimitives
import EthereumTransactions

/// Traces of mined transactions (`debug_traceTransaction`, `debug_traceBlockByNumber`, `debug_traceBlockByHash`),
/// under any of the tracers of ``TracerConfiguration``: one replay of a block from its parent's state serves all.
extension DevChain {
    /// One transaction's trace in a block trace.
    public struct TransactionTrace: Sendable {
        /// The transaction.
        public var transactionHash: Bytes32
        /// What its tracer recorded.
        public var result: TraceResult
    }

    /// Traces every transaction of block `id` in order, each on the state the earlier ones left (geth's
    /// `debug_traceBlock*`). The genesis block has no parent state: refused as geth does.
    /// The block shares one `traceLimits` budget and one `limits.timeout`.
    public func traceBlock(
        _ id: BlockID, tracer: TracerConfiguration = .structLogger(StructLogOptions()), limits: CallLimits = .standard,
        traceLimits: TraceLimits = .standard
    ) throws(ChainError) -> [TransactionTrace] {
        guard let number = resolve(id), let mined = try minedBlock(number) else {
            switch id {
            case .hash(let hash): throw .executionFailed("block \(Hex.encode(hash.bytes)) not found")
            case .number(let n): throw .executionFailed("block #\(n) not found")
            default: throw .unknownBlock("\(id)")
            }
        }
        guard number > 0 else { throw .executionFailed("genesis is not traceable") }
        let block = mined.block
        let traces = try replay(
            block, through: block.transactions.count - 1, tracing: { _ in true }, tracer: tracer, limits: limits,
            traceLimits: traceLimits)
        return block.transactions.indices.compactMap { i in
            traces[i].map { TransactionTrace(transactionHash: block.transactions[i].hash, result: $0) }
        }
    }

    /// Re-executes the block of a mined transaction up to it and traces it with `tracer`
    /// (`debug_traceTransaction`). Fails with ``ChainError/traceTooLarge(_:)`` past `traceLimits` and
    /// ``ChainError/executionTimeout(_:)`` past `limits.timeout`.
    public func trace(
        transaction hash: Bytes32, tracer: TracerConfiguration, limits: CallLimits = .standard,
        traceLimits: TraceLimits = .standard
    ) throws(ChainError) -> TraceResult {
        guard let position = try transactionPosition(hash: hash), let mined = try minedBlock(position.block),
            position.block > 0, position.index < mined.block.transactions.count
        else { throw .unknownTransaction(hash) }
        let traces = try replay(
            mined.block, through: position.index, tracing: { $0 == position.index }, tracer: tracer, limits: limits,
            traceLimits: traceLimits)
        guard let trace = traces[position.index] else { throw .unknownTransaction(hash) }
        return trace
    }

    /// A mined transaction's struct-log trace (geth's default tracer) recording what `options` ask for.
    public func trace(
        transaction hash: Bytes32, options: StructLogOptions = StructLogOptions(), limits: CallLimits = .standard,
        traceLimits: TraceLimits = .standard
    ) throws(ChainError) -> StructLogTrace {
        guard case .structLogs(let trace) = try trace(
            transaction: hash, tracer: .structLogger(options), limits: limits, traceLimits: traceLimits)
        else { throw .executionFailed("the struct logger gave another kind of trace") }
        return trace
    }

    /// Replays `block` (not genesis) on the state it was mined on — its parent's, plus the dev changes made before it
    /// (DevChain+PreBlockChanges.swift) —: the start-of-block system calls (EIP-4788, EIP-2935), then its transactions `0...last`, tracing those `tracing` selects. The traced ones share
    /// `traceLimits.maxBytes`; all share `limits.timeout`.
    func replay(
        _ block: Block, through last: Int, tracing: (Int) -> Bool, tracer: TracerConfiguration, limits: CallLimits,
        traceLimits: TraceLimits
    ) throws(ChainError) -> [Int: TraceResult] {
        guard block.number > 0, last >= 0 else { return [:] }
        let deadline = limits.deadline()
        let fork = fork(of: block.header)
        let env = environment(of: block.header)
        let hashes = blockHashFunction(upTo: block.number - 1)
        var start = JournaledState(state: try self.state(at: block.number - 1), blockHashes: hashes)
        // The dev changes made between the parent and the block are part of the state it was mined on.
        let devChanges = try self.devChanges(before: block.number)
        if !devChanges.isEmpty { devChanges.apply(to: &start) }
        SystemCalls.beginBlock(
            parentHash: block.header.parentHash, parentBeaconBlockRoot: block.header.parentBeaconBlockRoot, in: &start,
            block: env, fork: fork)
        var state = start.state
        var traces: [Int: TraceResult] = [:]
        var budget = traceLimits.maxBytes
        var logIndex = 0
        var noTracer = NoTracer()
        for i in 0...min(last, block.transactions.count - 1) {
            let transaction = ExecutableTransaction(block.transactions[i], sender: block.senders[i])
            guard tracing(i) else {
                let outcome = try? TransactionExecutor.execute(
                    transaction, state: &state, block: env, fork: fork, blockHashes: hashes, tracer: &noTracer,
                    buffers: buffers, deadline: deadline)
                if outcome?.status == .aborted { throw .executionTimeout(limits.timeout ?? .zero) }
                logIndex += outcome?.logs.count ?? 0
                continue
            }
            let tx = block.transactions[i].transaction
            var target = ReplayedTransaction(
                state: WorldState(), transaction: transaction, hash: block.transactions[i].hash, block: env, fork: fork,
                hashes: hashes, buffers: buffers, deadline: deadline,
                context: TraceContext(
                    gasLimit: tx.gasLimit, sender: block.senders[i], coinbase: env.coinbase,
                    authorizations: tx.authorizationList, fork: fork, logIndex: logIndex))
            swap(&target.state, &state)
            defer { swap(&target.state, &state) }
            let traced = try tracer.trace(
                &target, maxBytes: traceLimits.maxBytes == 0 ? 0 : max(budget, 1), timeout: limits.timeout)
            budget -= traced.bytes
            logIndex += traced.logCount
            traces[i] = traced.result
        }
        return traces
    }
}

/// A mined transaction run again on the state its block left before it.
struct ReplayedTransaction: TraceTarget {
    var state: WorldState
    let transaction: ExecutableTransaction
    let hash: Bytes32
    let block: BlockEnvironment
    let fork: Hardfork
    let hashes: @Sendable (UInt64) -> Bytes32
    let buffers: ExecutionBuffers
    let deadline: ContinuousClock.Instant?
    let context: TraceContext

    mutating func run<T: Tracer>(_ tracer: inout T, capturingStates: Bool) throws(ChainError) -> TracedOutcome {
        let before = capturingStates ? state : nil
        let outcome: TransactionOutcome
        do {
            outcome = try TransactionExecutor.execute(
                transaction, state: &state, block: block, fork: fork, blockHashes: hashes, tracer: &tracer,
                buffers: buffers, deadline: deadline)
        } catch {
            throw .executionFailed("cannot re-execute \(Hex.encode(hash.bytes)): \(error)")
        }
        // A creation returns the code it deployed, as geth's result does (gone again if the constructor self-destructed).
        var output = outcome.output
        if outcome.isSuccess, let created = outcome.createdAddress { output = state.account(created)?.code ?? [] }
        return TracedOutcome(
            status: outcome.status, gasUsed: outcome.gasUsed, output: output, logCount: outcome.logs.count,
            states: before.map { (JournaledState(state: $0), JournaledState(state: state)) })
    }
}
