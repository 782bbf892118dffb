import EVM
import EthereumPrimitives
import EthereumTransactions

extension DevChain {
    /// Traces a call as `eth_call` would run it, with `tracer` (`debug_traceCall`): on the state after block `id` (the
    /// live state for the head and `pending`), in that block's environment with `blockOverrides` applied, with the
    /// accounts `overrides` change. Nothing changes. The gas is capped by `limits.gasCap` (and from Osaka by
    /// EIP-7825's 2^24), the run by `limits.timeout`, the answer by `traceLimits`.
    ///
    /// For the prestate tracer the call is settled as a transaction would be (unused gas paid back to the sender, the
    /// priority fee to the coinbase, the transaction ended) before the state after it is read, as geth's
    /// `debug_traceCall` runs the call as a transaction.
    public func traceCall(
        _ request: CallRequest, at id: BlockID = .latest, overrides: StateOverrides = [:],
        blockOverrides: BlockOverrides? = nil, tracer: TracerConfiguration, limits: CallLimits = .standard,
        traceLimits: TraceLimits = .standard
    ) throws(ChainError) -> TraceResult {
        let context = try callContext(request, at: id, overrides: overrides, blockOverrides: blockOverrides, limits: limits)
        let call = context.call
        var target = TracedCall(
            journaled: JournaledState(state: WorldState(), blockHashes: context.hashes), call: call,
            block: context.environment, fork: context.fork, buffers: buffers, deadline: context.deadline,
            context: TraceContext(
                gasLimit: call.gas, sender: call.from, coinbase: context.environment.coinbase,
                authorizations: call.authorizations ?? [], fork: context.fork, logIndex: 0))
        if let historical = context.historical {
            target.journaled.state = historical
            return try tracer.trace(&target, maxBytes: traceLimits.maxBytes, timeout: limits.timeout).result
        }
        // The live state is moved into the run and back (the call undoes its changes); nothing else runs meanwhile.
        working.blockHashes = context.hashes
        swap(&target.journaled, &working)
        defer { swap(&target.journaled, &working) }
        return try tracer.trace(&target, maxBytes: traceLimits.maxBytes, timeout: limits.timeout).result
    }
}

/// `debug_traceCall`'s call, run by ``CallExecutor`` on the state it names.
struct TracedCall: TraceTarget {
    var journaled: JournaledState
    let call: PreparedCall
    let block: BlockEnvironment
    let fork: Hardfork
    let buffers: ExecutionBuffers
    let deadline: ContinuousClock.Instant?
    let context: TraceContext

    mutating func run<T: Tracer>(_ tracer: inout T, capturingStates: Bool) throws(ChainError) -> TracedOutcome {
        let before = capturingStates ? journaled : nil
        var after: JournaledState?
        var deployed: [UInt8]?
        let call = self.call
        let block = self.block
        let rules = ForkRules(fork)
        let result = try CallExecutor.run(
            call, on: &journaled, block: block, fork: fork, tracer: &tracer, buffers: buffers, deadline: deadline
        ) { state, result in
            // A creation returns the code it deployed, as geth's result does.
            if result.isSuccess, let created = result.createdAddress { deployed = state.code(at: created) }
            guard capturingStates else { return }
            let gasUsed = result.gasUsed
            // Settled as geth settles the transaction it runs: a free call pays no fee (geth's NoBaseFee).
            let tip = call.gasPrice.isZero ? nil : MessageExecution.tip(price: call.gasPrice, block: block, rules: rules)
            MessageExecution.pay(
                &state, sender: call.from, unusedGas: call.gas - gasUsed, price: call.gasPrice, coinbase: block.coinbase,
                gasUsed: gasUsed, tip: tip)
            var ended = state
            ended.recordsChanges = false
            ended.finalize(rules: rules)
            after = ended
        }
        var states: (pre: JournaledState, post: JournaledState)?
        if let before, let after { states = (before, after) }
        return TracedOutcome(
            status: result.status, gasUsed: result.gasUsed, output: deployed ?? result.output, logCount: result.logs.count,
            states: states)
    }
}
