// Addition, subtraction and multiplication of UInt256: wrapping (`&+`), reporting and trapping forms.

extension UInt256 {
    /// `self + rhs` modulo 2^256, and whether the true sum exceeded 2^256 − 1.
    @inlinable @inline(__always)
    public func addingReportingOverflow(_ rhs: UInt256) -> (partialValue: UInt256, overflow: Bool) {
        let (s0, c0) = limbs.0.addingReportingOverflow(rhs.limbs.0)
        let (s1, c1) = addWithCarry(limbs.1, rhs.limbs.1, carryBit(c0))
        let (s2, c2) = addWithCarry(limbs.2, rhs.limbs.2, c1)
        let (s3, c3) = addWithCarry(limbs.3, rhs.limbs.3, c2)
        return (UInt256(limbs: (s0, s1, s2, s3)), c3 != 0)
    }

    /// `self − rhs` modulo 2^256, and whether `rhs` was larger than `self`.
    @inlinable @inline(__always)
    public func subtractingReportingOverflow(_ rhs: UInt256) -> (partialValue: UInt256, overflow: Bool) {
        let (d0, b0) = limbs.0.subtractingReportingOverflow(rhs.limbs.0)
        let (d1, b1) = subtractWithBorrow(limbs.1, rhs.limbs.1, carryBit(b0))
        let (d2, b2) = subtractWithBorrow(limbs.2, rhs.limbs.2, b1)
        let (d3, b3) = subtractWithBorrow(limbs.3, rhs.limbs.3, b2)
        return (UInt256(limbs: (d0, d1, d2, d3)), b3 != 0)
    }

    /// `self × rhs` modulo 2^256, and whether the true product exceeded 2^256 − 1.
    @inlinable
    public func multipliedReportingOverflow(by rhs: UInt256) -> (partialValue: UInt256, overflow: Bool) {
        let (high, low) = multipliedFullWidth(by: rhs)
        return (low, !high.isZero)
    }

    /// The low 256 bits of `a × b`: schoolbook multiplication that skips every partial product
    /// landing at or above bit 256 (6 full-width and 4 low-half 64-bit multiplies).
    @inlinable @inline(__always)
    internal static func wrappingProduct(_ a: UInt256, _ b: UInt256) -> UInt256 {
        let x = a.limbs
        let y = b.limbs
        // Row x.0
        let p00 = x.0.multipliedFullWidth(by: y.0)
        let r0 = p00.low
        var (c, r1) = multiplyAdd(x.0, y.1, p00.high)
        var r2: UInt64
        (c, r2) = multiplyAdd(x.0, y.2, c)
        var r3 = x.0 &* y.3 &+ c
        // Row x.1
        (c, r1) = multiplyAdd(x.1, y.0, r1)
        (c, r2) = multiplyAdd(x.1, y.1, r2, c)
        r3 = r3 &+ x.1 &* y.2 &+ c
        // Row x.2
        (c, r2) = multiplyAdd(x.2, y.0, r2)
        r3 = r3 &+ x.2 &* y.1 &+ c
        // Row x.3
        r3 = r3 &+ x.3 &* y.0
        return UInt256(limbs: (r0, r1, r2, r3))
    }

    /// The full 512-bit product `self × rhs` as high and low halves.
    @inlinable
    public func multipliedFullWidth(by rhs: UInt256) -> (high: UInt256, low: UInt256) {
        let p = UInt512.product(self, rhs)
        return (p.high, p.low)
    }

    /// `self × rhs` for a 64-bit `rhs`, and the limb that overflowed out of the top (0 if none).
    @inlinable @inline(__always)
    internal func multipliedFullWidth(byWord rhs: UInt64) -> (high: UInt64, low: UInt256) {
        let p0 = limbs.0.multipliedFullWidth(by: rhs)
        let p1 = multiplyAdd(limbs.1, rhs, p0.high)
        let p2 = multiplyAdd(limbs.2, rhs, p1.high)
        let p3 = multiplyAdd(limbs.3, rhs, p2.high)
        return (p3.high, UInt256(limbs: (p0.low, p1.low, p2.low, p3.low)))
    }

    // MARK: Operators

    /// Wrapping addition (modulo 2^256).
    @inlinable @inline(__always)
    public static func &+ (a: UInt256, b: UInt256) -> UInt256 { a.addingReportingOverflow(b).partialValue }

    /// Wrapping subtraction (modulo 2^256).
    @inlinable @inline(__always)
    public static func &- (a: UInt256, b: UInt256) -> UInt256 { a.subtractingReportingOverflow(b).partialValue }

    /// Wrapping multiplication (modulo 2^256).
    @inlinable @inline(__always)
    public static func &* (a: UInt256, b: UInt256) -> UInt256 { wrappingProduct(a, b) }

    /// Wrapping addition in place.
    @inlinable @inline(__always)
    public static func &+= (a: inout UInt256, b: UInt256) { a = a &+ b }

    /// Wrapping subtraction in place.
    @inlinable @inline(__always)
    public static func &-= (a: inout UInt256, b: UInt256) { a = a &- b }

    /// Wrapping multiplication in place.
    @inlinable @inline(__always)
    public static func &*= (a: inout UInt256, b: UInt256) { a = wrappingProduct(a, b) }

    /// Addition; traps on overflow.
    @inlinable @inline(__always)
    public static func + (a: UInt256, b: UInt256) -> UInt256 {
        let (r, o) = a.addingReportingOverflow(b)
        precondition(!o, "UInt256 addition overflow")
        return r
    }

    /// Subtraction; traps if the result would be negative.
    @inlinable @inline(__always)
    public static func - (a: UInt256, b: UInt256) -> UInt256 {
        let (r, o) = a.subtractingReportingOverflow(b)
        precondition(!o, "UInt256 subtraction overflow")
        return r
    }

    /// Multiplication; traps on overflow.
    @inlinable
    public static func * (a: UInt256, b: UInt256) -> UInt256 {
        let (r, o) = a.multipliedReportingOverflow(by: b)
        precondition(!o, "UInt256 multiplication overflow")
        return r
    }

    /// Addition in place; traps on overflow.
    @inlinable @inline(__always)
    public static func += (a: inout UInt256, b: UInt256) { a = a + b }

    /// Subtraction in place; traps on overflow.
    @inlinable @inline(__always)
    public static func -= (a: inout UInt256, b: UInt256) { a = a - b }

    /// Multiplication in place; traps on overflow.
    @inlinable
    public static func *= (a: inout UInt256, b: UInt256) { a = a * b }
}
