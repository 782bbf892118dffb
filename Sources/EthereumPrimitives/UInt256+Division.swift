// Division of UInt256 (and of 512-bit intermediates, for MULMOD, ADDMOD and `dividingFullWidth`).
//
// A divisor that fits in one limb takes a loop of hardware 128-by-64-bit divisions. Anything larger
// takes long division in the manner of Knuth's Algorithm D (TAOCP vol. 2, §4.3.1), arranged so that
// every step works on whole UInt256 values in registers: both operands are shifted left until the
// divisor's top bit is bit 255 (a whole-limb shift plus Knuth's normalising bit shift), so each step
// divides a 5-limb window `r·β + next` (r < divisor, β = 2^64) by the full 4-limb divisor. The
// quotient limb is estimated from the top two window limbs and the top divisor limb, corrected with
// the second divisor limb (after which it is exact or one too large, Knuth's Theorem B), and fixed up
// by one add-back when the multiply-subtract goes negative. No heap, no bit-by-bit loop.

extension UInt256 {
    /// The quotient and remainder of `self / divisor`; traps if `divisor` is zero.
    @inlinable
    public func quotientAndRemainder(dividingBy divisor: UInt256) -> (quotient: UInt256, remainder: UInt256) {
        precondition(!divisor.isZero, "UInt256 division by zero")
        return UInt256.divide(self, by: divisor)
    }

    /// Division rounding toward zero; traps if `b` is zero.
    @inlinable
    public static func / (a: UInt256, b: UInt256) -> UInt256 {
        a.quotientAndRemainder(dividingBy: b).quotient
    }

    /// Remainder; traps if `b` is zero.
    @inlinable
    public static func % (a: UInt256, b: UInt256) -> UInt256 {
        a.quotientAndRemainder(dividingBy: b).remainder
    }

    /// Division in place; traps if `b` is zero.
    @inlinable
    public static func /= (a: inout UInt256, b: UInt256) { a = a / b }

    /// Remainder in place; traps if `b` is zero.
    @inlinable
    public static func %= (a: inout UInt256, b: UInt256) { a = a % b }

    /// `self / rhs`, or `(self, true)` when `rhs` is zero (the standard library's convention).
    @inlinable
    public func dividedReportingOverflow(by rhs: UInt256) -> (partialValue: UInt256, overflow: Bool) {
        rhs.isZero ? (self, true) : (UInt256.divide(self, by: rhs).quotient, false)
    }

    /// `self % rhs`, or `(self, true)` when `rhs` is zero (the standard library's convention).
    @inlinable
    public func remainderReportingOverflow(dividingBy rhs: UInt256) -> (partialValue: UInt256, overflow: Bool) {
        rhs.isZero ? (self, true) : (UInt256.divide(self, by: rhs).remainder, false)
    }

    /// Divides the 512-bit value `dividend` by `self`; traps if `self` is zero or the quotient does
    /// not fit in 256 bits (that is, if `dividend.high >= self`).
    public func dividingFullWidth(
        _ dividend: (high: UInt256, low: UInt256)
    ) -> (quotient: UInt256, remainder: UInt256) {
        precondition(!isZero, "UInt256 division by zero")
        precondition(dividend.high < self, "UInt256.dividingFullWidth: quotient overflows 256 bits")
        let (q, r) = UInt512(high: dividend.high, low: dividend.low).quotientAndRemainder(dividingBy: self)
        return (q.low, r)
    }

    /// `self / divisor` for a one-limb divisor, with the remainder.
    @inlinable
    internal func quotientAndRemainder(dividingByWord d: UInt64) -> (quotient: UInt256, remainder: UInt64) {
        var r: UInt64 = 0
        var q: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        if limbs.3 != 0 || r != 0 { (q.3, r) = d.dividingFullWidth((r, limbs.3)) }
        if limbs.2 != 0 || r != 0 { (q.2, r) = d.dividingFullWidth((r, limbs.2)) }
        if limbs.1 != 0 || r != 0 { (q.1, r) = d.dividingFullWidth((r, limbs.1)) }
        (q.0, r) = d.dividingFullWidth((r, limbs.0))
        return (UInt256(limbs: q), r)
    }

    /// Unsigned division; `divisor` must not be zero.
    ///
    /// A power-of-two divisor takes a shift and a mask instead of a division: that is how contract code
    /// compiled before EIP-145's shift opcodes (Constantinople) shifts and extracts bit fields and bytes
    /// (`x / 2^k`, `x % 2^k`), so it is the most common DIV and MOD in deployed code. The test costs a few
    /// instructions: on a one-limb divisor `d & (d − 1)`, on a larger one the normalised divisor that long
    /// division computes anyway.
    @inlinable
    internal static func divide(_ dividend: UInt256, by divisor: UInt256) -> (quotient: UInt256, remainder: UInt256) {
        if divisor.fitsInUInt64 {
            let d = divisor.limbs.0
            if d & (d &- 1) == 0 {
                return (
                    dividend.shiftedRight(d.trailingZeroBitCount), UInt256(dividend.limbs.0 & (d &- 1))
                )
            }
            if dividend.fitsInUInt64 {
                let (q, r) = dividend.limbs.0.quotientAndRemainder(dividingBy: d)
                return (UInt256(q), UInt256(r))
            }
            let (q, r) = dividend.quotientAndRemainder(dividingByWord: d)
            return (q, UInt256(r))
        }
        if dividend < divisor { return (.zero, dividend) }
        return divideMultiLimb(dividend, by: divisor)
    }

