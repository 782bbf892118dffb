import EVM
import EthereumPrimitives
import EthereumTransactions

/// Struct-log traces of mined transactions (`debug_traceTransaction`, `debug_traceBlockByNumber`,
/// `debug_traceBlockByHash`): one replay of a block from its parent's state serves both.
extension DevChain {
    /// One transaction's trace in a block trace.
    public struct TransactionTrace: Sendable {
        /// The transaction.
        public var transactionHash: Bytes32
        /// Its struct logs.
        public var trace: StructLogTrace
    }

    /// Traces every transaction of block `id` in order, each on the state the earlier ones left (geth's
    /// `debug_traceBlock*` with the struct logger). The genesis block has no parent state: refused as geth does.
    /// The block shares one `traceLimits` budget and one `limits.timeout`.
    public func traceBlock(
        _ id: BlockID, options: StructLogOptions = StructLogOptions(), limits: CallLimits = .standard,
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
        let traces = try replay(block, through: block.transactions.count - 1, tracing: { _ in true }, options: options,
                                limits: limits, traceLimits: traceLimits)
        return block.transactions.indices.compactMap { i in
            traces[i].map { TransactionTrace(transactionHash: block.transactions[i].hash, trace: $0) }
        }
    }

    /// Re-executes the block of a mined transaction up to it and traces it with a struct-log tracer
    /// (`debug_traceTransaction`) recording what `options` ask for. Fails with
    /// ``ChainError/traceTooLarge(_:)`` past `traceLimits` and ``ChainError/executionTimeout(_:)`` past
    /// `limits.timeout`.
    public func trace(
        transaction hash: Bytes32, options: StructLogOptions = StructLogOptions(), limits: CallLimits = .standard,
        traceLimits: TraceLimits = .standard
    ) throws(ChainError) -> StructLogTrace {
        guard let position = try store.transactionPosition(hash: hash), let mined = try minedBlock(position.block),
            position.block > 0, position.index < mined.block.transactions.count
        else { throw .unknownTransaction(hash) }
        let traces = try replay(
            mined.block, through: position.index, tracing: { $0 == position.index }, options: options, limits: limits,
            traceLimits: traceLimits)
        guard let trace = traces[position.index] else { throw .unknownTransaction(hash) }
        return trace
    }

    /// Replays `block` (not genesis) on its parent's state: the start-of-block system calls (EIP-4788,
    /// EIP-2935), then its transactions `0...last`, tracing those `tracing` selects. The traced ones share
    /// `traceLimits.maxBytes`; all share `limits.timeout`.
    func replay(
        _ block: Block, through last: Int, tracing: (Int) -> Bool, options: StructLogOptions, limits: CallLimits,
        traceLimits: TraceLimits
    ) throws(ChainError) -> [Int: StructLogTrace] {
        guard block.number > 0, last >= 0 else { return [:] }
        let deadline = limits.deadline()
        let fork = fork(of: block.header)
        let env = environment(of: block.header)
        let hashes = blockHashFunction(upTo: block.number - 1)
        var start = JournaledState(state: try self.state(at: block.number - 1), blockHashes: hashes)
        SystemCalls.beginBlock(
            parentHash: block.header.parentHash, parentBeaconBlockRoot: block.header.parentBeaconBlockRoot, in: &start,
            block: env, fork: fork)
        var state = start.state
        var traces: [Int: StructLogTrace] = [:]
        var budget = traceLimits.maxBytes
        var noTracer = NoTracer()
        for i in 0...min(last, block.transactions.count - 1) {
            let transaction = ExecutableTransaction(block.transactions[i], sender: block.senders[i])
            guard tracing(i) else {
                let outcome = try? TransactionExecutor.execute(
                    transaction, state: &state, block: env, fork: fork, blockHashes: hashes, tracer: &noTracer,
                    buffers: buffers, deadline: deadline)
                if outcome?.status == .aborted { throw .executionTimeout(limits.timeout ?? .zero) }
                continue
            }
            var tracer = StructLogTracer(options: options, maxBytes: traceLimits.maxBytes == 0 ? 0 : max(budget, 1))
            let outcome: TransactionOutcome
            do {
                outcome = try TransactionExecutor.execute(
                    transaction, state: &state, block: env, fork: fork, blockHashes: hashes, tracer: &tracer,
                    buffers: buffers, deadline: deadline)
            } catch {
                throw .executionFailed("cannot re-execute \(Hex.encode(block.transactions[i].hash.bytes)): \(error)")
            }
            if outcome.status == .aborted { throw .executionTimeout(limits.timeout ?? .zero) }
            if tracer.overflowed {
                throw .traceTooLarge(
                    "the struct logs passed \(traceLimits.maxBytes) bytes after \(tracer.logs.count) steps; ask for less "
                        + "with the tracer options limit, disableStack, disableStorage or enableMemory: false")
            }
            budget -= tracer.recordedBytes
            traces[i] = StructLogTrace(
                gas: outcome.gasUsed, failed: !outcome.isSuccess, returnValue: outcome.output, structLogs: tracer.logs)
        }
        return traces
    }
}
