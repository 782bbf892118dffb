import EthereumPrimitives

/// What a struct-log trace records per step, as geth's struct logger configures it
/// (`debug_traceTransaction`'s options): the stack and storage by default, memory and return data on
/// request, and at most `limit` steps.
public struct StructLogOptions: Sendable, Equatable {
    /// Leave out the stack.
    public var disableStack = false
    /// Record the active memory (off by default, as in geth: it makes traces large).
    public var enableMemory = false
    /// Leave out the storage slots read and written (SLOAD and SSTORE steps).
    public var disableStorage = false
    /// Record the return data of the frame's last call.
    public var enableReturnData = false
    /// Record at most this many steps (0: all); later steps run without being recorded, as in geth.
    public var limit = 0

    /// The defaults: stack and storage, no memory, no return data, every step.
    public init() {}

    /// Options with the given fields.
    public init(
        disableStack: Bool = false, enableMemory: Bool = false, disableStorage: Bool = false,
        enableReturnData: Bool = false, limit: Int = 0
    ) {
        self.disableStack = disableStack
        self.enableMemory = enableMemory
        self.disableStorage = disableStorage
        self.enableReturnData = enableReturnData
        self.limit = limit
    }
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
    /// The stack, bottom first (nil with ``StructLogOptions/disableStack``).
    public var stack: [UInt256]?
    /// Call depth, 1 for the outermost frame.
    public var depth: Int
    /// The refund counter.
    public var refund: Int64
    /// The opcode's mnemonic.
    public var opName: String
    /// The error, when the instruction halted the frame exceptionally.
    public var error: String?
    /// The active memory (with ``StructLogOptions/enableMemory``).
    public var memory: [UInt8]?
    /// On SLOAD and SSTORE steps: the slots of the running contract seen so far in the trace, with
    /// their values (geth's `storage`), unless ``StructLogOptions/disableStorage``.
    public var storage: [UInt256: UInt256]?
    /// The return data of the frame's last call (with ``StructLogOptions/enableReturnData``).
    public var returnData: [UInt8]?

    enum CodingKeys: String, CodingKey {
        case pc, op, gas, gasCost, memSize, stack, depth, refund, opName, error, memory, returnData
    }

    /// Encodes gas as hex quantities and stack items, memory and return data as hex, like geth's
    /// `evm --json` (EIP-3155).
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(pc, forKey: .pc)
        try c.encode(op, forKey: .op)
        try c.encode("0x" + String(gas, radix: 16), forKey: .gas)
        try c.encode("0x" + String(gasCost, radix: 16), forKey: .gasCost)
        try c.encode(memSize, forKey: .memSize)
        try c.encodeIfPresent(stack?.map(\.hexString), forKey: .stack)
        try c.encode(depth, forKey: .depth)
        try c.encode(refund, forKey: .refund)
        try c.encode(opName, forKey: .opName)
        try c.encodeIfPresent(error, forKey: .error)
        try c.encodeIfPresent(memory.map { Hex.encode($0) }, forKey: .memory)
        try c.encodeIfPresent(returnData.map { Hex.encode($0) }, forKey: .returnData)
    }

    /// About how many bytes the step takes as JSON (geth's debug_traceTransaction shape), for a trace's
    /// size limit: field names and numbers, 68 per stack item, 67 per memory word, 134 per storage slot.
    public var estimatedJSONSize: Int {
        100 + (stack?.count ?? 0) * 68 + ((memory?.count ?? 0) / 32) * 67 + (storage?.count ?? 0) * 134
            + (returnData?.count ?? 0) * 2
    }
}

/// A tracer that records every step as a ``StructLog``, or hands each finished step to a callback
/// (so a command can stream them without holding the whole trace).
///
/// A recorded trace is bounded: at most ``StructLogOptions/limit`` steps (later ones are not recorded)
/// and at most `maxBytes` of estimated JSON; past that it stops recording and sets ``overflowed``, so
/// the caller answers with an error instead of exhausting memory.
public struct StructLogTracer: Tracer {
    /// Always true.
    public static var isEnabled: Bool { true }
    /// The recorded steps (empty when a callback consumes them).
    public private(set) var logs: [StructLog] = []
    /// What each step records.
    public let options: StructLogOptions
    /// The most estimated JSON bytes recorded (0: no limit).
    public let maxBytes: Int
    /// The estimated JSON size of the recorded steps.
    public private(set) var recordedBytes = 0
    /// True once the trace passed `maxBytes` (recording stopped there).
    public private(set) var overflowed = false
    private var steps = 0
    private var pending: StructLog?
    /// The contract of the pending SLOAD and its slot: the value is on the stack at the next step.
    private var pendingLoad: (address: Address, slot: UInt256)?
    /// Slots seen per contract (geth's storage map).
    private var storage: [Address: [UInt256: UInt256]] = [:]
    private let sink: (@Sendable (StructLog) -> Void)?

    /// Records steps in ``logs`` (with `options`, up to `maxBytes` of JSON), or passes each to `sink` as
    /// soon as its cost is known.
    public init(options: StructLogOptions = StructLogOptions(), maxBytes: Int = 0, sink: (@Sendable (StructLog) -> Void)? = nil) {
        self.options = options
        self.maxBytes = maxBytes
        self.sink = sink
    }

    public mutating func willExecute(
        pc: Int, opcode: UInt8, gas: Int64, depth: Int, refund: Int64, stack: UnsafeBufferPointer<UInt256>,
        memory: UnsafeRawBufferPointer, returnData: [UInt8], address: Address
    ) {
        // The value an SLOAD read is on top of the stack at the next step of the same frame.
        if let load = pendingLoad, pending?.error == nil, pending?.depth == depth + 1, let value = stack.last {
            storage[load.address, default: [:]][load.slot] = value
            pending?.storage = storage[load.address]
        }
        pendingLoad = nil
        flush()
        guard !overflowed, options.limit == 0 || steps < options.limit else { return }
        var step = StructLog(
            pc: pc, op: opcode, gas: gas, gasCost: 0, memSize: memory.count,
            stack: options.disableStack ? nil : Array(stack), depth: depth + 1, refund: refund,
            opName: Opcodes.name(opcode), error: nil)
        if options.enableMemory { step.memory = Array(memory) }
        if options.enableReturnData, !returnData.isEmpty { step.returnData = returnData }
        if !options.disableStorage, let top = stack.last {
            if opcode == 0x54 {  // SLOAD: recorded once its value is known
                pendingLoad = (address, top)
                step.storage = storage[address] ?? [:]
            } else if opcode == 0x55, stack.count >= 2 {  // SSTORE: key on top, value below
                storage[address, default: [:]][top] = stack[stack.count - 2]
                step.storage = storage[address]
            }
        }
        pending = step
    }

    public mutating func didExecute(gasCost: Int64, error: Status?) {
        pending?.gasCost = gasCost
        if let error, let text = error.errorDescription { pending?.error = text }
        if error != nil { pendingLoad = nil }
        if pendingLoad == nil { flush() }
    }

    public mutating func didFinish(result: ExecutionResult, gasUsed: Int64) {
        pendingLoad = nil
        flush()
    }

    private mutating func flush() {
        guard let step = pending else { return }
        pending = nil
        steps += 1
        if let sink {
            sink(step)
            return
        }
        let size = step.estimatedJSONSize
        if maxBytes > 0 && recordedBytes + size > maxBytes {
            overflowed = true
            return
        }
        recordedBytes += size
        logs.append(step)
    }
}