    /// Long division for a divisor of two or more limbs and `dividend >= divisor`.
    ///
    /// Written without data-dependent indexing (everything moves by whole-value shifts), so all limbs
    /// stay in registers and the only branches are the loop and the rare corrections. Inlinable
    /// because it measured faster that way across the module boundary (36 rather than 52 ns for
    /// 256-by-65…255-bit division in the benchmarks).
    @inlinable
    internal static func divideMultiLimb(
        _ u: UInt256, by v: UInt256
    ) -> (quotient: UInt256, remainder: UInt256) {
        // Normalise: shift so the divisor's top bit is bit 255. The shifted dividend D is 512 bits,
        // `high` holding what is shifted out of `low`.
        let shift = v.leadingZeroBitCount  // < 192: v has at least two limbs
        let vn = v.shiftedLeft(shift)
        // A power of two normalises to 2^255: the quotient is a shift, the remainder the bits below it.
        if vn.limbs.3 == 1 &<< 63 && (vn.limbs.0 | vn.limbs.1 | vn.limbs.2) == 0 {
            return (u.shiftedRight(255 &- shift), u & (v &- .one))
        }
        let low = u.shiftedLeft(shift)
        let high = u.shiftedRight(1).shiftedRight(255 &- shift)
        // The quotient has `top + 1` limbs; D's limbs above `top` form the first window, which is
        // already below vn because the quotient fits in `top + 1` limbs.
        let top = u.significantLimbCount &- v.significantLimbCount  // 0...2
        let windowShift = 64 &* (top &+ 1)
        var r = low.shiftedRight(windowShift) | high.shiftedLeft(256 &- windowShift)
        // D's limbs `top` down to 0, queued so the next one is always in limb 3.
        var pending = low.shiftedLeft(64 &* (3 &- top))
        var q = UInt256.zero
        for _ in 0...top {
            let digit = longDivisionStep(&r, pending.limbs.3, vn)
            pending.limbs = (0, pending.limbs.0, pending.limbs.1, pending.limbs.2)
            q.limbs = (digit, q.limbs.0, q.limbs.1, q.limbs.2)
        }
        // The low `shift` bits of r are zero, as they are in both shifted operands.
        return (q, r.shiftedRight(shift))
    }

    /// One step of long division by `v`, whose top bit must be set: with `r < v`, divides the 5-limb
    /// window `r·β + next` by `v`, leaving the remainder in `r` and returning the quotient limb.
    @inlinable @inline(__always)
    internal static func longDivisionStep(_ r: inout UInt256, _ next: UInt64, _ v: UInt256) -> UInt64 {
        let (w4, w3, w2) = (r.limbs.3, r.limbs.2, r.limbs.1)
        let (vTop, vNext) = (v.limbs.3, v.limbs.2)
        // Estimate q̂ = (w4·β + w3) / vTop. As r < v, w4 ≤ vTop; when equal, the quotient limb is
        // β − 1 at most.
        var qHat: UInt64
        var rHat: UInt64
        var rHatOverflow = false
        if w4 >= vTop {
            qHat = .max
            (rHat, rHatOverflow) = w3.addingReportingOverflow(vTop)
        } else {
            (qHat, rHat) = vTop.dividingFullWidth((w4, w3))
        }
        // Correct with the second divisor limb: while q̂·vNext > r̂·β + w2, q̂ is too large. (Once r̂
        // reaches β the test cannot succeed.)
        while !rHatOverflow {
            let p = qHat.multipliedFullWidth(by: vNext)
            guard p.high > rHat || (p.high == rHat && p.low > w2) else { break }
            qHat &-= 1
            (rHat, rHatOverflow) = rHat.addingReportingOverflow(vTop)
        }
        // window − q̂·v. The true difference lies in (−v, v), so the limb above the low 256 bits is
        // 0, or all ones when q̂ was one too large: then add v back once.
        let (productHigh, productLow) = v.multipliedFullWidth(byWord: qHat)
        var (difference, borrow) = UInt256(limbs: (next, r.limbs.0, r.limbs.1, r.limbs.2))
            .subtractingReportingOverflow(productLow)
        if w4 &- productHigh &- carryBit(borrow) != 0 {
            qHat &-= 1
            difference = difference &+ v
        }
        r = difference
        return qHat
    }
}

