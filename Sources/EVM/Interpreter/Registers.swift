import EthereumPrimitives

/// The running frame's program counter, gas and stack pointer: what nearly every instruction reads
/// and writes. The interpreter loop copies them out of the ``Frame`` into a local variable, passes it
/// to bodies that are all inlined into the loop, and writes it back when the loop returns, so the
/// three stay in CPU registers instead of being loaded and stored through the frame on every
/// instruction (a frame lives in memory: it is passed to out-of-line code such as `finish`).
///
/// Rule for instruction bodies: pass `r` (or `&r.gas`) only to `@inline(__always)` code, never to a
/// call that is not inlined, or the compiler has to keep it in memory.
@usableFromInline
struct Registers {
    /// Index of the next opcode.
    @usableFromInline var pc: Int
    /// Gas left.
    @usableFromInline var gas: Int64
    /// One past the top stack item (the stack's base when it is empty).
    @usableFromInline var sp: UnsafeMutablePointer<UInt256>

    @inlinable @inline(__always)
    init(pc: Int, gas: Int64, sp: UnsafeMutablePointer<UInt256>) {
        self.pc = pc
        self.gas = gas
        self.sp = sp
    }

    // MARK: Stack (bounds are checked by the loop before the instruction runs)

    @inlinable @inline(__always)
    mutating func pop() -> UInt256 {
        sp -= 1
        return sp.pointee
    }

    @inlinable @inline(__always)
    mutating func push(_ value: UInt256) {
        sp.storeItem(value)
        sp += 1
    }

    /// Replaces the top item (the result of a unary or binary operation, written in place).
    @inlinable @inline(__always)
    func setTop(_ value: UInt256) {
        (sp - 1).storeItem(value)
    }

    /// The item `depth` places below the top (0 = the top).
    @inlinable @inline(__always)
    func peek(_ depth: Int) -> UInt256 { sp[-1 - depth] }

    /// A pointer to the top item, for in-place unary and binary operations.
    @inlinable @inline(__always)
    var top: UnsafeMutablePointer<UInt256> { sp - 1 }

    // MARK: Gas

    /// Charges `amount`; false when the gas does not suffice.
    @inlinable @inline(__always)
    mutating func charge(_ amount: Int64) -> Bool {
        gas &-= amount
        return gas >= 0
    }
}

extension UnsafeMutablePointer where Pointee == UInt256 {
    /// Writes a stack item as two 16-byte stores, one per half. Stack items are read back within a few
    /// instructions, often as 16-byte halves (DUP, SWAP, and the zero tests the compiler vectorises); a
    /// load is forwarded from the store queue only when one earlier store covers it, so an item written as
    /// four 8-byte limbs (the natural result of add-with-carry code) and read back as halves stalls until
    /// the stores reach the cache. Written by halves, every later read, whole, by halves or by limbs, is
    /// forwarded. (Measured on SnailTracer: the stalled loads were the hottest instructions of the loop.)
    @inlinable @inline(__always)
    func storeItem(_ value: UInt256) {
        let raw = UnsafeMutableRawPointer(self)
        raw.storeBytes(of: SIMD2(value.limbs.0, value.limbs.1), as: SIMD2<UInt64>.self)
        raw.storeBytes(of: SIMD2(value.limbs.2, value.limbs.3), toByteOffset: 16, as: SIMD2<UInt64>.self)
    }
}
