import EthereumPrimitives

/// The EVM interpreter: runs a message (a call or a contract creation) against a ``Host`` under one
/// fork's rules, with exact gas.
///
/// Generic over the host and the tracer so both are statically dispatched; with ``NoTracer`` the
/// tracing hooks compile away. CALL and CREATE do not recurse: the running frame is parked on
/// ``parents`` and the child runs in the same loop, so call depth 1024 never grows the Swift stack.
///
/// One interpreter runs one transaction's messages; keep ``ExecutionBuffers`` to reuse stacks,
/// memory and analysed code across transactions.
public struct Interpreter<H: Host, T: Tracer> {
    /// The world the code runs against.
    public var host: H
    /// The tracer.
    public var tracer: T
    /// The fork's rules.
    public let rules: ForkRules
    /// The block environment.
    public let block: BlockEnvironment
    /// The transaction environment.
    public let transaction: TransactionEnvironment

    /// Static gas and stack bounds per opcode for `rules.fork`.
    @usableFromInline let costs: InstructionTable
    /// Reused stacks, memory and analysed code.
    @usableFromInline let buffers: ExecutionBuffers
    /// The refund counter (SSTORE clears, SELFDESTRUCT before London).
    @usableFromInline var refund: Int64 = 0
    /// Frames waiting for a child to finish, outermost first.
    @usableFromInline var parents: [Frame] = []
    /// The child message a CALL/CREATE instruction prepared.
    @usableFromInline var pendingMessage: Message
    /// Set when a frame needed something this build cannot do.
    @usableFromInline var unsupportedReason: String?
    /// Jumps back left before the clock is compared with ``deadline`` (see `countJumpBack`); without a
    /// deadline it starts so high that it never runs out.
    @usableFromInline var jumpsUntilDeadlineCheck: Int
    /// When execution must stop (``Status/aborted``), whatever gas is left: an `eth_call`'s time limit.
    /// Nil for transactions, which gas alone bounds.
    ///
    /// The last stored property: the standard library's clock types are resilient, so the offset of every
    /// property after this one would be read from type metadata at run time (it was, on every jump back).
    public let deadline: ContinuousClock.Instant?

    /// How many jumps back run between two clock reads: a few hundred microseconds of the tightest
    /// loop, so an abort comes well within a millisecond of the deadline.
    @usableFromInline static var jumpsPerDeadlineCheck: Int { 4096 }

    /// Creates an interpreter for `rules.fork`; with a `deadline`, execution stops with
    /// ``Status/aborted`` once it has passed (checked on jumps back and on entering a call).
    public init(
        host: H, rules: ForkRules, block: BlockEnvironment, transaction: TransactionEnvironment, tracer: T,
        buffers: ExecutionBuffers = ExecutionBuffers(), deadline: ContinuousClock.Instant? = nil
    ) {
        self.host = host
        self.tracer = tracer
        self.rules = rules
        self.block = block
        self.transaction = transaction
        self.costs = InstructionTable.forFork(rules.fork)
        self.buffers = buffers
        self.pendingMessage = .call(from: .zero, to: .zero, gas: 0)
        self.deadline = deadline
        self.jumpsUntilDeadlineCheck = deadline == nil ? Int.max : Self.jumpsPerDeadlineCheck
    }

    /// Runs `message` to completion (including every nested call and create) and returns its result.
    /// The caller (the transaction executor) has already bought the gas, incremented the sender's
    /// nonce for calls and warmed the transaction's access list.
    @inlinable
    public mutating func execute(_ message: Message) -> ExecutionResult {
        refund = 0
        unsupportedReason = nil
        parents.removeAll(keepingCapacity: true)
        var current: Frame
        if T.isEnabled { traceEnter(message) }
        switch start(message) {
        case .finished(let result):
            if T.isEnabled { traceExit(message, result) }
            return makeResult(result, gasLimit: message.gas)
        case .frame(let frame): current = frame
        }
        while true {
            var status = run(&current)
            if (status == .call || status == .create) && deadline != nil && deadlineHasPassed() { status = .aborted }
            if status == .aborted { return abort(&current, gasLimit: message.gas) }
            if status == .call || status == .create {
                if T.isEnabled { traceEnter(pendingMessage) }
                switch start(pendingMessage) {
                case .frame(let child):
                    parents.append(current)
                    current = child
                case .finished(let result):
                    if T.isEnabled { traceExit(pendingMessage, result) }
                    resume(&current, with: result, kind: pendingMessage.kind)
                }
                continue
            }
            let kind = current.message.kind
            let result = finish(&current, status)
            if T.isEnabled { traceExit(current.message, result) }
            guard var parent = parents.popLast() else { return makeResult(result, gasLimit: message.gas) }
            resume(&parent, with: result, kind: kind)
            current = parent
        }
    }

    /// Ends the running frame and every parent as aborted (their changes undone, their gas gone).
    @inlinable
    mutating func abort(_ current: inout Frame, gasLimit: Int64) -> ExecutionResult {
        _ = finish(&current, .aborted)
        while var parent = parents.popLast() { _ = finish(&parent, .aborted) }
        return makeResult(FrameResult(status: .aborted, gasLeft: 0), gasLimit: gasLimit)
    }

    /// Compares the clock with ``deadline`` (out of line: the loop only counts jumps) and restarts the
    /// jump count.
    @inlinable @inline(never)
    mutating func deadlineHasPassed() -> Bool {
        guard let deadline else {
            jumpsUntilDeadlineCheck = Int.max
            return false
        }
        jumpsUntilDeadlineCheck = Self.jumpsPerDeadlineCheck
        return ContinuousClock.now >= deadline
    }

    @inlinable
    mutating func makeResult(_ result: FrameResult, gasLimit: Int64) -> ExecutionResult {
        let executionResult = ExecutionResult(
            status: result.status, gasLeft: result.gasLeft, gasRefund: refund, output: result.output,
            createdAddress: result.createdAddress, unsupportedReason: unsupportedReason)
        if T.isEnabled { tracer.didFinish(result: executionResult, gasUsed: gasLimit - result.gasLeft) }
        return executionResult
    }
}

extension Interpreter where T == NoTracer {
    /// Creates an interpreter without tracing.
    public init(
        host: H, rules: ForkRules, block: BlockEnvironment, transaction: TransactionEnvironment,
        buffers: ExecutionBuffers = ExecutionBuffers(), deadline: ContinuousClock.Instant? = nil
    ) {
        self.init(
            host: host, rules: rules, block: block, transaction: transaction, tracer: NoTracer(), buffers: buffers,
            deadline: deadline)
    }
}

/// How a frame (or a message that needed no frame) ended, as its parent sees it.
@usableFromInline
struct FrameResult {
    @usableFromInline var status: Status
    @usableFromInline var gasLeft: Int64
    @usableFromInline var output: [UInt8]
    @usableFromInline var createdAddress: Address?

    @usableFromInline
    init(status: Status, gasLeft: Int64, output: [UInt8] = [], createdAddress: Address? = nil) {
        self.status = status
        self.gasLeft = gasLeft
        self.output = output
        self.createdAddress = createdAddress
    }

    @inlinable
    var isSuccess: Bool { status.isSuccess }
}

/// Starting a message either yields a frame to run or finishes at once (a precompile, an account
/// without code, or a failed precondition).
@usableFromInline
enum StartOutcome {
    case frame(Frame)
    case finished(FrameResult)
}
