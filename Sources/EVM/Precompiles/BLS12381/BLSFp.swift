import CGMP
import EthereumPrimitives

/// An element of the BLS12-381 base field, integers modulo the 381-bit prime
/// p = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab,
/// held in Montgomery form (a·2^384 mod p) as six little-endian 64-bit limbs, always fully reduced (< p).
///
/// Every pairing, point operation and map in `BLS12381/` ends up here, so the product is written for
/// speed: Montgomery multiplication in the CIOS order with the "no-carry" shortcut (p's top limb is below
/// 2^63 − 1, so the running total never needs a seventh word), straight-line code on stored limbs, no
/// arrays and no allocation. Sums stay below 2^383 (p < 2^381), so additions need no carry word either.
package struct BLSFp: Sendable, Equatable {
    var l0: UInt64, l1: UInt64, l2: UInt64, l3: UInt64, l4: UInt64, l5: UInt64

    @inline(__always)
    init(_ l0: UInt64, _ l1: UInt64, _ l2: UInt64, _ l3: UInt64, _ l4: UInt64, _ l5: UInt64) {
        (self.l0, self.l1, self.l2, self.l3, self.l4, self.l5) = (l0, l1, l2, l3, l4, l5)
    }

    // p, little-endian limbs.
    static let p0: UInt64 = 0xB9FE_FFFF_FFFF_AAAB
    static let p1: UInt64 = 0x1EAB_FFFE_B153_FFFF
    static let p2: UInt64 = 0x6730_D2A0_F6B0_F624
    static let p3: UInt64 = 0x6477_4B84_F385_12BF
    static let p4: UInt64 = 0x4B1B_A7B6_434B_ACD7
    static let p5: UInt64 = 0x1A01_11EA_397F_E69A

    /// −p⁻¹ mod 2^64, for Montgomery reduction.
    static let inverseP0: UInt64 = 0x89F3_FFFC_FFFC_FFFD
    /// 2^768 mod p: multiplying by it maps an integer into Montgomery form.
    static let r2 = BLSFp(
        0xF4DF_1F34_1C34_1746, 0x0A76_E6A6_09D1_04F1, 0x8DE5_476C_4C95_B6D5, 0x67EB_88A9_939D_83C0,
        0x9A79_3E85_B519_952D, 0x1198_8FE5_92CA_E3AA)

    package static let zero = BLSFp(0, 0, 0, 0, 0, 0)
    /// One in Montgomery form (2^384 mod p).
    package static let one = BLSFp(
        0x7609_0000_0002_FFFD, 0xEBF4_000B_C40C_0002, 0x5F48_9857_53C7_58BA, 0x77CE_5853_7052_5745,
        0x5C07_1A97_A256_EC6D, 0x15F6_5EC3_FA80_E493)

    /// p − 2 (Fermat inversion), (p + 1)/4 (square roots, as p ≡ 3 mod 4) and (p − 1)/2 (Euler's
    /// criterion, and the sign of a square root), little-endian limbs.
    static let pMinus2: [UInt64] = [
        0xB9FE_FFFF_FFFF_AAA9, 0x1EAB_FFFE_B153_FFFF, 0x6730_D2A0_F6B0_F624, 0x6477_4B84_F385_12BF,
        0x4B1B_A7B6_434B_ACD7, 0x1A01_11EA_397F_E69A,
    ]
    static let pPlus1Over4: [UInt64] = [
        0xEE7F_BFFF_FFFF_EAAB, 0x07AA_FFFF_AC54_FFFF, 0xD9CC_34A8_3DAC_3D89, 0xD91D_D2E1_3CE1_44AF,
        0x92C6_E9ED_90D2_EB35, 0x0680_447A_8E5F_F9A6,
    ]
    static let pMinus1Over2: [UInt64] = [
        0xDCFF_7FFF_FFFF_D555, 0x0F55_FFFF_58A9_FFFF, 0xB398_6950_7B58_7B12, 0xB23B_A5C2_79C2_895F,
        0x258D_D3DB_21A5_D66B, 0x0D00_88F5_1CBF_F34D,
    ]
    /// p itself, little-endian limbs (for range checks and as the base of derived exponents).
    package static let modulusLimbs: [UInt64] = [p0, p1, p2, p3, p4, p5]

    /// The element whose canonical value is the 48-byte big-endian integer at `bytes[offset...]`, or
    /// nil when that integer is ≥ p (or fewer than 48 bytes are there).
    package init?(bigEndian bytes: [UInt8], at offset: Int = 0) {
        guard offset >= 0, offset <= bytes.count, bytes.count - offset >= 48 else { return nil }
        func word(_ i: Int) -> UInt64 {
            var value: UInt64 = 0
            let start = offset + 40 - 8 * i
            for j in 0..<8 { value = value << 8 | UInt64(bytes[start + j]) }
            return value
        }
        let raw = BLSFp(word(0), word(1), word(2), word(3), word(4), word(5))
        guard raw.isBelowModulus else { return nil }
        self = raw * BLSFp.r2
    }

    /// A small constant.
    package init(small: UInt64) {
        self = BLSFp(small, 0, 0, 0, 0, 0) * BLSFp.r2
    }

    /// The element with canonical little-endian limbs `limbs` (six of them, value < p), or nil.
    package init?(canonicalLimbs limbs: [UInt64]) {
        guard limbs.count == 6 else { return nil }
        let raw = BLSFp(limbs[0], limbs[1], limbs[2], limbs[3], limbs[4], limbs[5])
        guard raw.isBelowModulus else { return nil }
        self = raw * BLSFp.r2
    }

    /// The canonical value (out of Montgomery form), as an element whose limbs are the integer.
    @inline(__always)
    var canonical: BLSFp { self * BLSFp(1, 0, 0, 0, 0, 0) }

    /// The canonical value's little-endian limbs.
    package var canonicalLimbs: [UInt64] {
        let v = canonical
        return [v.l0, v.l1, v.l2, v.l3, v.l4, v.l5]
    }

    /// The canonical value as 48 big-endian bytes.
    package var bigEndianBytes: [UInt8] {
        var out = [UInt8](repeating: 0, count: 48)
        write(into: &out, at: 0)
        return out
    }

    /// Writes the canonical value as 48 big-endian bytes at `out[offset...]` (which must have room).
    package func write(into out: inout [UInt8], at offset: Int) {
        let v = canonical
        let limbs = [v.l0, v.l1, v.l2, v.l3, v.l4, v.l5]
        for i in 0..<6 {
            for j in 0..<8 { out[offset + 40 - 8 * i + j] = UInt8(truncatingIfNeeded: limbs[i] >> (56 - 8 * j)) }
        }
    }

    /// True when the canonical value is above (p − 1)/2: the "lexicographically largest" of ±y in the
    /// ZCash point encoding.
    package var isLexicographicallyLargest: Bool {
        let v = canonicalLimbs
        for i in stride(from: 5, through: 0, by: -1) where v[i] != BLSFp.pMinus1Over2[i] {
            return v[i] > BLSFp.pMinus1Over2[i]
        }
        return false
    }

    /// sgn0 of RFC 9380 for a prime field: the parity of the canonical value.
    package var sgn0: Bool { canonical.l0 & 1 == 1 }

    /// True when these limbs, read as an integer, are below p.
    var isBelowModulus: Bool {
        let (_, borrow) = BLSFp.subtractModulus(self)
        return borrow != 0
    }

    package var isZero: Bool { (l0 | l1 | l2 | l3 | l4 | l5) == 0 }

    // MARK: Limb arithmetic

    /// a·b + c + d as (high, low); cannot overflow 128 bits.
    @inline(__always)
    static func mac(_ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: UInt64) -> (UInt64, UInt64) {
        let (high, low) = a.multipliedFullWidth(by: b)
        let (s1, o1) = low.addingReportingOverflow(c)
        let (s2, o2) = s1.addingReportingOverflow(d)
        return (high &+ bit(o1) &+ bit(o2), s2)
    }

    /// A flag as 0 or 1. Written as a bit cast rather than `flag ? 1 : 0`, which the optimizer turns
    /// into branches; with the cast LLVM fuses the limb chains below into add/adc and sub/sbb.
    @inline(__always)
    static func bit(_ flag: Bool) -> UInt64 { UInt64(unsafeBitCast(flag, to: UInt8.self)) }

    @inline(__always)
    static func adc(_ a: UInt64, _ b: UInt64, _ carry: UInt64) -> (UInt64, UInt64) {
        let (s1, o1) = a.addingReportingOverflow(b)
        let (s2, o2) = s1.addingReportingOverflow(carry)
        return (s2, bit(o1) | bit(o2))
    }

    @inline(__always)
    static func sbb(_ a: UInt64, _ b: UInt64, _ borrow: UInt64) -> (UInt64, UInt64) {
        let (d1, o1) = a.subtractingReportingOverflow(b)
        let (d2, o2) = d1.subtractingReportingOverflow(borrow)
        return (d2, bit(o1) | bit(o2))
    }

    /// x − p and the borrow out (non-zero when x < p).
    @inline(__always)
    static func subtractModulus(_ x: BLSFp) -> (BLSFp, UInt64) {
        var b: UInt64 = 0
        var d0: UInt64, d1: UInt64, d2: UInt64, d3: UInt64, d4: UInt64, d5: UInt64
        (d0, b) = sbb(x.l0, p0, b)
        (d1, b) = sbb(x.l1, p1, b)
        (d2, b) = sbb(x.l2, p2, b)
        (d3, b) = sbb(x.l3, p3, b)
        (d4, b) = sbb(x.l4, p4, b)
        (d5, b) = sbb(x.l5, p5, b)
        return (BLSFp(d0, d1, d2, d3, d4, d5), b)
    }

    /// x − p when x ≥ p (x < 2p), else x.
    @inline(__always)
    static func reduceOnce(_ x: BLSFp) -> BLSFp {
        let (d, borrow) = subtractModulus(x)
        return borrow == 0 ? d : x
    }

    /// One row of the product: t + a·bi, then one Montgomery reduction step (divides by 2^64).
    /// The "no-carry" form: with p₅ < 2^63 − 1 the row's two carry chains end in one word.
    @inline(__always)
    static func row(
        _ a: BLSFp, _ bi: UInt64, _ t: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
    ) -> (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) {
        var (t0, t1, t2, t3, t4, t5) = t
        var carryA: UInt64, carryC: UInt64
        (carryA, t0) = mac(a.l0, bi, t0, 0)
        let m = t0 &* inverseP0
        (carryC, _) = mac(m, p0, t0, 0)
        (carryA, t1) = mac(a.l1, bi, t1, carryA)
        (carryC, t0) = mac(m, p1, t1, carryC)
        (carryA, t2) = mac(a.l2, bi, t2, carryA)
        (carryC, t1) = mac(m, p2, t2, carryC)
        (carryA, t3) = mac(a.l3, bi, t3, carryA)
        (carryC, t2) = mac(m, p3, t3, carryC)
        (carryA, t4) = mac(a.l4, bi, t4, carryA)
        (carryC, t3) = mac(m, p4, t4, carryC)
        (carryA, t5) = mac(a.l5, bi, t5, carryA)
        (carryC, t4) = mac(m, p5, t5, carryC)
        t5 = carryC &+ carryA
        return (t0, t1, t2, t3, t4, t5)
    }

    /// Montgomery product a·b·2^−384 mod p.
    package static func * (a: BLSFp, b: BLSFp) -> BLSFp {
        var t = row(a, b.l0, (0, 0, 0, 0, 0, 0))
        t = row(a, b.l1, t)
        t = row(a, b.l2, t)
        t = row(a, b.l3, t)
        t = row(a, b.l4, t)
        t = row(a, b.l5, t)
        return reduceOnce(BLSFp(t.0, t.1, t.2, t.3, t.4, t.5))
    }

    @inline(__always)
    package static func + (a: BLSFp, b: BLSFp) -> BLSFp {
        var c: UInt64 = 0
        var s0: UInt64, s1: UInt64, s2: UInt64, s3: UInt64, s4: UInt64, s5: UInt64
        (s0, c) = adc(a.l0, b.l0, c)
        (s1, c) = adc(a.l1, b.l1, c)
        (s2, c) = adc(a.l2, b.l2, c)
        (s3, c) = adc(a.l3, b.l3, c)
        (s4, c) = adc(a.l4, b.l4, c)
        s5 = a.l5 &+ b.l5 &+ c  // a + b < 2p < 2^383: no carry out
        return reduceOnce(BLSFp(s0, s1, s2, s3, s4, s5))
    }

    @inline(__always)
    package static func - (a: BLSFp, b: BLSFp) -> BLSFp {
        var borrow: UInt64 = 0
        var d0: UInt64, d1: UInt64, d2: UInt64, d3: UInt64, d4: UInt64, d5: UInt64
        (d0, borrow) = sbb(a.l0, b.l0, borrow)
        (d1, borrow) = sbb(a.l1, b.l1, borrow)
        (d2, borrow) = sbb(a.l2, b.l2, borrow)
        (d3, borrow) = sbb(a.l3, b.l3, borrow)
        (d4, borrow) = sbb(a.l4, b.l4, borrow)
        (d5, borrow) = sbb(a.l5, b.l5, borrow)
        // Add p back when the difference went negative (mask instead of a branch).
        let mask = 0 &- borrow
        var c: UInt64 = 0
        (d0, c) = adc(d0, p0 & mask, c)
        (d1, c) = adc(d1, p1 & mask, c)
        (d2, c) = adc(d2, p2 & mask, c)
        (d3, c) = adc(d3, p3 & mask, c)
        (d4, c) = adc(d4, p4 & mask, c)
        d5 = d5 &+ (p5 & mask) &+ c
        return BLSFp(d0, d1, d2, d3, d4, d5)
    }

    @inline(__always)
    package static prefix func - (a: BLSFp) -> BLSFp { zero - a }

    package static func += (a: inout BLSFp, b: BLSFp) { a = a + b }
    package static func -= (a: inout BLSFp, b: BLSFp) { a = a - b }
    package static func *= (a: inout BLSFp, b: BLSFp) { a = a * b }

    /// 2a.
    @inline(__always)
    package var doubled: BLSFp { self + self }

    package var squared: BLSFp { self * self }

    /// self^e, e given as little-endian limbs (square-and-multiply from the top bit).
    package func power(_ e: [UInt64]) -> BLSFp {
        var result = BLSFp.one
        for limb in e.reversed() {
            for bit in stride(from: 63, through: 0, by: -1) {
                result = result.squared
                if (limb >> UInt64(bit)) & 1 == 1 { result = result * self }
            }
        }
        return result
    }

    /// The multiplicative inverse; zero for zero. GNU MP's extended Euclid on the canonical value: a
    /// Fermat power a^(p−2) costs 570 products (≈ 30 µs), and every affine result (each ADD, MSM and map
    /// output) needs one inversion. ``fermatInverse`` is the power, kept for the tests to compare.
    package var inverse: BLSFp {
        if isZero { return .zero }
        let limbs = withGMP { a, m in
            var r = __mpz_struct()
            __gmpz_init2(&r, 384)
            defer { __gmpz_clear(&r) }
            // p is prime and a ≠ 0, so the inverse exists and lies in [1, p).
            guard __gmpz_invert(&r, a, m) != 0, r._mp_size > 0, r._mp_size <= 6, let digits = r._mp_d else {
                return [UInt64]()
            }
            var out: [UInt64] = [0, 0, 0, 0, 0, 0]
            for i in 0..<Int(r._mp_size) { out[i] = UInt64(digits[i]) }
            return out
        }
        return BLSFp(canonicalLimbs: limbs) ?? fermatInverse
    }

    /// Calls `body` with GNU MP views (no copies, no allocation) of the canonical value and of p.
    func withGMP<R>(_ body: (UnsafePointer<__mpz_struct>, UnsafePointer<__mpz_struct>) -> R) -> R {
        let v = canonical
        var input: (UInt, UInt, UInt, UInt, UInt, UInt) = (
            UInt(v.l0), UInt(v.l1), UInt(v.l2), UInt(v.l3), UInt(v.l4), UInt(v.l5)
        )
        var modulus: (UInt, UInt, UInt, UInt, UInt, UInt) = (
            UInt(BLSFp.p0), UInt(BLSFp.p1), UInt(BLSFp.p2), UInt(BLSFp.p3), UInt(BLSFp.p4), UInt(BLSFp.p5)
        )
        return withUnsafeMutableBytes(of: &input) { inputBytes in
            withUnsafeMutableBytes(of: &modulus) { modulusBytes in
                var a = __mpz_struct(), m = __mpz_struct()
                let aView = __gmpz_roinit_n(&a, inputBytes.baseAddress?.assumingMemoryBound(to: UInt.self), 6)
                let mView = __gmpz_roinit_n(&m, modulusBytes.baseAddress?.assumingMemoryBound(to: UInt.self), 6)
                return body(aView!, mView!)
            }
        }
    }

    /// a^(p−2), the inverse by Fermat's little theorem (zero for zero).
    package var fermatInverse: BLSFp { power(BLSFp.pMinus2) }

    /// A square root, or nil when there is none (p ≡ 3 mod 4, so a^((p+1)/4) is one when any exists).
    /// Non-squares are told apart first by the Jacobi symbol, so they cost no power.
    package var squareRoot: BLSFp? {
        guard isSquare else { return nil }
        let candidate = power(BLSFp.pPlus1Over4)
        return candidate.squared == self ? candidate : nil
    }

    /// True for zero and the non-zero squares: the Legendre symbol (a/p), by GNU MP's Jacobi symbol.
    package var isSquare: Bool {
        if isZero { return true }
        return withGMP { a, m in __gmpz_jacobi(a, m) } == 1
    }

    /// Euler's criterion a^((p−1)/2) = 1 (or a = 0), kept for the tests to compare with ``isSquare``.
    package var isSquareByEuler: Bool {
        isZero || power(BLSFp.pMinus1Over2) == .one
    }
}
