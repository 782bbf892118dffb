// Bitwise operations, shifts and bit counts of UInt256.
//
// Shift semantics: `<<` and `>>` are the standard "smart" shifts (a count ≥ 256 gives 0, a negative
// count shifts the other way); `&<<` and `&>>` are the standard masking shifts (count modulo 256), as
// `FixedWidthInteger` requires. The EVM's SHL/SHR/SAR are `shl`/`shr`/`sar` in UInt256+EVM.swift.

extension UInt256 {
    /// Bitwise NOT.
    @inlinable @inline(__always)
    public static prefix func ~ (a: UInt256) -> UInt256 {
        UInt256(limbs: (~a.limbs.0, ~a.limbs.1, ~a.limbs.2, ~a.limbs.3))
    }

    /// Bitwise AND.
    @inlinable @inline(__always)
    public static func & (a: UInt256, b: UInt256) -> UInt256 {
        UInt256(limbs: (a.limbs.0 & b.limbs.0, a.limbs.1 & b.limbs.1, a.limbs.2 & b.limbs.2, a.limbs.3 & b.limbs.3))
    }

    /// Bitwise OR.
    @inlinable @inline(__always)
    public static func | (a: UInt256, b: UInt256) -> UInt256 {
        UInt256(limbs: (a.limbs.0 | b.limbs.0, a.limbs.1 | b.limbs.1, a.limbs.2 | b.limbs.2, a.limbs.3 | b.limbs.3))
    }

    /// Bitwise XOR.
    @inlinable @inline(__always)
    public static func ^ (a: UInt256, b: UInt256) -> UInt256 {
        UInt256(limbs: (a.limbs.0 ^ b.limbs.0, a.limbs.1 ^ b.limbs.1, a.limbs.2 ^ b.limbs.2, a.limbs.3 ^ b.limbs.3))
    }

    /// Bitwise AND in place.
    @inlinable @inline(__always)
    public static func &= (a: inout UInt256, b: UInt256) { a = a & b }

    /// Bitwise OR in place.
    @inlinable @inline(__always)
    public static func |= (a: inout UInt256, b: UInt256) { a = a | b }

    /// Bitwise XOR in place.
    @inlinable @inline(__always)
    public static func ^= (a: inout UInt256, b: UInt256) { a = a ^ b }

    // MARK: Shift kernels (count already known to be in 0..<256)

    /// `self << count` for `count` in `0..<256`.
    ///
    /// Branch-free: the whole-limb part is two conditional moves by 128 and 64 bits (a jump on a
    /// data-dependent count mispredicts in an interpreter loop), then a funnel shift by `count % 64`.
    @inlinable @inline(__always)
    internal func shiftedLeft(_ count: Int) -> UInt256 {
        var (r0, r1, r2, r3) = limbs
        let by128 = count & 128 != 0
        (r0, r1, r2, r3) = (by128 ? 0 : r0, by128 ? 0 : r1, by128 ? r0 : r2, by128 ? r1 : r3)
        let by64 = count & 64 != 0
        (r0, r1, r2, r3) = (by64 ? 0 : r0, by64 ? r0 : r1, by64 ? r1 : r2, by64 ? r2 : r3)
        let bits = UInt64(truncatingIfNeeded: count & 63)
        // `x &>> 1 &>> (63 − bits)` is `x >> (64 − bits)` without a branch for bits == 0.
        let back = 63 &- bits
        r3 = r3 &<< bits | (r2 &>> 1) &>> back
        r2 = r2 &<< bits | (r1 &>> 1) &>> back
        r1 = r1 &<< bits | (r0 &>> 1) &>> back
        r0 = r0 &<< bits
        return UInt256(limbs: (r0, r1, r2, r3))
    }

