import EthereumPrimitives

/// Observes execution one instruction at a time. The interpreter is generic over its tracer and
/// tests the static ``isEnabled`` before every hook, so with ``NoTracer`` the hooks compile away.
public protocol Tracer {
    /// False only for tracers that ignore everything (the interpreter then skips every hook).
    static var isEnabled: Bool { get }

    /// Called before an instruction runs, with the machine state it sees: the stack (bottom first), the
    /// active memory, the return data of the frame's last call, and the address whose storage the frame
    /// uses. The buffers are valid only during the call.
    mutating func willExecute(
        pc: Int, opcode: UInt8, gas: Int64, depth: Int, refund: Int64, stack: UnsafeBufferPointer<UInt256>,
        memory: UnsafeRawBufferPointer, returnData: [UInt8], address: Address)

    /// Called after the instruction (or, for CALL/CREATE, once the child frame is prepared) with
    /// the gas it used, including gas handed to a child; `error` is set when it halted the frame
    /// exceptionally.
    mutating func didExecute(gasCost: Int64, error: Status?)

    /// Called when a message finishes at the top level.
    mutating func didFinish(result: ExecutionResult, gasUsed: Int64)

    // Frame and value hooks (defaults below do nothing): see the extension.
    mutating func enterFrame(_ message: Message, to: Address)
    mutating func exitFrame(status: Status, gasUsed: Int64, output: [UInt8])
    mutating func didTransfer(from sender: Address, to recipient: Address, value: UInt256)
    mutating func didEmitLog(_ log: Log)
}

/// Frame and value hooks, for tracers that follow calls rather than instructions (eth_simulateV1's transfer
/// logs, geth's `OnEnter` / `OnExit` / `OnLog`: the call, prestate and 4byte tracers). Each has an empty default,
/// so an instruction tracer ignores them.
extension Tracer {
    /// `message` is about to start (the outermost one, or a CALL/CREATE child), before its depth and balance
    /// checks; every call is matched by one ``exitFrame(status:gasUsed:output:)``. `to` is the account called (the
    /// code's address for CALLCODE and DELEGATECALL), or for a creation the address the new contract gets, derived
    /// before the checks (as geth reports it even when the creation then fails).
    @inlinable
    public mutating func enterFrame(_ message: Message, to: Address) {}

    /// The message last entered ended with `status` (a failure undoes its state changes, logs and transfers),
    /// having used `gasUsed` of the gas it was given; `output` is its return or revert data, or for a successful
    /// creation the code it deployed.
    @inlinable
    public mutating func exitFrame(status: Status, gasUsed: Int64, output: [UInt8]) {}

    /// Value moved: a CALL's or CREATE's value (after its checks passed) or a SELFDESTRUCT's balance.
    @inlinable
    public mutating func didTransfer(from sender: Address, to recipient: Address, value: UInt256) {}

    /// A LOG instruction appended `log`.
    @inlinable
    public mutating func didEmitLog(_ log: Log) {}
}

/// The tracer that observes nothing; the interpreter's hooks disappear when specialised with it.
public struct NoTracer: Tracer {
    /// Always false.
    public static var isEnabled: Bool { false }
    /// Creates the no-op tracer.
    public init() {}
    /// Does nothing.
    @inlinable
    public mutating func willExecute(
        pc: Int, opcode: UInt8, gas: Int64, depth: Int, refund: Int64, stack: UnsafeBufferPointer<UInt256>,
        memory: UnsafeRawBufferPointer, returnData: [UInt8], address: Address
    ) {}
    /// Does nothing.
    @inlinable
    public mutating func didExecute(gasCost: Int64, error: Status?) {}
    /// Does nothing.
    @inlinable
    public mutating func didFinish(result: ExecutionResult, gasUsed: Int64) {}
}
