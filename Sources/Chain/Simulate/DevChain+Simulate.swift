import EVM
import EthereumPrimitives

extension DevChain {
    /// Simulates blocks of calls on top of block `id` without changing the chain (`eth_simulateV1`). Each
    /// simulated block gets the fork of its own number and time; the base may be any block (a tag, a number or a
    /// hash; `pending` is the pending block, on its state, as geth's). The calls together may use `limits.gasCap` gas and the request
    /// `limits.timeout`; a call that reverts or halts is a result, anything that makes the request invalid (block
    /// order, a call that is not a valid transaction, an override that cannot apply) throws with the spec's code.
    public func simulate(
        _ request: SimulationRequest, at id: BlockID = .latest, limits: CallLimits = .standard
    ) throws(SimulationError) -> [SimulatedBlock] {
        try SimulationPlan.checkSize(request)
        if case .pending = id { return try simulateOnPendingBlock(request, limits: limits) }
        guard let number = resolve(id) else { throw .chain(.unknownBlock("\(id)")) }
        let base: BlockHeader
        let state: WorldState
        var tries: CommittedState
        let baseHash: Bytes32
        do throws(ChainError) {
            baseHash = try blockHash(number) ?? .zero
            if number == head.number {
                // The live state, with dev changes not yet mined, as eth_call sees it.
                base = head
                state = working.state
                tries = committed
                _ = tries.apply(working.changes, from: state)
            } else {
                guard let header = try store.header(number: number) else { throw ChainError.unknownBlock("\(id)") }
                base = header
                state = try self.state(at: number)
                tries = CommittedState(state: state)
            }
        } catch {
            throw .chain(error)
        }
        let chain = SimulationChain(
            chainID: chainId, initialBaseFee: config.initialBaseFee,
            depositContract: schedule.depositContract,
            fork: { [self] number, timestamp in self.fork(number: number, timestamp: timestamp) },
            blobSchedule: { [self] fork in self.blobSchedule(for: fork) }, canonicalHash: blockHashFunction(upTo: number),
            base: base, baseHash: baseHash)
        var simulator = Simulator(
            chain: chain, state: state, tries: tries, request: request, limits: limits, buffers: buffers)
        return try simulator.run(request)
    }

    /// The simulation on the pending block (DevChain+Pending.swift): its header is the base, the state after its
    /// transactions the base state, and BLOCKHASH of its number its hash.
    private func simulateOnPendingBlock(_ request: SimulationRequest, limits: CallLimits) throws(SimulationError) -> [SimulatedBlock] {
        let pending: PendingBlock
        do { pending = try self.pending() } catch { throw .chain(error) }
        let base = pending.mined.block
        let canonical = blockHashFunction(upTo: head.number)
        let chain = SimulationChain(
            chainID: chainId, initialBaseFee: config.initialBaseFee, depositContract: schedule.depositContract,
            fork: { [self] number, timestamp in self.fork(number: number, timestamp: timestamp) },
            blobSchedule: { [self] fork in self.blobSchedule(for: fork) },
            canonicalHash: { n in n == base.number ? base.hash : canonical(n) }, base: base.header, baseHash: base.hash)
        var simulator = Simulator(
            chain: chain, state: pending.state, tries: CommittedState(state: pending.state), request: request,
            limits: limits, buffers: buffers)
        return try simulator.run(request)
    }
}
