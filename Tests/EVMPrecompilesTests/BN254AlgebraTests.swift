import EVM
import EthereumPrimitives
import TestSupport
import Testing

/// Properties of the BN254 field tower, curve groups and pairing (package API).
@Suite struct BN254AlgebraTests {
    static func randomFp(_ g: inout SplitMix64) -> BN254Fp {
        let v = UInt256(limbs: (g.next(), g.next(), g.next(), g.next() >> 3))
        return BN254Fp(v % BN254Fp.modulus) ?? .zero
    }
    static func randomFp2(_ g: inout SplitMix64) -> BN254Fp2 { BN254Fp2(randomFp(&g), randomFp(&g)) }
    static func randomFp6(_ g: inout SplitMix64) -> BN254Fp6 { BN254Fp6(randomFp2(&g), randomFp2(&g), randomFp2(&g)) }
    static func randomFp12(_ g: inout SplitMix64) -> BN254Fp12 { BN254Fp12(randomFp6(&g), randomFp6(&g)) }
    static func randomScalar(_ g: inout SplitMix64) -> UInt256 {
        UInt256(limbs: (g.next(), g.next(), g.next(), g.next() >> 4))
    }

    @Test func fieldArithmetic() {
        var g = SplitMix64(seed: 1)
        let p = BN254Fp.modulus
        for _ in 0..<200 {
            let a = Self.randomFp(&g), b = Self.randomFp(&g), c = Self.randomFp(&g)
            // Montgomery product agrees with a 512-bit product reduced mod p.
            let expected = UInt512.product(a.value, b.value).remainder(dividingBy: p)
            #expect((a * b).value == expected)
            #expect((a + b).value == a.value.addingReportingOverflow(b.value).partialValue % p)
            #expect(((a - b) + b) == a)
            #expect(a * (b + c) == a * b + a * c)
            if !a.isZero { #expect(a * a.inverse == .one) }
        }
        #expect(BN254Fp(p) == nil)
        #expect(BN254Fp(p - UInt256(1)) != nil)
        #expect(BN254Fp.one.value == UInt256(1))
    }

    @Test func towerArithmetic() {
        var g = SplitMix64(seed: 2)
        for _ in 0..<20 {
            let a = Self.randomFp2(&g), b = Self.randomFp2(&g)
            #expect(a * a.inverse == .one)
            #expect(a.squared == a * a)
            #expect(a.timesXi == a * BN254Fp2.xi)
            let x = Self.randomFp6(&g), y = Self.randomFp6(&g), z = Self.randomFp6(&g)
            #expect(x * x.inverse == .one)
            #expect(x * (y + z) == x * y + x * z)
            #expect(x.timesV == x * BN254Fp6(.zero, .one, .zero))
            let f = Self.randomFp12(&g), h = Self.randomFp12(&g)
            #expect(f * f.inverse == .one)
            #expect(f.squared == f * f)
            #expect((f * h).frobenius == f.frobenius * h.frobenius)
            #expect(f.frobenius.frobenius == f.frobenius2)
            _ = b
        }
        // The Frobenius map is x ↦ x^p.
        var g2 = SplitMix64(seed: 3)
        let f = Self.randomFp12(&g2)
        #expect(f.frobenius == f.power(bigEndian: BN254Fp.modulus.bigEndianBytes))
    }

    @Test func generatorsAndGroupLaw() {
        let g1 = BN254G1.generator, g2 = BN254G2.generator
        #expect(BN254G1.isOnCurve(x: BN254Fp(small: 1), y: BN254Fp(small: 2)))
        let a2 = g2.affine!
        #expect(BN254G2.isOnCurve(x: a2.x, y: a2.y))
        #expect(g2.isInSubgroup)
        let order = UInt256(limbs: (0x43E1_F593_F000_0001, 0x2833_E848_79B9_7091, 0xB850_45B6_8181_585D, 0x3064_4E72_E131_A029))
        #expect(g1.multiplied(by: order).isInfinity)
        #expect(g1 + g1 == g1.doubled)
        #expect(g1.multiplied(by: UInt256(5)) == g1.doubled.doubled + g1)
        #expect(g1 + g1.negated == .infinity)
        #expect(g2.multiplied(by: UInt256(7)) == g2.doubled.doubled.doubled + g2.negated)
    }

    /// The hard part's addition chain equals exponentiation by (p⁴ − p² + 1)/r on the cyclotomic subgroup.
    @Test func finalExponentiationHardPart() throws {
        var g = SplitMix64(seed: 4)
        let f = Self.randomFp12(&g)
        // Easy part, so the element is in the cyclotomic subgroup.
        var t = f.conjugate * f.inverse
        t = t.frobenius2 * t
        // (p^4 - p^2 + 1) / r, computed offline (a fact about the curve's parameters).
        let hard = try [UInt8](hex: "0x01baaa710b0759ad331ec15183177faf6c0eb522d5b122784e529a5861876f6b3b1b1355d189227d79581e16f3fd90c66b887d56d5095f23aaa441e3954bcf8adcc7b44c87cdbacff1154e7e1da014fd5abf5cc4f49c36d4e81bb482ccdf42b1")
        #expect(BN254Pairing.hardPart(t) == t.power(bigEndian: hard))
    }

    /// Cyclotomic squaring agrees with plain squaring on the cyclotomic subgroup.
    @Test func cyclotomicSquaring() {
        var g = SplitMix64(seed: 6)
        for _ in 0..<10 {
            let f = Self.randomFp12(&g)
            var t = f.conjugate * f.inverse
            t = t.frobenius2 * t
            #expect(t.cyclotomicSquared == t.squared)
            #expect(t * t.conjugate == .one)
        }
    }

    /// The endomorphism-based G2 membership test agrees with r·Q = O on subgroup points and on random
    /// twist points (which are almost never in the subgroup, the cofactor being about p).
    @Test func g2SubgroupTests() {
        var g = SplitMix64(seed: 8)
        for _ in 0..<8 {
            let q = BN254G2.generator.multiplied(by: Self.randomScalar(&g))
            #expect(q.isInSubgroup)
            #expect(q.isInSubgroupByOrder)
        }
        var c: UInt64 = 1
        var found = 0
        while found < 8 {
            let x = BN254Fp2(BN254Fp(small: c), BN254Fp(small: c &* 7 &+ 3))
            c += 1
            guard let y = BN254PrecompileTests.sqrt(x.squared * x + BN254Fp2.curveB) else { continue }
            let point = BN254G2(affineX: x, y: y)
            #expect(point.isInSubgroup == point.isInSubgroupByOrder)
            #expect(!point.isInSubgroup)
            // Clearing part of the cofactor still leaves it outside.
            let partial = point.multiplied(by: UInt256(6))
            #expect(partial.isInSubgroup == partial.isInSubgroupByOrder)
            found += 1
        }
    }

    @Test func pairingIsBilinearAndNonDegenerate() {
        var g = SplitMix64(seed: 5)
        let p = BN254G1.generator, q = BN254G2.generator
        let e = BN254Pairing.pairing(p, q)
        #expect(!e.isOne)
        #expect(e.power(bigEndian: BN254Constants_order.bigEndianBytes).isOne)
        for _ in 0..<2 {
            let a = Self.randomScalar(&g), b = Self.randomScalar(&g)
            let lhs = BN254Pairing.pairing(p.multiplied(by: a), q.multiplied(by: b))
            let ab = UInt512.product(a, b).remainder(dividingBy: BN254Constants_order)
            #expect(lhs == e.power(bigEndian: ab.bigEndianBytes))
            // e(aP, Q) · e(−aP, Q) = 1 and e(aP, bQ) = e(abP, Q).
            #expect(BN254Pairing.product([(p.multiplied(by: a), q), (p.multiplied(by: a).negated, q)]).isOne)
            #expect(BN254Pairing.product([(p.multiplied(by: a), q.multiplied(by: b)), (p.multiplied(by: ab).negated, q)]).isOne)
        }
        // Pairs with the point at infinity contribute 1.
        #expect(BN254Pairing.product([(.infinity, q), (p, .infinity)]).isOne)
    }
}

let BN254Constants_order = UInt256(limbs: (0x43E1_F593_F000_0001, 0x2833_E848_79B9_7091, 0xB850_45B6_8181_585D, 0x3064_4E72_E131_A029))