/// A 512-bit unsigned value as two 256-bit halves: the intermediate of MULMOD, ADDMOD and
/// full-width multiplication.
public struct UInt512: Sendable, Hashable {
    /// The high 256 bits.
    public var high: UInt256
    /// The low 256 bits.
    public var low: UInt256

    /// Creates a value from its halves.
    @inlinable
    public init(high: UInt256, low: UInt256) {
        self.high = high
        self.low = low
    }

    /// The exact product `a × b`.
    @inlinable
    public static func product(_ a: UInt256, _ b: UInt256) -> UInt512 {
        let x = a.limbs
        // Schoolbook: one row per limb of `a`, each row adding x[i]·b into r[i...i+4].
        var r0, r1, r2, r3, r4, r5, r6, r7: UInt64
        var c: UInt64
        (c, r0) = multiplyAdd(x.0, b.limbs.0, 0)
        (c, r1) = multiplyAdd(x.0, b.limbs.1, c)
        (c, r2) = multiplyAdd(x.0, b.limbs.2, c)
        (r4, r3) = multiplyAdd(x.0, b.limbs.3, c)

        (c, r1) = multiplyAdd(x.1, b.limbs.0, r1)
        (c, r2) = multiplyAdd(x.1, b.limbs.1, r2, c)
        (c, r3) = multiplyAdd(x.1, b.limbs.2, r3, c)
        (r5, r4) = multiplyAdd(x.1, b.limbs.3, r4, c)

        (c, r2) = multiplyAdd(x.2, b.limbs.0, r2)
        (c, r3) = multiplyAdd(x.2, b.limbs.1, r3, c)
        (c, r4) = multiplyAdd(x.2, b.limbs.2, r4, c)
        (r6, r5) = multiplyAdd(x.2, b.limbs.3, r5, c)

        (c, r3) = multiplyAdd(x.3, b.limbs.0, r3)
        (c, r4) = multiplyAdd(x.3, b.limbs.1, r4, c)
        (c, r5) = multiplyAdd(x.3, b.limbs.2, r5, c)
        (r7, r6) = multiplyAdd(x.3, b.limbs.3, r6, c)
        return UInt512(high: UInt256(limbs: (r4, r5, r6, r7)), low: UInt256(limbs: (r0, r1, r2, r3)))
    }

    /// This value modulo `modulus` (not zero).
    @inlinable
    public func remainder(dividingBy modulus: UInt256) -> UInt256 {
        precondition(!modulus.isZero, "UInt512 division by zero")
        if high.isZero { return UInt256.divide(low, by: modulus).remainder }
        return quotientAndRemainder(dividingBy: modulus).remainder
    }

    /// The quotient and remainder of this value divided by `divisor` (not zero).
    @usableFromInline
    internal func quotientAndRemainder(dividingBy v: UInt256) -> (quotient: UInt512, remainder: UInt256) {
        var m = 4 + high.significantLimbCount
        if high.isZero { m = low.significantLimbCount }
        let n = v.significantLimbCount
        if m < n { return (UInt512(high: .zero, low: .zero), low) }
        var q: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
        var remainder = UInt256.zero
        withUnsafeMutablePointer(to: &q) { qTuple in
            qTuple.withMemoryRebound(to: UInt64.self, capacity: 8) { q in
                if n == 1 {
                    let d = v.limbs.0
                    var r: UInt64 = 0
                    var j = m - 1
                    while j >= 0 {
                        (q[j], r) = d.dividingFullWidth((r, j < 4 ? low[limb: j] : high[limb: j - 4]))
                        j -= 1
                    }
                    remainder = UInt256(r)
                    return
                }
                // As in UInt256.divideMultiLimb(_:by:), on a dividend of up to 8 + 3 limbs.
                let shift = v.leadingZeroBitCount
                let vn = v.shiftedLeft(shift)
                var shifted = (
                    low.shiftedLeft(shift),
                    high.shiftedLeft(shift) | low.shiftedRight(1).shiftedRight(255 - shift),
                    high.shiftedRight(1).shiftedRight(255 - shift)
                )
                withUnsafeBytes(of: &shifted) { raw in
                    func limb(_ i: Int) -> UInt64 { raw.load(fromByteOffset: i * 8, as: UInt64.self) }
                    let top = m - n
                    var r = UInt256(limbs: (limb(top + 1), limb(top + 2), limb(top + 3), limb(top + 4)))
                    var j = top
                    while j >= 0 {
                        q[j] = UInt256.longDivisionStep(&r, limb(j), vn)
                        j -= 1
                    }
                    remainder = r.shiftedRight(shift)
                }
            }
        }
        return (
            UInt512(high: UInt256(limbs: (q.4, q.5, q.6, q.7)), low: UInt256(limbs: (q.0, q.1, q.2, q.3))), remainder
        )
    }
}
