/// A 256-bit unsigned integer: the EVM word.
///
/// Stored inline as four `UInt64` limbs in little-endian limb order (`limbs.0` holds bits 0–63), so a
/// value is 32 bytes with no heap allocation. Arithmetic follows the standard library's conventions
/// (`&+` wraps, `+` traps on overflow, `/` traps on zero); the EVM's rules (division by zero gives 0,
/// signed two's-complement operations, `ADDMOD`/`MULMOD` with a 512-bit intermediate) live in the
/// `evm…`-named and EVM-opcode-named members of `UInt256+EVM.swift`.
///
/// Integer literals may be of any size up to 2^256 − 1 (`let m: UInt256 = 0xffff…ffff`); for values
/// from text use ``init(hex:)``, ``init(decimal:)`` or ``init(parsing:)``.
public struct UInt256: Sendable {
    /// The value as four 64-bit limbs, least significant first: `limbs.0` holds bits 0–63,
    /// `limbs.3` bits 192–255.
    public var limbs: (UInt64, UInt64, UInt64, UInt64)

    /// Creates a value from four limbs, least significant first.
    @inlinable @inline(__always)
    public init(limbs: (UInt64, UInt64, UInt64, UInt64)) {
        self.limbs = limbs
    }

    /// Creates a value equal to `value`.
    @inlinable @inline(__always)
    public init(_ value: UInt64) {
        limbs = (value, 0, 0, 0)
    }

    /// Zero.
    public static var zero: UInt256 {
        @inlinable @inline(__always) get { UInt256(limbs: (0, 0, 0, 0)) }
    }

    /// One.
    public static var one: UInt256 {
        @inlinable @inline(__always) get { UInt256(limbs: (1, 0, 0, 0)) }
    }

    /// 2^256 − 1, all bits set.
    public static var max: UInt256 {
        @inlinable @inline(__always) get { UInt256(limbs: (.max, .max, .max, .max)) }
    }

    /// Zero, the smallest value.
    public static var min: UInt256 {
        @inlinable @inline(__always) get { UInt256(limbs: (0, 0, 0, 0)) }
    }

    /// True when the value is zero.
    public var isZero: Bool {
        @inlinable @inline(__always) get { (limbs.0 | limbs.1 | limbs.2 | limbs.3) == 0 }
    }

    /// True when the value fits in 64 bits.
    public var fitsInUInt64: Bool {
        @inlinable @inline(__always) get { (limbs.1 | limbs.2 | limbs.3) == 0 }
    }

    /// The value as a `UInt64`, or nil if it needs more than 64 bits.
    public var uint64: UInt64? {
        @inlinable get { fitsInUInt64 ? limbs.0 : nil }
    }

    /// The low 64 bits (the value modulo 2^64).
    public var low64: UInt64 {
        @inlinable @inline(__always) get { limbs.0 }
    }

    /// The value as an `Int`, or `Int.max` if it is larger (like `Int(clamping:)`).
    ///
    /// Useful for EVM memory offsets and sizes, where any value that large is out of gas anyway.
    public var clampedInt: Int {
        @inlinable get {
            guard fitsInUInt64, limbs.0 <= UInt64(Int.max) else { return .max }
            return Int(limbs.0)
        }
    }

    /// Limb `i` (0 = least significant), for `i` in `0..<4`.
    @inlinable @inline(__always)
    internal subscript(limb i: Int) -> UInt64 {
        // Selects, not a switch: a data-dependent index would otherwise become an indirect jump that
        // mispredicts. (A load through `withUnsafeBytes(of: limbs)` was miscompiled in some inlined
        // contexts by Swift 6.3 at -O, reading a dead temporary, so it is avoided.)
        get {
            let low = i & 1 == 0 ? limbs.0 : limbs.1
            let high = i & 1 == 0 ? limbs.2 : limbs.3
            return i & 2 == 0 ? low : high
        }
        set {
            switch i {
            case 0: limbs.0 = newValue
            case 1: limbs.1 = newValue
            case 2: limbs.2 = newValue
            default: limbs.3 = newValue
            }
        }
    }

    /// The number of limbs up to and including the most significant non-zero one (0 for zero).
    @inlinable @inline(__always)
    internal var significantLimbCount: Int {
        if limbs.3 != 0 { return 4 }
        if limbs.2 != 0 { return 3 }
        if limbs.1 != 0 { return 2 }
        return limbs.0 != 0 ? 1 : 0
    }
}

// MARK: - Equality, hashing, ordering

extension UInt256: Hashable {
    /// True when every limb is equal.
    @inlinable @inline(__always)
    public static func == (a: UInt256, b: UInt256) -> Bool {
        ((a.limbs.0 ^ b.limbs.0) | (a.limbs.1 ^ b.limbs.1) | (a.limbs.2 ^ b.limbs.2) | (a.limbs.3 ^ b.limbs.3)) == 0
    }

