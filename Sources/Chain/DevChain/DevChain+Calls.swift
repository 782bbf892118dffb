import EVM
import EthereumPrimitives
import EthereumTransactions

extension DevChain {
    /// Executes a call against the state at `id` without changing anything (`eth_call`). A revert
    /// or halt is returned in the result (see ``CallResult/error``); invalid parameters (funds,
    /// fee cap, intrinsic gas) throw, and so does running past `limits.timeout`
    /// (``ChainError/executionTimeout(_:)``). The gas is capped by `limits.gasCap` and, from Osaka, by EIP-7825's
    /// 2^24. A request's `authorizationList` (Prague) is applied before the call, as a type-4 transaction's is.
    ///
    /// `overrides` (eth_call's third parameter, geth's state override set) change accounts for this call only, as
    /// eth_simulateV1's `stateOverrides` do.
    public func call(
        _ request: CallRequest, at id: BlockID = .latest, overrides: StateOverrides = [:], limits: CallLimits = .standard
    ) throws(ChainError) -> CallResult {
        var context = try callContext(request, at: id, overrides: overrides, limits: limits)
        var tracer = NoTracer()
        return try run(context.call, in: &context, tracer: &tracer)
    }

    /// The smallest gas limit under which the call succeeds (`eth_estimateGas`), by binary search
    /// between the intrinsic gas and the request's gas (or the block gas limit, or what the sender can
    /// pay for at the request's price). A call that fails at the cap throws its revert
    /// (``ChainError/executionReverted(data:reason:)``), its error, or
    /// ``ChainError/gasRequiredExceedsAllowance(_:)`` when it ran out of gas. The search starts from the
    /// gas capped by `limits.gasCap`, and all of its runs together get `limits.timeout`.
    /// `overrides` (eth_estimateGas's third parameter, as geth takes it) change accounts for the estimate only.
    public func estimateGas(
        _ request: CallRequest, at id: BlockID = .latest, overrides: StateOverrides = [:], limits: CallLimits = .standard
    ) throws(ChainError) -> UInt64 {
        var context = try callContext(request, at: id, overrides: overrides, limits: limits)
        var call = context.call
        var hi = call.gas
        if !call.gasPrice.isZero {
            let balance: UInt256
            if let state = context.historical { balance = state.account(call.from)?.balance ?? .zero } else { balance = try self.balance(call.from, at: id) }
            let available = balance > call.value ? balance - call.value : .zero
            let allowance = available / call.gasPrice
            if allowance < UInt256(hi) { hi = allowance.low64 }
        }
        let intrinsic = call.transaction.intrinsicGas(fork: context.fork)
        var lo = Swift.max(intrinsic.gas, intrinsic.floor) - 1
        guard hi > lo else { throw .gasRequiredExceedsAllowance(hi) }
        var tracer = NoTracer()

        call.gas = hi
        let first = try run(call, in: &context, tracer: &tracer)
        if !first.isSuccess {
            if first.status == .outOfGas { throw .gasRequiredExceedsAllowance(hi) }
            throw first.error ?? .executionFailed("execution failed")
        }
        // geth's first guess: the gas used plus the most a refund or the 63/64 rule can hide.
        let (padded, o1) = first.gasUsed.addingReportingOverflow(2300)
        let (scaled, o2) = padded.multipliedReportingOverflow(by: 64)
        let optimistic = o1 || o2 ? UInt64.max : scaled / 63
        if optimistic > lo && optimistic < hi {
            call.gas = optimistic
            if try succeeds(call, in: &context, tracer: &tracer) { hi = optimistic } else { lo = optimistic }
        }
        while lo + 1 < hi {
            let mid = lo + (hi - lo) / 2
            call.gas = mid
            if try succeeds(call, in: &context, tracer: &tracer) { hi = mid } else { lo = mid }
        }
        return hi
    }

    /// The accounts and slots a call touches and the gas it uses with them listed
    /// (`eth_createAccessList`). Runs until the list stops changing (at most 4 runs).
    public func createAccessList(
        _ request: CallRequest, at id: BlockID = .latest, limits: CallLimits = .standard
    ) throws(ChainError) -> AccessListResult {
        var context = try callContext(request, at: id, limits: limits)
        var call = context.call
        var excluded: Set<Address> = [call.from]
        if let to = call.to { excluded.insert(to) }
        for address in Precompiles.addresses(for: context.fork) { excluded.insert(address) }
        // EIP-7702 warms each valid authorization's authority, so listing one would only cost gas. Each costs 25,000
        // intrinsic gas: more than the gas pays for are refused before any signature is recovered (as geth does).
        let authorizations = call.authorizations ?? []
        guard UInt64(authorizations.count) <= call.gas / IntrinsicGas.authorization else {
            throw .executionFailed("insufficient gas to process all authorizations")
        }
        for authorization in authorizations {
            if let authority = try? authorization.authority() { excluded.insert(authority) }
        }
        var list = request.accessList ?? []
        var result = CallResult(status: .stop, output: [], gasUsed: 0, logs: [])
        for _ in 0..<4 {
            call.accessList = list
            var tracer = AccessListTracer(recipient: call.to, excluded: excluded)
            result = try run(call, in: &context, tracer: &tracer)
            let found = tracer.accessList
            if found == list { break }
            list = found
        }
        return AccessListResult(accessList: list, gasUsed: result.gasUsed, error: result.error)
    }

    // MARK: Running calls

