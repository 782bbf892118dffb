import BigInt
import EVM
import EthereumPrimitives
import TestSupport
import Testing

/// The BLS12-381 field tower, curve arithmetic, pairing, endomorphisms and maps (`Precompiles/BLS12381`)
/// against independent truth: BigInt for the base field, the definitions (x^p, [r]P = O, [h_eff]P, plain
/// powers) for every fast formula, and a plain affine Miller loop for the optimized one.
@Suite struct BLS12381AlgebraTests {
    typealias G1 = BLSJacobian<BLSFp>
    typealias G2 = BLSJacobian<BLSFp2>

    static let p = BigUInt(
        "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab", radix: 16)!
    static let absX: UInt64 = 0xD201_0000_0001_0000

    static func big(_ a: BLSFp) -> BigUInt { BigUInt(words: a.canonicalLimbs.map { UInt($0) }) }

    static func fp(_ value: BigUInt) -> BLSFp {
        var limbs = (value % p).words.map { UInt64($0) }
        while limbs.count < 6 { limbs.append(0) }
        return BLSFp(canonicalLimbs: limbs)!
    }

    static func randomFp(_ g: inout SplitMix64) -> BLSFp { fp(BigUInt(words: (0..<7).map { _ in UInt(g.next()) })) }
    static func randomFp2(_ g: inout SplitMix64) -> BLSFp2 { BLSFp2(randomFp(&g), randomFp(&g)) }
    static func randomFp6(_ g: inout SplitMix64) -> BLSFp6 { BLSFp6(randomFp2(&g), randomFp2(&g), randomFp2(&g)) }
    static func randomFp12(_ g: inout SplitMix64) -> BLSFp12 { BLSFp12(randomFp6(&g), randomFp6(&g)) }
    static func randomScalar(_ g: inout SplitMix64) -> UInt256 {
        UInt256(limbs: (g.next(), g.next(), g.next(), g.next()))
    }

    /// A point on E (G1's curve) from random x, usually outside G1.
    static func randomPointOnE(_ g: inout SplitMix64) -> BLSAffine<BLSFp> {
        while true {
            let x = randomFp(&g)
            if let y = (x.squared * x + BLSFp.curveB).squareRoot { return BLSAffine(x: x, y: y) }
        }
    }

    /// A point on E' (G2's curve) from random x, usually outside G2.
    static func randomPointOnTwist(_ g: inout SplitMix64) -> BLSAffine<BLSFp2> {
        while true {
            let x = randomFp2(&g)
            if let y = (x.squared * x + BLSFp2.curveB).squareRoot { return BLSAffine(x: x, y: y) }
        }
    }

    /// [k]P for a multi-limb k by plain double-and-add (the reference for cofactor clearing).
    static func multiply<F>(_ p: BLSJacobian<F>, limbs: [UInt64]) -> BLSJacobian<F> {
        var result = BLSJacobian<F>.infinity
        for limb in limbs.reversed() {
            for bit in stride(from: 63, through: 0, by: -1) {
                result = result.doubled
                if (limb >> UInt64(bit)) & 1 == 1 { result = result + p }
            }
        }
        return result
    }

    static func pLimbs() -> [UInt64] { BLSFp.modulusLimbs }

