import EthereumPrimitives

/// Observes execution one instruction at a time. The interpreter is generic over its tracer and
/// tests the static ``isEnabled`` before every hook, so with ``NoTracer`` the hooks compile away.
public protocol Tracer {
    /// False only for tracers that ignore everything (the interpreter then skips every hook).
    static var isEnabled: Bool { get }

    /// Called before an instruction runs, with the machine state it sees (stack bottom first).
    mutating func willExecute(
        pc: Int, opcode: UInt8, gas: Int64, depth: Int, refund: Int64, stack: UnsafeBufferPointer<UInt256>,
        memorySize: Int)

    /// Called after the instruction (or, for CALL/CREATE, once the child frame is prepared) with
    /// the gas it used, including gas handed to a child; `error` is set when it halted the frame
    /// exceptionally.
    mutating func didExecute(gasCost: Int64, error: Status?)

    /// Called when a message finishes at the top level.
    mutating func didFinish(result: ExecutionResult, gasUsed: Int64)
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
        memorySize: Int
    ) {}
    /// Does nothing.
    @inlinable
    public mutating func didExecute(gasCost: Int64, error: Status?) {}
    /// Does nothing.
    @inlinable
    public mutating func didFinish(result: ExecutionResult, gasUsed: Int64) {}
}

/// One step of a struct-log trace, in the shape of EIP-3155 / geth's `evm --json`.
public struct StructLog: Sendable, Equatable, Encodable {
    /// Program counter.
    public var pc: Int
    /// The opcode byte.
    public var op: UInt8
    /// Gas before the instruction.
    public var gas: Int64
    /// Gas the instruction used (including gas handed to a child frame).
    public var gasCost: Int64
    /// Active memory in bytes.
    public var memSize: Int
    /// The stack, bottom first.
    public var stack: [UInt256]
    /// Call depth, 1 for the outermost frame.
    public var depth: Int
    /// The refund counter.
    public var refund: Int64
    /// The opcode's mnemonic.
    public var opName: String
    /// The error, when the instruction halted the frame exceptionally.
    public var error: String?

    enum CodingKeys: String, CodingKey { case pc, op, gas, gasCost, memSize, stack, depth, refund, opName, error }

    /// Encodes gas as hex quantities and stack items as hex, like geth.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(pc, forKey: .pc)
        try c.encode(op, forKey: .op)
        try c.encode("0x" + String(gas, radix: 16), forKey: .gas)
        try c.encode("0x" + String(gasCost, radix: 16), forKey: .gasCost)
        try c.encode(memSize, forKey: .memSize)
        try c.encode(stack.map(\.hexString), forKey: .stack)
        try c.encode(depth, forKey: .depth)
        try c.encode(refund, forKey: .refund)
        try c.encode(opName, forKey: .opName)
        try c.encodeIfPresent(error, forKey: .error)
    }
}

/// A tracer that records every step as a ``StructLog``, or hands each finished step to a callback
/// (so a command can stream them without holding the whole trace).
public struct StructLogTracer: Tracer {
    /// Always true.
    public static var isEnabled: Bool { true }
    /// The recorded steps (empty when a callback consumes them).
    public private(set) var logs: [StructLog] = []
    private var pending: StructLog?
    private let sink: (@Sendable (StructLog) -> Void)?

    /// Records steps in ``logs``, or passes each to `sink` as soon as its cost is known.
    public init(sink: (@Sendable (StructLog) -> Void)? = nil) {
        self.sink = sink
    }

    public mutating func willExecute(
        pc: Int, opcode: UInt8, gas: Int64, depth: Int, refund: Int64, stack: UnsafeBufferPointer<UInt256>,
        memorySize: Int
    ) {
        flush()
        pending = StructLog(
            pc: pc, op: opcode, gas: gas, gasCost: 0, memSize: memorySize, stack: Array(stack), depth: depth + 1,
            refund: refund, opName: Opcodes.name(opcode), error: nil)
    }

    public mutating func didExecute(gasCost: Int64, error: Status?) {
        pending?.gasCost = gasCost
        if let error, let text = error.errorDescription { pending?.error = text }
        flush()
    }

    public mutating func didFinish(result: ExecutionResult, gasUsed: Int64) { flush() }

    private mutating func flush() {
        guard let step = pending else { return }
        pending = nil
        if let sink { sink(step) } else { logs.append(step) }
    }
}
