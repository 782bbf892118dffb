import EthereumPrimitives

/// The machine state of one call frame: program counter, gas, stack, memory, return data, and the
/// message it runs. The running frame lives in a local variable of the interpreter; a frame that
/// starts a child is parked on the interpreter's frame stack until the child ends. While the loop
/// runs, the frame's ``registers`` live in a local copy (see ``Registers``).
@usableFromInline
struct Frame {
    /// Program counter, gas and stack pointer, as of the last time the loop returned.
    @usableFromInline var registers: Registers
    /// The stack's base: 1024 slots owned by the interpreter's buffers (one per depth).
    @usableFromInline let stack: UnsafeMutablePointer<UInt256>
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
        registers = Registers(pc: 0, gas: message.gas, sp: stack)
        self.stack = stack
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

    /// Items on the stack.
    @inlinable
    var stackSize: Int { registers.sp - stack }

    // MARK: Memory

    /// The loop's inline path for MLOAD/MSTORE/MSTORE8: the offset when `[offset, offset + size)` lies in
    /// active memory, or in the zeroed bytes past it (``Memory/zeroed``) and `gas` covers the expansion,
    /// which is then charged; else nil with nothing done (the instruction runs out of line, which
    /// reallocates and zeroes, or fails for want of gas).
    @inlinable @inline(__always)
    mutating func inlineOffset(_ offset: UInt256, size: Int, gas: inout Int64) -> Int? {
        guard offset.fitsInUInt64, offset.low64 <= UInt64(Memory.maxSize) else { return nil }
        let start = Int(offset.low64)
        let end = start &+ size
        if end <= memory.size { return start }
        guard end <= memory.zeroed else { return nil }
        let newSize = (end &+ 31) & ~31
        let charge = Memory.cost(words: newSize &>> 5) &- Memory.cost(words: memory.size &>> 5)
        guard gas >= charge else { return nil }
        gas &-= charge
        memory.size = newSize
        return start
    }

    /// Makes `[offset, offset + size)` active, charging the expansion to `gas`; returns the offset, or
    /// nil when the gas does not suffice. `size` must be positive.
    @inlinable @inline(__always)
    mutating func memoryOffset(_ offset: UInt256, size: Int, gas: inout Int64) -> Int? {
        guard offset.fitsInUInt64, offset.low64 <= UInt64(Memory.maxSize) else { return nil }
        let start = Int(offset.low64)
        let end = start &+ size
        if end > memory.size {
            guard memory.grow(toCover: end, gas: &gas) else { return nil }
        }
        return start
    }

    /// Makes the range `[offset, offset + size)` active, charging the expansion to `gas`; returns the
    /// offset and size as `Int`, or nil when the gas does not suffice. A zero size needs no memory
    /// and accepts any offset.
    @inlinable @inline(__always)
    mutating func memoryRange(_ offset: UInt256, _ size: UInt256, gas: inout Int64) -> (offset: Int, size: Int)? {
        if size.isZero { return (0, 0) }
        guard size.fitsInUInt64, size.low64 <= UInt64(Memory.maxSize) else { return nil }
        let count = Int(size.low64)
        guard let start = memoryOffset(offset, size: count, gas: &gas) else { return nil }
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