    /// `self >> count` (logical) for `count` in `0..<256`; branch-free like ``shiftedLeft(_:)``.
    @inlinable @inline(__always)
    internal func shiftedRight(_ count: Int) -> UInt256 {
        var (r0, r1, r2, r3) = limbs
        let by128 = count & 128 != 0
        (r0, r1, r2, r3) = (by128 ? r2 : r0, by128 ? r3 : r1, by128 ? 0 : r2, by128 ? 0 : r3)
        let by64 = count & 64 != 0
        (r0, r1, r2, r3) = (by64 ? r1 : r0, by64 ? r2 : r1, by64 ? r3 : r2, by64 ? 0 : r3)
        let bits = UInt64(truncatingIfNeeded: count & 63)
        let back = 63 &- bits
        r0 = r0 &>> bits | (r1 &<< 1) &<< back
        r1 = r1 &>> bits | (r2 &<< 1) &<< back
        r2 = r2 &>> bits | (r3 &<< 1) &<< back
        r3 = r3 &>> bits
        return UInt256(limbs: (r0, r1, r2, r3))
    }

    /// A shift count as an `Int` in `0...256`, where 256 stands for "256 or more".
    @inlinable @inline(__always)
    internal var shiftCount: Int {
        (limbs.1 | limbs.2 | limbs.3) == 0 ? Int(truncatingIfNeeded: Swift.min(limbs.0, 256)) : 256
    }

    // MARK: Smart shifts

    /// `a` shifted left by `count` bits; 0 when `count ≥ 256`; a negative count shifts right.
    @inlinable @inline(__always)
    public static func << (a: UInt256, count: Int) -> UInt256 {
        if count >= 0 {
            return count < 256 ? a.shiftedLeft(count) : .zero
        }
        return count > -256 ? a.shiftedRight(0 &- count) : .zero
    }

    /// `a` shifted right (logically) by `count` bits; 0 when `count ≥ 256`; a negative count shifts left.
    @inlinable @inline(__always)
    public static func >> (a: UInt256, count: Int) -> UInt256 {
        if count >= 0 {
            return count < 256 ? a.shiftedRight(count) : .zero
        }
        return count > -256 ? a.shiftedLeft(0 &- count) : .zero
    }

    /// `a` shifted left by `count` bits; 0 when `count ≥ 256`.
    @inlinable @inline(__always)
    public static func << (a: UInt256, count: UInt256) -> UInt256 {
        let n = count.shiftCount
        return n < 256 ? a.shiftedLeft(n) : .zero
    }

    /// `a` shifted right (logically) by `count` bits; 0 when `count ≥ 256`.
    @inlinable @inline(__always)
    public static func >> (a: UInt256, count: UInt256) -> UInt256 {
        let n = count.shiftCount
        return n < 256 ? a.shiftedRight(n) : .zero
    }

    /// Smart left shift by any integer count (see `<<(_:_:)` with an `Int` count).
    @inlinable
    public static func << <RHS: BinaryInteger>(a: UInt256, count: RHS) -> UInt256 {
        a << Int(clamping: count)
    }

    /// Smart right shift by any integer count (see `>>(_:_:)` with an `Int` count).
    @inlinable
    public static func >> <RHS: BinaryInteger>(a: UInt256, count: RHS) -> UInt256 {
        a >> Int(clamping: count)
    }

    /// Smart left shift in place.
    @inlinable @inline(__always)
    public static func <<= (a: inout UInt256, count: Int) { a = a << count }

    /// Smart right shift in place.
    @inlinable @inline(__always)
    public static func >>= (a: inout UInt256, count: Int) { a = a >> count }

    /// Smart left shift in place.
    @inlinable
    public static func <<= <RHS: BinaryInteger>(a: inout UInt256, count: RHS) { a = a << Int(clamping: count) }

    /// Smart right shift in place.
    @inlinable
    public static func >>= <RHS: BinaryInteger>(a: inout UInt256, count: RHS) { a = a >> Int(clamping: count) }

    // MARK: Masking shifts

    /// `a << (count mod 256)`.
    @inlinable @inline(__always)
    public static func &<< (a: UInt256, count: Int) -> UInt256 { a.shiftedLeft(count & 255) }

