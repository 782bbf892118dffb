import EthereumPrimitives

/// The machine state of one call frame: program counter, gas, stack, memory, return data, and the
/// message it runs. The running frame lives in a local variable of the interpreter loop; a frame
/// that starts a child is parked on the interpreter's frame stack until the child ends.
@usableFromInline
struct Frame {
    /// Index of the next opcode.
    @usableFromInline var pc: Int
    /// Gas left.
    @usableFromInline var gas: Int64
    /// The stack's base: 1024 slots owned by the interpreter's buffers (one per depth).
    @usableFromInline let stack: UnsafeMutablePointer<UInt256>
    /// Items on the stack; `stack[stackSize − 1]` is the top.
    @usableFromInline var stackSize: Int
    /// The frame's memory.
    @usableFromInline var memory: Memory
    /// The output of the last child frame (RETURNDATASIZE/RETURNDATACOPY, EIP-211).
    @usableFromInline var returnData: [UInt8]
    /// The code being run.
    @usableFromInline let code: AnalyzedCode
    /// `code.bytes`, copied here so the loop does not load it through the object.
    @usableFromInline let codeBytes: UnsafePointer<UInt8>
    /// ADDRESS: the account whose storage and balance the frame acts on.
    @usableFromInline let address: Address
    /// The message that started the frame.
    @usableFromInline let message: Message
    /// Call data (empty in a create frame, whose message input is the init code being run).
    @usableFromInline let input: [UInt8]
    /// The journal checkpoint to revert to if the frame fails.
    @usableFromInline let checkpoint: Int
    /// The refund counter when the frame started, restored if the frame fails.
    @usableFromInline let refundAtStart: Int64
    /// RETURN/REVERT data.
    @usableFromInline var output: [UInt8]
    /// Where the pending child's output goes in this frame's memory (set when the frame starts a call).
    @usableFromInline var childOutputOffset: Int
    /// How many bytes of the pending child's output to copy.
    @usableFromInline var childOutputSize: Int

    @usableFromInline
    init(
        message: Message, address: Address, code: AnalyzedCode, stack: UnsafeMutablePointer<UInt256>, memory: Memory,
        checkpoint: Int, refund: Int64
    ) {
        pc = 0
        gas = message.gas
        self.stack = stack
        stackSize = 0
        self.memory = memory
        returnData = []
        self.code = code
        codeBytes = code.bytes
        self.address = address
        self.message = message
        input = message.kind.isCreate ? [] : message.input
        self.checkpoint = checkpoint
        refundAtStart = refund
        output = []
        childOutputOffset = 0
        childOutputSize = 0
    }

    // MARK: Stack (bounds are checked by the loop before the instruction runs)

    @inlinable @inline(__always)
    mutating func pop() -> UInt256 {
        stackSize &-= 1
        return stack[stackSize]
    }

    @inlinable @inline(__always)
    mutating func push(_ value: UInt256) {
        stack[stackSize] = value
        stackSize &+= 1
    }

    /// The item `depth` places below the top (0 = the top).
    @inlinable @inline(__always)
    func peek(_ depth: Int) -> UInt256 { stack[stackSize &- 1 &- depth] }

    /// Replaces the top item.
    @inlinable @inline(__always)
    func setTop(_ value: UInt256) { stack[stackSize &- 1] = value }

    /// A pointer to the top item, for in-place unary and binary operations.
    @inlinable @inline(__always)
    var top: UnsafeMutablePointer<UInt256> { stack + (stackSize &- 1) }

    // MARK: Gas

    /// Charges `amount`; false when the gas does not suffice.
    @inlinable @inline(__always)
    mutating func charge(_ amount: Int64) -> Bool {
        gas &-= amount
        return gas >= 0
    }

    // MARK: Memory

    /// Makes `[offset, offset + size)` active, charging the expansion; returns the offset, or nil
    /// when the gas does not suffice. `size` must be positive.
    @inlinable @inline(__always)
    mutating func memoryOffset(_ offset: UInt256, size: Int) -> Int? {
        guard offset.fitsInUInt64, offset.low64 <= UInt64(Memory.maxSize) else { return nil }
        let start = Int(offset.low64)
        let end = start &+ size
        if end > memory.size {
            guard memory.grow(toCover: end, gas: &gas) else { return nil }
        }
        return start
    }

    /// Makes the range `[offset, offset + size)` active, charging the expansion; returns the offset
    /// and size as `Int`, or nil when the gas does not suffice. A zero size needs no memory and
    /// accepts any offset.
    @inlinable @inline(__always)
    mutating func memoryRange(_ offset: UInt256, _ size: UInt256) -> (offset: Int, size: Int)? {
        if size.isZero { return (0, 0) }
        guard size.fitsInUInt64, size.low64 <= UInt64(Memory.maxSize) else { return nil }
        let count = Int(size.low64)
        guard let start = memoryOffset(offset, size: count) else { return nil }
        return (start, count)
    }

    /// Copies `count` bytes of active memory starting at `offset` into an array.
    @inlinable
    func memoryBytes(_ offset: Int, _ count: Int) -> [UInt8] {
        if count == 0 { return [] }
        return Array(UnsafeRawBufferPointer(start: memory.base + offset, count: count))
    }

    /// Gas for copying `size` bytes: `perWord` per 32-byte word (3 for the *COPY opcodes).
    @inlinable @inline(__always)
    static func wordCost(_ size: Int, _ perWord: Int64) -> Int64 {
        Int64((size &+ 31) >> 5) &* perWord
    }
}
