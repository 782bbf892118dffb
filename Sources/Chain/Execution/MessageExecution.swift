import EVM
import EthereumPrimitives
import EthereumTransactions

/// What a transaction (``TransactionExecutor``) and an `eth_call` (``CallExecutor``) do alike once their
/// own checks and gas purchase are done: warm what the fork makes warm, build the outermost message, run
/// it in an interpreter over the journaled state, and settle the refund. Kept in one place so a fork rule
/// here (EIP-2929/2930 warming, EIP-3651's warm coinbase, EIP-3529's refund cap, EIP-7623's floor) cannot
/// hold for transactions and be forgotten for calls, or the other way round.
enum MessageExecution {
    /// Warms the sender, the callee, the precompiles, the access list and (EIP-3651) the coinbase, from
    /// Berlin on (EIP-2929, EIP-2930); before Berlin nothing is warm.
    static func prewarm(
        _ journaled: inout JournaledState, sender: Address, to: Address?, accessList: AccessList, block: BlockEnvironment,
        rules: ForkRules
    ) {
        guard rules.accessLists else { return }
        journaled.prewarm(sender)
        if let to { journaled.prewarm(to) }
        for address in Precompiles.addresses(for: rules.fork) { journaled.prewarm(address) }
        for entry in accessList {
            journaled.prewarm(entry.address)
            for key in entry.storageKeys { journaled.prewarm(entry.address, UInt256(key)) }
        }
        if rules.warmCoinbase { journaled.prewarm(block.coinbase) }
    }

    /// The outermost message with `gas` left after intrinsic gas: a call, for which the sender's nonce is
    /// bumped here (a creation bumps it when the interpreter makes the contract), or a creation.
    static func message(
        _ journaled: inout JournaledState, from sender: Address, to: Address?, value: UInt256, data: [UInt8], gas: Int64
    ) -> Message {
        guard let to else { return .create(from: sender, value: value, initCode: data, gas: gas) }
        journaled.setNonce(sender, journaled.nonce(of: sender) &+ 1)
        return .call(from: sender, to: to, value: value, input: data, gas: gas)
    }

    /// Runs `message` in an interpreter whose host is `journaled`, moved in and back rather than copied;
    /// past `deadline` (calls and traces only) it stops with ``Status/aborted``.
    static func run<T: Tracer>(
        _ message: Message, in journaled: inout JournaledState, rules: ForkRules, block: BlockEnvironment,
        transaction: TransactionEnvironment, tracer: inout T, buffers: ExecutionBuffers,
        deadline: ContinuousClock.Instant? = nil
    ) -> ExecutionResult {
        var host = JournaledState(state: WorldState(), blockHashes: journaled.blockHashes)
        swap(&host, &journaled)
        var interpreter = Interpreter(
            host: consume host, rules: rules, block: block, transaction: transaction, tracer: tracer, buffers: buffers,
            deadline: deadline)
        let result = interpreter.execute(message)
        tracer = interpreter.tracer
        swap(&interpreter.host, &journaled)
        return result
    }

    /// Gives the sender back the gas it bought and did not use (at `price`), and pays `coinbase` the priority fee on
    /// the gas used (`tip` per gas; nil pays nothing: a free call under relaxed fee checks, as geth's `NoBaseFee`).
    static func pay(
        _ journaled: inout JournaledState, sender: Address, unusedGas: UInt64, price: UInt256, coinbase: Address,
        gasUsed: UInt64, tip: UInt256?
    ) {
        journaled.addBalance(sender, UInt256(unusedGas) &* price)
        if let tip { journaled.addBalance(coinbase, UInt256(gasUsed) &* tip) }
    }

    /// What the coinbase gets per gas at `price`: the part above the base fee from London (none when a call's price is
    /// below it), all of it before.
    static func tip(price: UInt256, block: BlockEnvironment, rules: ForkRules) -> UInt256 {
        guard rules.baseFee else { return price }
        return price > block.baseFee ? price - block.baseFee : .zero
    }

    /// Gas used after the refund, which is capped at gasUsed / 2 (gasUsed / 5 from EIP-3529), and never
    /// below the EIP-7623 calldata `floor`; and the refund granted.
    static func settle(gasLimit: UInt64, result: ExecutionResult, rules: ForkRules, floor: UInt64) -> (gasUsed: UInt64, refund: UInt64) {
        let gasLeft = UInt64(Swift.max(0, result.gasLeft))
        let usedBeforeRefund = gasLimit - gasLeft
        let refund = Swift.min(UInt64(Swift.max(0, result.gasRefund)), usedBeforeRefund / UInt64(rules.refundQuotient))
        return (Swift.max(usedBeforeRefund - refund, floor), refund)
    }
}