    /// Hashes the four limbs.
    @inlinable
    public func hash(into hasher: inout Hasher) {
        hasher.combine(limbs.0)
        hasher.combine(limbs.1)
        hasher.combine(limbs.2)
        hasher.combine(limbs.3)
    }
}

extension UInt256: Comparable {
    /// Unsigned order. Branch-free: `a < b` exactly when `a − b` borrows.
    @inlinable @inline(__always)
    public static func < (a: UInt256, b: UInt256) -> Bool {
        let (_, b0) = a.limbs.0.subtractingReportingOverflow(b.limbs.0)
        let (_, b1) = subtractWithBorrow(a.limbs.1, b.limbs.1, carryBit(b0))
        let (_, b2) = subtractWithBorrow(a.limbs.2, b.limbs.2, b1)
        let (_, b3) = subtractWithBorrow(a.limbs.3, b.limbs.3, b2)
        return b3 != 0
    }

    /// Unsigned order.
    @inlinable @inline(__always)
    public static func > (a: UInt256, b: UInt256) -> Bool { b < a }

    /// Unsigned order.
    @inlinable @inline(__always)
    public static func <= (a: UInt256, b: UInt256) -> Bool { !(b < a) }

    /// Unsigned order.
    @inlinable @inline(__always)
    public static func >= (a: UInt256, b: UInt256) -> Bool { !(a < b) }
}

// MARK: - Literals

extension UInt256: ExpressibleByIntegerLiteral {
    /// Literals of any size up to 2^256 − 1; a negative or larger literal traps.
    public typealias IntegerLiteralType = StaticBigInt

    /// Creates a value from an integer literal; traps if it is negative or needs more than 256 bits.
    @inlinable
    public init(integerLiteral value: StaticBigInt) {
        precondition(value.signum() >= 0, "negative integer literal for UInt256")
        precondition(value.bitWidth <= 257, "integer literal does not fit in UInt256")
        #if _pointerBitWidth(_64)
        limbs = (
            UInt64(truncatingIfNeeded: value[0]), UInt64(truncatingIfNeeded: value[1]),
            UInt64(truncatingIfNeeded: value[2]), UInt64(truncatingIfNeeded: value[3])
        )
        #else
        limbs = (
            UInt64(truncatingIfNeeded: value[0]) | UInt64(truncatingIfNeeded: value[1]) << 32,
            UInt64(truncatingIfNeeded: value[2]) | UInt64(truncatingIfNeeded: value[3]) << 32,
            UInt64(truncatingIfNeeded: value[4]) | UInt64(truncatingIfNeeded: value[5]) << 32,
            UInt64(truncatingIfNeeded: value[6]) | UInt64(truncatingIfNeeded: value[7]) << 32
        )
        #endif
    }
}

// MARK: - Limb helpers

/// A flag as 0 or 1. A bit cast rather than `flag ? 1 : 0`: LLVM sometimes lowers that select to a
/// branch, which breaks the add-with-carry chains into data-dependent jumps; the bit cast keeps them
/// as `adc`/`sbb` (checked in the generated code).
@inlinable @inline(__always)
internal func carryBit(_ flag: Bool) -> UInt64 {
    UInt64(unsafeBitCast(flag, to: UInt8.self))
}

/// `a + b + carry` (carry 0 or 1), returning the sum and the carry out (0 or 1).
@inlinable @inline(__always)
internal func addWithCarry(_ a: UInt64, _ b: UInt64, _ carry: UInt64) -> (UInt64, UInt64) {
    let (s1, o1) = a.addingReportingOverflow(b)
    let (s2, o2) = s1.addingReportingOverflow(carry)
    return (s2, carryBit(o1) | carryBit(o2))
}

/// `a − b − borrow` (borrow 0 or 1), returning the difference and the borrow out (0 or 1).
@inlinable @inline(__always)
internal func subtractWithBorrow(_ a: UInt64, _ b: UInt64, _ borrow: UInt64) -> (UInt64, UInt64) {
    let (d1, o1) = a.subtractingReportingOverflow(b)
    let (d2, o2) = d1.subtractingReportingOverflow(borrow)
    return (d2, carryBit(o1) | carryBit(o2))
}

/// `a × b + c + d` as a 128-bit (high, low) pair; cannot overflow 128 bits.
@inlinable @inline(__always)
internal func multiplyAdd(_ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: UInt64) -> (high: UInt64, low: UInt64) {
    let p = a.multipliedFullWidth(by: b)
    let (l1, o1) = p.low.addingReportingOverflow(c)
    let (l2, o2) = l1.addingReportingOverflow(d)
    return (p.high &+ carryBit(o1) &+ carryBit(o2), l2)
}

/// `a × b + c` as a 128-bit (high, low) pair.
@inlinable @inline(__always)
internal func multiplyAdd(_ a: UInt64, _ b: UInt64, _ c: UInt64) -> (high: UInt64, low: UInt64) {
    let p = a.multipliedFullWidth(by: b)
    let (l1, o1) = p.low.addingReportingOverflow(c)
    return (p.high &+ carryBit(o1), l1)
}