    @Test func baseFieldAgreesWithBigInt() {
        var g = SplitMix64(seed: 0x381)
        for _ in 0..<300 {
            let a = Self.randomFp(&g), b = Self.randomFp(&g)
            let (x, y) = (Self.big(a), Self.big(b))
            #expect(Self.big(a * b) == (x * y) % Self.p)
            #expect(Self.big(a + b) == (x + y) % Self.p)
            #expect(Self.big(a - b) == (x + Self.p - y) % Self.p)
            #expect(Self.big(-a) == (Self.p - x) % Self.p)
            #expect(Self.big(a.inverse) == x.power(Self.p - 2, modulus: Self.p))
            #expect(a.inverse == a.fermatInverse)
            #expect(a.squared.squareRoot.map { $0 == a || $0 == -a } == true)
            #expect(a.isSquare == (x.power((Self.p - 1) / 2, modulus: Self.p) <= 1))
            #expect(a.isSquare == a.isSquareByEuler)
            if !a.isSquare { #expect(a.squareRoot == nil && (-a).squareRoot != nil) }
        }
        // Extremes: p − 1 squared is 1, and bytes ≥ p are refused.
        let pMinus1 = Self.fp(Self.p - 1)
        #expect(pMinus1 * pMinus1 == .one)
        #expect(pMinus1 + .one == .zero)
        #expect(BLSFp(bigEndian: BLSFp.one.bigEndianBytes) == .one)
        var pBytes = [UInt8](Self.p.serialize())
        #expect(BLSFp(bigEndian: pBytes) == nil)
        pBytes[47] -= 1
        #expect(BLSFp(bigEndian: pBytes) == pMinus1)
        #expect(BLSFp.zero.inverse == .zero)
    }

    @Test func quadraticExtension() {
        var g = SplitMix64(seed: 2)
        for _ in 0..<50 {
            let a = Self.randomFp2(&g), b = Self.randomFp2(&g)
            #expect(a * a.inverse == .one)
            #expect(a.squared == a * a)
            #expect(a.timesXi == a * BLSFp2(.one, .one))
            #expect(a.conjugate == a.power(Self.pLimbs()))
            #expect(a.squared.squareRoot.map { $0 == a || $0 == -a } == true)
            #expect(a.squared.isSquare)
            if let root = b.squareRoot { #expect(root.squared == b) } else { #expect(!b.norm.isSquareByEuler) }
        }
        // Elements of Fp: roots in Fp or in Fp·u.
        let minusFour = -BLSFp2(BLSFp(small: 4), .zero)
        #expect(minusFour.squareRoot?.squared == minusFour)
        // sgn0 (RFC 9380): c0's parity, or c1's when c0 = 0.
        #expect(BLSFp2(BLSFp(small: 1), BLSFp(small: 2)).sgn0)
        #expect(!BLSFp2(BLSFp(small: 2), BLSFp(small: 1)).sgn0)
        #expect(BLSFp2(.zero, BLSFp(small: 3)).sgn0)
        #expect(!BLSFp2(.zero, BLSFp(small: 4)).sgn0)
    }

    @Test func towerAndFrobenius() {
        var g = SplitMix64(seed: 3)
        for _ in 0..<10 {
            let x = Self.randomFp6(&g), y = Self.randomFp6(&g)
            #expect(x * x.inverse == .one)
            #expect(x.squared == x * x)
            #expect(x.timesV == x * BLSFp6(.zero, .one, .zero))
            #expect(x * (x + y) == x.squared + x * y)
            let f = Self.randomFp12(&g), h = Self.randomFp12(&g)
            #expect(f * f.inverse == .one)
            #expect(f.squared == f * f)
            #expect((f * h).frobenius(1) == f.frobenius(1) * h.frobenius(1))
            #expect(f.frobenius(1).frobenius(1) == f.frobenius(2))
            #expect(f.frobenius(2).frobenius(1) == f.frobenius(3))
            // A line a + b·w³ + c·w⁵ as a full element.
            let (a, b, c) = (Self.randomFp2(&g), Self.randomFp2(&g), Self.randomFp2(&g))
            let line = BLSFp12(BLSFp6(a, .zero, .zero), BLSFp6(.zero, b, c))
            #expect(f.timesLine(a, b, c) == f * line)
        }
        // The Frobenius is x ↦ x^p, and w⁶ = ξ.
        var g2 = SplitMix64(seed: 4)
        let f = Self.randomFp12(&g2)
        #expect(f.frobenius(1) == f.power(Self.pLimbs()))
        let w2 = BLSFp12.w.squared
        #expect(w2 * w2 * w2 == BLSFp12(BLSFp2(.one, .one)))
    }

    @Test func cyclotomicSubgroupAndFinalExponentiation() {
        var g = SplitMix64(seed: 5)
        for _ in 0..<3 {
            let f = Self.randomFp12(&g)
            var t = f.conjugate * f.inverse
            t = t.frobenius(2) * t
            #expect(t.cyclotomicSquared == t.squared)
            #expect(t.cyclotomicPowerByX == t.power([Self.absX]))
            // The x-chain gives the cube of the plain exponentiation f^((p⁶ − 1)·(p⁶ + 1)/r).
            let plain = (f.conjugate * f.inverse).power(BLSPairing.hardExponent)
            #expect(BLSPairing.finalExponentiation(f) == plain * plain * plain)
        }
    }

    /// The slow, obviously right Miller loop: T affine on the twist, each line a full Fp12 element through
    /// the untwisting map ψ(x', y') = (x'·w⁻², y'·w⁻³).
    static func referenceMillerLoop(_ p: BLSAffine<BLSFp>, _ q: BLSAffine<BLSFp2>) -> BLSFp12 {
        let wInverse = BLSFp12.w.inverse
        let wInverse2 = wInverse * wInverse
        let wInverse3 = wInverse2 * wInverse
        let xP = BLSFp12(BLSFp2(p.x, .zero))
        let yP = BLSFp12(BLSFp2(p.y, .zero))
        func line(_ slope: BLSFp2, _ tx: BLSFp2, _ ty: BLSFp2) -> BLSFp12 {
            yP - BLSFp12(ty) * wInverse3 - BLSFp12(slope) * wInverse * (xP - BLSFp12(tx) * wInverse2)
        }
        var (tx, ty) = (q.x, q.y)
        var f = BLSFp12.one
        for i in stride(from: 62, through: 0, by: -1) {
            let slope = (tx.squared.doubled + tx.squared) * ty.doubled.inverse
            f = f.squared * line(slope, tx, ty)
            let x3 = slope.squared - tx.doubled
            (tx, ty) = (x3, slope * (tx - x3) - ty)
            if (Self.absX >> UInt64(i)) & 1 == 1 {
                let slope = (q.y - ty) * (q.x - tx).inverse
                f = f * line(slope, tx, ty)
                let x3 = slope.squared - tx - q.x
                (tx, ty) = (x3, slope * (tx - x3) - ty)
            }
        }
        return f.conjugate
    }

    @Test func pairingAgainstReferenceAndBilinearity() {
        var g = SplitMix64(seed: 6)
        let p = G1(BLSConstants.g1).multiplied(by: Self.randomScalar(&g)).affine
        let q = G2(BLSConstants.g2).multiplied(by: Self.randomScalar(&g)).affine
        let e = BLSPairing.finalExponentiation(BLSPairing.millerLoop(p, q))
        let reference = (Self.referenceMillerLoop(p, q).conjugate * Self.referenceMillerLoop(p, q).inverse)
            .power(BLSPairing.hardExponent)
        #expect(e == reference * reference * reference)
        #expect(e != .one)
        #expect(e.power(BLSConstants.groupOrder.limbArray) == .one)
        let a = UInt256(0x1234_5678_9ABC_DEF0), b = UInt256(0xFEDC_BA98_7654)
        func pairing(_ p: BLSAffine<BLSFp>, _ q: BLSAffine<BLSFp2>) -> BLSFp12 {
            BLSPairing.finalExponentiation(BLSPairing.millerLoop(p, q))
        }
        let lhs = pairing(G1(p).multiplied(by: a).affine, G2(q).multiplied(by: b).affine)
        #expect(lhs == pairing(G1(p).multiplied(by: a &* b).affine, q))
        #expect(lhs == pairing(p, G2(q).multiplied(by: a &* b).affine))
        #expect(pairing(p, q.negated) == pairing(p.negated, q))
        #expect(pairing(p, .infinity) == .one && pairing(.infinity, q) == .one)
        // Multi-pairing shares one final exponentiation: e(aP, Q)·e(−P, aQ) = 1, and not for a + 1.
        let aP = G1(p).multiplied(by: a).affine
        #expect(BLSPairing.productIsOne([(aP, q), (p.negated, G2(q).multiplied(by: a).affine)]))
        #expect(!BLSPairing.productIsOne([(aP, q), (p.negated, G2(q).multiplied(by: a &+ 1).affine)]))
        #expect(BLSPairing.productIsOne([(.infinity, q), (p, .infinity)]))
    }
}

extension UInt256 {
    /// The four little-endian limbs as an array (for the power functions).
    var limbArray: [UInt64] { [limbs.0, limbs.1, limbs.2, limbs.3] }
}
