import EthereumPrimitives

/// An element of the BLS12-381 base field, integers modulo the 381-bit prime
/// p = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab,
/// held in Montgomery form (a·2^384 mod p) as six little-endian 64-bit limbs.
package struct BLSFp: Sendable, Equatable {
    var l0: UInt64, l1: UInt64, l2: UInt64, l3: UInt64, l4: UInt64, l5: UInt64

    @inline(__always)
    init(_ l0: UInt64, _ l1: UInt64, _ l2: UInt64, _ l3: UInt64, _ l4: UInt64, _ l5: UInt64) {
        (self.l0, self.l1, self.l2, self.l3, self.l4, self.l5) = (l0, l1, l2, l3, l4, l5)
    }

    @inline(__always)
    subscript(i: Int) -> UInt64 {
        switch i {
        case 0: return l0
        case 1: return l1
        case 2: return l2
        case 3: return l3
        case 4: return l4
        default: return l5
        }
    }

    /// Limb `i` of p.
    @inline(__always)
    static func modulusLimb(_ i: Int) -> UInt64 {
        switch i {
        case 0: return 0xB9FE_FFFF_FFFF_AAAB
        case 1: return 0x1EAB_FFFE_B153_FFFF
        case 2: return 0x6730_D2A0_F6B0_F624
        case 3: return 0x6477_4B84_F385_12BF
        case 4: return 0x4B1B_A7B6_434B_ACD7
        default: return 0x1A01_11EA_397F_E69A
        }
    }

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

    /// p − 2 (Fermat inversion), (p + 1)/4 (square roots, as p ≡ 3 mod 4) and (p − 1)/2 (the sign of
    /// a square root), little-endian limbs.
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

    /// The element whose canonical value is the 48-byte big-endian integer at `bytes[offset...]`, or
    /// nil when that integer is ≥ p.
    package init?(bigEndian bytes: [UInt8], at offset: Int = 0) {
        guard offset >= 0, bytes.count - offset >= 48 else { return nil }
        var limbs = [UInt64](repeating: 0, count: 6)
        for i in 0..<6 {
            var word: UInt64 = 0
            for j in 0..<8 { word = word << 8 | UInt64(bytes[offset + 40 - 8 * i + j]) }
            limbs[i] = word
        }
        guard BLSFp.lessThanModulus(limbs) else { return nil }
        self = BLSFp(limbs[0], limbs[1], limbs[2], limbs[3], limbs[4], limbs[5]) * BLSFp.r2
    }

    /// A small constant.
    package init(small: UInt64) {
        self = BLSFp(small, 0, 0, 0, 0, 0) * BLSFp.r2
    }

    /// The canonical value's little-endian limbs (out of Montgomery form).
    var canonicalLimbs: [UInt64] {
        let v = self * BLSFp(1, 0, 0, 0, 0, 0)
        return [v.l0, v.l1, v.l2, v.l3, v.l4, v.l5]
    }

    /// The canonical value as 48 big-endian bytes.
    package var bigEndianBytes: [UInt8] {
        let limbs = canonicalLimbs
        var out = [UInt8](repeating: 0, count: 48)
        for i in 0..<6 {
            for j in 0..<8 { out[40 - 8 * i + j] = UInt8(truncatingIfNeeded: limbs[i] >> (56 - 8 * j)) }
        }
        return out
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

    static func lessThanModulus(_ limbs: [UInt64]) -> Bool {
        for i in stride(from: 5, through: 0, by: -1) where limbs[i] != modulusLimb(i) {
            return limbs[i] < modulusLimb(i)
        }
        return false
    }

    package var isZero: Bool { (l0 | l1 | l2 | l3 | l4 | l5) == 0 }

    @inline(__always)
    static func multiplyAdd(_ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: UInt64) -> (high: UInt64, low: UInt64) {
        let (high, low) = a.multipliedFullWidth(by: b)
        let (s1, o1) = low.addingReportingOverflow(c)
        let (s2, o2) = s1.addingReportingOverflow(d)
        return (high &+ (o1 ? 1 : 0) &+ (o2 ? 1 : 0), s2)
    }

    @inline(__always)
    static func addCarry(_ a: UInt64, _ b: UInt64, _ carry: UInt64) -> (UInt64, UInt64) {
        let (s1, o1) = a.addingReportingOverflow(b)
        let (s2, o2) = s1.addingReportingOverflow(carry)
        return (s2, (o1 ? 1 : 0) | (o2 ? 1 : 0))
    }

    @inline(__always)
    static func subBorrow(_ a: UInt64, _ b: UInt64, _ borrow: UInt64) -> (UInt64, UInt64) {
        let (d1, o1) = a.subtractingReportingOverflow(b)
        let (d2, o2) = d1.subtractingReportingOverflow(borrow)
        return (d2, (o1 ? 1 : 0) | (o2 ? 1 : 0))
    }

    /// x − p when x ≥ p (x < 2p), else x.
    @inline(__always)
    static func reduceOnce(_ x: BLSFp) -> BLSFp {
        var borrow: UInt64 = 0
        var d0: UInt64, d1: UInt64, d2: UInt64, d3: UInt64, d4: UInt64, d5: UInt64
        (d0, borrow) = subBorrow(x.l0, modulusLimb(0), borrow)
        (d1, borrow) = subBorrow(x.l1, modulusLimb(1), borrow)
        (d2, borrow) = subBorrow(x.l2, modulusLimb(2), borrow)
        (d3, borrow) = subBorrow(x.l3, modulusLimb(3), borrow)
        (d4, borrow) = subBorrow(x.l4, modulusLimb(4), borrow)
        (d5, borrow) = subBorrow(x.l5, modulusLimb(5), borrow)
        return borrow == 0 ? BLSFp(d0, d1, d2, d3, d4, d5) : x
    }

    /// Montgomery product (CIOS): a·b·2^−384 mod p. As p < 2^382, the running total stays below 2p
    /// and fits six limbs plus one.
    package static func * (a: BLSFp, b: BLSFp) -> BLSFp {
        var t0: UInt64 = 0, t1: UInt64 = 0, t2: UInt64 = 0, t3: UInt64 = 0, t4: UInt64 = 0, t5: UInt64 = 0
        var t6: UInt64 = 0
        for i in 0..<6 {
            let bi = b[i]
            var c: UInt64
            (c, t0) = multiplyAdd(a.l0, bi, t0, 0)
            (c, t1) = multiplyAdd(a.l1, bi, t1, c)
            (c, t2) = multiplyAdd(a.l2, bi, t2, c)
            (c, t3) = multiplyAdd(a.l3, bi, t3, c)
            (c, t4) = multiplyAdd(a.l4, bi, t4, c)
            (c, t5) = multiplyAdd(a.l5, bi, t5, c)
            let (s6, c6) = addCarry(t6, c, 0)
            let m = t0 &* inverseP0
            (c, _) = multiplyAdd(m, modulusLimb(0), t0, 0)
            (c, t0) = multiplyAdd(m, modulusLimb(1), t1, c)
            (c, t1) = multiplyAdd(m, modulusLimb(2), t2, c)
            (c, t2) = multiplyAdd(m, modulusLimb(3), t3, c)
            (c, t3) = multiplyAdd(m, modulusLimb(4), t4, c)
            (c, t4) = multiplyAdd(m, modulusLimb(5), t5, c)
            let (s5, c5) = addCarry(s6, c, 0)
            t5 = s5
            t6 = c6 &+ c5
        }
        return reduceOnce(BLSFp(t0, t1, t2, t3, t4, t5))
    }

    package static func + (a: BLSFp, b: BLSFp) -> BLSFp {
        var c: UInt64 = 0
        var s0: UInt64, s1: UInt64, s2: UInt64, s3: UInt64, s4: UInt64, s5: UInt64
        (s0, c) = addCarry(a.l0, b.l0, c)
        (s1, c) = addCarry(a.l1, b.l1, c)
        (s2, c) = addCarry(a.l2, b.l2, c)
        (s3, c) = addCarry(a.l3, b.l3, c)
        (s4, c) = addCarry(a.l4, b.l4, c)
        (s5, _) = addCarry(a.l5, b.l5, c)  // a + b < 2p < 2^383: no carry out
        return reduceOnce(BLSFp(s0, s1, s2, s3, s4, s5))
    }

    package static func - (a: BLSFp, b: BLSFp) -> BLSFp {
        var borrow: UInt64 = 0
        var d0: UInt64, d1: UInt64, d2: UInt64, d3: UInt64, d4: UInt64, d5: UInt64
        (d0, borrow) = subBorrow(a.l0, b.l0, borrow)
        (d1, borrow) = subBorrow(a.l1, b.l1, borrow)
        (d2, borrow) = subBorrow(a.l2, b.l2, borrow)
        (d3, borrow) = subBorrow(a.l3, b.l3, borrow)
        (d4, borrow) = subBorrow(a.l4, b.l4, borrow)
        (d5, borrow) = subBorrow(a.l5, b.l5, borrow)
        guard borrow != 0 else { return BLSFp(d0, d1, d2, d3, d4, d5) }
        var c: UInt64 = 0
        (d0, c) = addCarry(d0, modulusLimb(0), c)
        (d1, c) = addCarry(d1, modulusLimb(1), c)
        (d2, c) = addCarry(d2, modulusLimb(2), c)
        (d3, c) = addCarry(d3, modulusLimb(3), c)
        (d4, c) = addCarry(d4, modulusLimb(4), c)
        (d5, _) = addCarry(d5, modulusLimb(5), c)
        return BLSFp(d0, d1, d2, d3, d4, d5)
    }

    package static prefix func - (a: BLSFp) -> BLSFp { zero - a }

    package var squared: BLSFp { self * self }

    /// self^e, e given as little-endian limbs.
    func power(_ e: [UInt64]) -> BLSFp {
        var result = BLSFp.one
        for limb in e.reversed() {
            for bit in stride(from: 63, through: 0, by: -1) {
                result = result.squared
                if (limb >> UInt64(bit)) & 1 == 1 { result = result * self }
            }
        }
        return result
    }

    /// The multiplicative inverse (a^(p−2)); zero for zero.
    package var inverse: BLSFp { power(BLSFp.pMinus2) }

    /// A square root, or nil when there is none (p ≡ 3 mod 4, so a^((p+1)/4) is one when any exists).
    package var squareRoot: BLSFp? {
        let candidate = power(BLSFp.pPlus1Over4)
        return candidate.squared == self ? candidate : nil
    }
}
