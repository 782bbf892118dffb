import EVM
import EthereumPrimitives

/// One message run straight on the interpreter against a prestate, as `carchain evm run` and the EVM
/// benchmarks make it: no transaction around it (no intrinsic gas, nonce, fee or refund cap), the
/// caller, the callee and the precompiles warm (EIP-2929), and every run on a fresh copy of the
/// prestate, so repeated runs see the same cold storage and pay the same gas.
public struct PrestateCall: Sendable {
    /// The accounts before the call.
    public var state: WorldState
    /// CALLER and ORIGIN.
    public var caller: Address
    /// The account called.
    public var to: Address
    /// Call data.
    public var input: [UInt8]
    /// Value sent (the caller must hold it).
    public var value: UInt256
    /// Gas given to the message.
    public var gas: Int64
    /// The fork's rules.
    public var rules: ForkRules
    /// The block environment.
    public var block: BlockEnvironment

    /// Describes the call; the block is number 1 at timestamp 1 with a gas limit of at least `gas`.
    public init(
        state: WorldState, caller: Address, to: Address, input: [UInt8] = [], value: UInt256 = .zero, gas: Int64,
        fork: Hardfork
    ) {
        self.state = state
        self.caller = caller
        self.to = to
        self.input = input
        self.value = value
        self.gas = gas
        self.rules = ForkRules(fork)
        self.block = BlockEnvironment(number: 1, timestamp: 1, gasLimit: Swift.max(UInt64(Swift.max(gas, 0)), 30_000_000))
    }

    /// The message.
    public var message: Message { .call(from: caller, to: to, value: value, input: input, gas: gas) }

    /// The prestate as a journaled host with the access list warmed.
    public func host() -> JournaledState {
        var host = JournaledState(state: state)
        if rules.accessLists {
            host.prewarm(caller)
            host.prewarm(to)
            for address in Precompiles.addresses(for: rules.fork) { host.prewarm(address) }
        }
        return host
    }

    /// Runs the message on a fresh copy of the prestate. Pass the same `buffers` to successive runs
    /// to reuse stacks, memory and analysed code, as a chain does between transactions.
    public func run(buffers: ExecutionBuffers = ExecutionBuffers()) -> ExecutionResult {
        var interpreter = Interpreter(
            host: host(), rules: rules, block: block, transaction: TransactionEnvironment(origin: caller),
            buffers: buffers)
        return interpreter.execute(message)
    }

    /// Runs the message with `tracer` and returns the result and the tracer.
    public func run<T: Tracer>(tracer: T) -> (ExecutionResult, T) {
        var interpreter = Interpreter(
            host: host(), rules: rules, block: block, transaction: TransactionEnvironment(origin: caller),
            tracer: tracer)
        let result = interpreter.execute(message)
        return (result, interpreter.tracer)
    }

    /// Gas the message used (before any refund).
    public func gasUsed(_ result: ExecutionResult) -> Int64 { gas - result.gasLeft }
}