    /// `a >> (count mod 256)`.
    @inlinable @inline(__always)
    public static func &>> (a: UInt256, count: Int) -> UInt256 { a.shiftedRight(count & 255) }

    /// `a << (count mod 256)`.
    @inlinable @inline(__always)
    public static func &<< (a: UInt256, count: UInt256) -> UInt256 {
        a.shiftedLeft(Int(truncatingIfNeeded: count.limbs.0 & 255))
    }

    /// `a >> (count mod 256)`.
    @inlinable @inline(__always)
    public static func &>> (a: UInt256, count: UInt256) -> UInt256 {
        a.shiftedRight(Int(truncatingIfNeeded: count.limbs.0 & 255))
    }

    /// `a << (count mod 256)`.
    @inlinable
    public static func &<< <RHS: BinaryInteger>(a: UInt256, count: RHS) -> UInt256 {
        a.shiftedLeft(Int(truncatingIfNeeded: count) & 255)
    }

    /// `a >> (count mod 256)`.
    @inlinable
    public static func &>> <RHS: BinaryInteger>(a: UInt256, count: RHS) -> UInt256 {
        a.shiftedRight(Int(truncatingIfNeeded: count) & 255)
    }

    /// Masking left shift in place.
    @inlinable @inline(__always)
    public static func &<<= (a: inout UInt256, count: UInt256) { a = a &<< count }

    /// Masking right shift in place.
    @inlinable @inline(__always)
    public static func &>>= (a: inout UInt256, count: UInt256) { a = a &>> count }

    /// Smart left shift in place.
    @inlinable
    public static func &<<= <RHS: BinaryInteger>(a: inout UInt256, count: RHS) { a = a &<< count }

    /// Smart right shift in place.
    @inlinable
    public static func &>>= <RHS: BinaryInteger>(a: inout UInt256, count: RHS) { a = a &>> count }

    // MARK: Bit counts

    /// The number of bits, 256.
    public static var bitWidth: Int {
        @inlinable @inline(__always) get { 256 }
    }

    /// The number of zero bits above the most significant one bit (256 for zero).
    public var leadingZeroBitCount: Int {
        @inlinable get {
            if limbs.3 != 0 { return limbs.3.leadingZeroBitCount }
            if limbs.2 != 0 { return 64 + limbs.2.leadingZeroBitCount }
            if limbs.1 != 0 { return 128 + limbs.1.leadingZeroBitCount }
            return 192 + limbs.0.leadingZeroBitCount
        }
    }

    /// The number of zero bits below the least significant one bit (256 for zero).
    public var trailingZeroBitCount: Int {
        @inlinable get {
            if limbs.0 != 0 { return limbs.0.trailingZeroBitCount }
            if limbs.1 != 0 { return 64 + limbs.1.trailingZeroBitCount }
            if limbs.2 != 0 { return 128 + limbs.2.trailingZeroBitCount }
            return 192 + limbs.3.trailingZeroBitCount
        }
    }

    /// The number of one bits.
    public var nonzeroBitCount: Int {
        @inlinable get {
            limbs.0.nonzeroBitCount + limbs.1.nonzeroBitCount + limbs.2.nonzeroBitCount + limbs.3.nonzeroBitCount
        }
    }

    /// The number of significant bits, `256 − leadingZeroBitCount` (0 for zero).
    public var significantBitCount: Int {
        @inlinable get { 256 &- leadingZeroBitCount }
    }

    /// The number of significant bytes (0 for zero, 32 for values ≥ 2^248): the byte length the
    /// EXP gas rule charges for (EIP-160).
    public var byteWidth: Int {
        @inlinable get { (significantBitCount &+ 7) &>> 3 }
    }

    /// True when bit `index` (0 = least significant, `index` in `0..<256`) is set.
    @inlinable @inline(__always)
    public func bit(_ index: Int) -> Bool {
        (self[limb: index &>> 6] &>> UInt64(truncatingIfNeeded: index & 63)) & 1 != 0
    }
}