    /// Where and how a call runs: its block environment and, for an earlier block, that state.
    struct CallContext {
        var call: PreparedCall
        var environment: BlockEnvironment
        /// The fork of the block the call runs in.
        var fork: Hardfork
        var hashes: @Sendable (UInt64) -> Bytes32
        /// The state of an earlier block; nil runs on the live state.
        var historical: WorldState?
        /// The request's limits, and the instant its time runs out.
        var limits: CallLimits
        var deadline: ContinuousClock.Instant?
    }

    /// `blockOverrides` (debug_traceCall's) change the block environment before the fork, the gas and the fees are
    /// worked out from it.
    func callContext(
        _ request: CallRequest, at id: BlockID, overrides: StateOverrides = [:], blockOverrides: BlockOverrides? = nil,
        limits: CallLimits
    ) throws(ChainError) -> CallContext {
        guard let number = resolve(id) else { throw .unknownBlock("\(id)") }
        var env: BlockEnvironment
        var pendingState: WorldState?
        if case .pending = id {
            // The pending block's environment and, when the pool holds transactions, the state after them.
            if pool.isEmpty {
                env = nextBlockEnvironment(timestamp: try peekTimestamp())
            } else {
                let block = try pending()
                env = block.environment
                pendingState = block.state
            }
        } else {
            guard let header = number == head.number ? head : try store.header(number: number) else {
                throw .unknownBlock("\(id)")
            }
            env = environment(of: header)
        }
        try blockOverrides?.apply(to: &env)
        let fork = self.fork(number: env.number, timestamp: env.timestamp)
        var call = try prepare(request, environment: &env)
        call.gas = limits.capped(call.gas)
        // EIP-7825 (Osaka): no transaction may ask for more than 2^24 gas, so neither may a call or an estimate
        // (geth lowers both to the cap rather than failing).
        if let cap = ForkRules(fork).transactionGasLimitCap { call.gas = Swift.min(call.gas, cap) }
        var historical = pendingState
        if let stateNumber = try self.stateNumber(id) { historical = try state(at: stateNumber) }
        if !overrides.isEmpty {
            // The overridden state is a copy the call runs on, like an earlier block's (the live state is untouched).
            var journaled = JournaledState(state: historical ?? working.state)
            var precompiles = PrecompileOverrides()
            do { try StateOverrideApplication.apply(overrides, to: &journaled, precompiles: &precompiles, fork: fork) } catch {
                throw .invalidParams("invalid state overrides: \(error)")
            }
            historical = journaled.state
            if precompiles != PrecompileOverrides() { env.precompileOverrides = precompiles }
        }
        return CallContext(
            call: call, environment: env, fork: fork, hashes: blockHashFunction(upTo: env.number > 0 ? env.number - 1 : 0),
            historical: historical, limits: limits, deadline: limits.deadline())
    }

    /// Fills a request's defaults: sender zero, gas the block's limit, and the price: zero (with a
    /// zero base fee, as geth does for calls that set no fee) or the effective price of the fees given.
    func prepare(_ request: CallRequest, environment: inout BlockEnvironment) throws(ChainError) -> PreparedCall {
        let baseFee = environment.baseFee
        var price = UInt256.zero
        if let gasPrice = request.gasPrice, !gasPrice.isZero {
            price = gasPrice
        } else if (request.maxFeePerGas.map { !$0.isZero } ?? false) || (request.maxPriorityFeePerGas.map { !$0.isZero } ?? false) {
            let tip = request.maxPriorityFeePerGas ?? .zero
            let maxFee = request.maxFeePerGas ?? (baseFee &+ tip)
            guard tip <= maxFee else {
                throw .executionFailed("max priority fee per gas higher than max fee per gas")
            }
            guard maxFee >= baseFee else {
                throw .executionFailed("max fee per gas less than block base fee: maxFeePerGas: \(maxFee), baseFee: \(baseFee)")
            }
            price = Swift.min(maxFee, baseFee &+ tip)
        }
        if price.isZero { environment.baseFee = .zero }
        return PreparedCall(
            from: request.from ?? .zero, to: request.to, gas: request.gas ?? environment.gasLimit, gasPrice: price,
            value: request.value ?? .zero, data: request.data ?? [], accessList: request.accessList ?? [],
            blobHashes: request.blobVersionedHashes ?? [], authorizations: request.authorizationList)
    }

    /// Runs a call in its context; past the context's deadline it throws ``ChainError/executionTimeout(_:)``.
    func run<T: Tracer>(_ call: PreparedCall, in context: inout CallContext, tracer: inout T) throws(ChainError) -> CallResult {
        let result: CallResult
        if let historical = context.historical {
            var journaled = JournaledState(state: historical, blockHashes: context.hashes)
            result = try CallExecutor.run(
                call, on: &journaled, block: context.environment, fork: context.fork, tracer: &tracer, buffers: buffers,
                deadline: context.deadline)
        } else {
            working.blockHashes = context.hashes
            result = try CallExecutor.run(
                call, on: &working, block: context.environment, fork: context.fork, tracer: &tracer, buffers: buffers,
                deadline: context.deadline)
        }
        if result.status == .aborted { throw .executionTimeout(context.limits.timeout ?? .zero) }
        return result
    }

    /// One run of `eth_estimateGas`'s search: whether the call succeeds with `call.gas`. A call that
    /// cannot start with that gas (intrinsic gas, funds) counts as failing; the time limit ends the search.
    private func succeeds<T: Tracer>(_ call: PreparedCall, in context: inout CallContext, tracer: inout T) throws(ChainError) -> Bool {
        do { return try run(call, in: &context, tracer: &tracer).isSuccess } catch {
            if case .executionTimeout = error { throw error }
            return false
        }
    }
}
