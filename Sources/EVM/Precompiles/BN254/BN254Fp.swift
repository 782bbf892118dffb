import EthereumPrimitives

/// An element of the BN254 (alt_bn128) base field, integers modulo
/// p = 21888242871839275222246405745257275088696311157297823662689037894645226208583,
/// held in Montgomery form (a·2^256 mod p) as four little-endian 64-bit limbs.
package struct BN254Fp: Sendable, Equatable {
    package var l0: UInt64, l1: UInt64, l2: UInt64, l3: UInt64

    @inline(__always)
    init(_ l0: UInt64, _ l1: UInt64, _ l2: UInt64, _ l3: UInt64) {
        self.l0 = l0
        self.l1 = l1
        self.l2 = l2
        self.l3 = l3
    }

    // The modulus p, little-endian limbs.
    static let p0: UInt64 = 0x3C20_8C16_D87C_FD47
    static let p1: UInt64 = 0x9781_6A91_6871_CA8D
    static let p2: UInt64 = 0xB850_45B6_8181_585D
    static let p3: UInt64 = 0x3064_4E72_E131_A029
    /// −p⁻¹ mod 2^64, for Montgomery reduction.
    static let inverseP0: UInt64 = 0x87D2_0782_E486_6389
    /// 2^512 mod p, which maps a plain integer into Montgomery form.
    static let r2 = BN254Fp(0xF32C_FC5B_538A_FA89, 0xB5E7_1911_D445_01FB, 0x47AB_1EFF_0A41_7FF6, 0x06D8_9F71_CAB8_351F)

    /// The modulus p.
    package static let modulus = UInt256(limbs: (p0, p1, p2, p3))

    package static let zero = BN254Fp(0, 0, 0, 0)
    /// One, in Montgomery form (2^256 mod p).
    package static let one = BN254Fp(0xD35D_438D_C58F_0D9D, 0x0A78_EB28_F5C7_0B3D, 0x666E_A36F_7879_462C, 0x0E0A_77C1_9A07_DF2F)

    /// The field element equal to `value`, or nil when `value` ≥ p (not a canonical encoding).
    package init?(_ value: UInt256) {
        guard value < BN254Fp.modulus else { return nil }
        let raw = BN254Fp(value.limbs.0, value.limbs.1, value.limbs.2, value.limbs.3)
        self = raw * BN254Fp.r2
    }

    /// A small constant.
    package init(small: UInt64) {
        self = BN254Fp(UInt256(small)) ?? .zero
    }

    /// The canonical integer value (out of Montgomery form).
    package var value: UInt256 {
        let v = self * BN254Fp(1, 0, 0, 0)
        return UInt256(limbs: (v.l0, v.l1, v.l2, v.l3))
    }

    package var isZero: Bool { (l0 | l1 | l2 | l3) == 0 }

    /// (hi, lo) of a·b + c + d, which cannot overflow 128 bits.
    @inline(__always)
    static func multiplyAdd(_ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: UInt64) -> (UInt64, UInt64) {
        let (high, low) = a.multipliedFullWidth(by: b)
        let (s1, o1) = low.addingReportingOverflow(c)
        let (s2, o2) = s1.addingReportingOverflow(d)
        return (high &+ UInt64(o1 ? 1 : 0) &+ UInt64(o2 ? 1 : 0), s2)
    }

    // Carry and borrow chains written without branches (a carry is 0 or 1), so they compile to add/adc
    // and sub/sbb rather than data-dependent jumps.
    @inline(__always)
    static func addCarry(_ a: UInt64, _ b: UInt64, _ carry: UInt64) -> (UInt64, UInt64) {
        let (s1, o1) = a.addingReportingOverflow(b)
        let (s2, o2) = s1.addingReportingOverflow(carry)
        return (s2, UInt64(o1 ? 1 : 0) | UInt64(o2 ? 1 : 0))
    }

    @inline(__always)
    static func subBorrow(_ a: UInt64, _ b: UInt64, _ borrow: UInt64) -> (UInt64, UInt64) {
        let (d1, o1) = a.subtractingReportingOverflow(b)
        let (d2, o2) = d1.subtractingReportingOverflow(borrow)
        return (d2, UInt64(o1 ? 1 : 0) | UInt64(o2 ? 1 : 0))
    }

    /// x − p if x ≥ p (or `carry` is 1), else x; selected with a mask.
    @inline(__always)
    static func reduced(_ x0: UInt64, _ x1: UInt64, _ x2: UInt64, _ x3: UInt64, carry: UInt64) -> BN254Fp {
        let (d0, b0) = subBorrow(x0, p0, 0)
        let (d1, b1) = subBorrow(x1, p1, b0)
        let (d2, b2) = subBorrow(x2, p2, b1)
        let (d3, b3) = subBorrow(x3, p3, b2)
        // Keep x when the subtraction borrowed and there was no carry out of x.
        let keep = 0 &- (b3 & ~carry & 1)
        return BN254Fp(d0 ^ ((d0 ^ x0) & keep), d1 ^ ((d1 ^ x1) & keep), d2 ^ ((d2 ^ x2) & keep), d3 ^ ((d3 ^ x3) & keep))
    }

    /// One round of CIOS Montgomery multiplication: t += a·bi, then divide by 2^64 modulo p.
    @inline(__always)
    static func montgomeryRound(
        _ a: BN254Fp, _ bi: UInt64,
        _ t0: inout UInt64, _ t1: inout UInt64, _ t2: inout UInt64, _ t3: inout UInt64, _ t4: inout UInt64
    ) {
        var c: UInt64
        (c, t0) = multiplyAdd(a.l0, bi, t0, 0)
        (c, t1) = multiplyAdd(a.l1, bi, t1, c)
        (c, t2) = multiplyAdd(a.l2, bi, t2, c)
        (c, t3) = multiplyAdd(a.l3, bi, t3, c)
        let (s4, t5) = addCarry(t4, c, 0)
        let m = t0 &* inverseP0
        var low: UInt64
        (c, low) = multiplyAdd(m, p0, t0, 0)
        _ = low
        (c, t0) = multiplyAdd(m, p1, t1, c)
        (c, t1) = multiplyAdd(m, p2, t2, c)
        (c, t2) = multiplyAdd(m, p3, t3, c)
        let (s3, c3) = addCarry(s4, c, 0)
        t3 = s3
        t4 = t5 &+ c3
    }

    /// Montgomery product: a·b·2^−256 mod p, which is the product of the represented values.
    @inline(__always)
    package static func * (a: BN254Fp, b: BN254Fp) -> BN254Fp {
        var t0: UInt64 = 0, t1: UInt64 = 0, t2: UInt64 = 0, t3: UInt64 = 0, t4: UInt64 = 0
        montgomeryRound(a, b.l0, &t0, &t1, &t2, &t3, &t4)
        montgomeryRound(a, b.l1, &t0, &t1, &t2, &t3, &t4)
        montgomeryRound(a, b.l2, &t0, &t1, &t2, &t3, &t4)
        montgomeryRound(a, b.l3, &t0, &t1, &t2, &t3, &t4)
        return reduced(t0, t1, t2, t3, carry: t4)
    }

    @inline(__always)
    package static func + (a: BN254Fp, b: BN254Fp) -> BN254Fp {
        let (s0, c0) = addCarry(a.l0, b.l0, 0)
        let (s1, c1) = addCarry(a.l1, b.l1, c0)
        let (s2, c2) = addCarry(a.l2, b.l2, c1)
        let (s3, c3) = addCarry(a.l3, b.l3, c2)
        return reduced(s0, s1, s2, s3, carry: c3)
    }

    @inline(__always)
    package static func - (a: BN254Fp, b: BN254Fp) -> BN254Fp {
        let (d0, b0) = subBorrow(a.l0, b.l0, 0)
        let (d1, b1) = subBorrow(a.l1, b.l1, b0)
        let (d2, b2) = subBorrow(a.l2, b.l2, b1)
        let (d3, b3) = subBorrow(a.l3, b.l3, b2)
        // On borrow, add p back (the sum wraps to the right value).
        let mask = 0 &- b3
        let (e0, c0) = addCarry(d0, p0 & mask, 0)
        let (e1, c1) = addCarry(d1, p1 & mask, c0)
        let (e2, c2) = addCarry(d2, p2 & mask, c1)
        let (e3, _) = addCarry(d3, p3 & mask, c2)
        return BN254Fp(e0, e1, e2, e3)
    }

    @inline(__always)
    package static prefix func - (a: BN254Fp) -> BN254Fp { zero - a }

    @inline(__always)
    package var squared: BN254Fp { self * self }

    @inline(__always)
    package var doubled: BN254Fp { self + self }

    /// self^exponent (exponent as little-endian limbs).
    package func power(_ exponent: UInt256) -> BN254Fp {
        var result = BN254Fp.one
        var started = false
        for i in stride(from: 255, through: 0, by: -1) {
            if started { result = result.squared }
            if exponent.bit(i) {
                result = started ? result * self : self
                started = true
            }
        }
        return result
    }

    /// The multiplicative inverse (Fermat: a^(p−2)); zero for zero.
    package var inverse: BN254Fp {
        power(BN254Fp.modulus - UInt256(2))
    }
}
