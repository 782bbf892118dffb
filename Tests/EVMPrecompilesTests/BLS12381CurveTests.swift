import EVM
import EthereumPrimitives
import TestSupport
import Testing

/// Point arithmetic, the fast subgroup checks and cofactor clearing, the maps to the curves and MSM,
/// each against its slow definition.
@Suite struct BLS12381CurveTests {
    typealias G1 = BLSJacobian<BLSFp>
    typealias G2 = BLSJacobian<BLSFp2>
    typealias T = BLS12381AlgebraTests

    static let r = BLSConstants.groupOrder

    /// [k]P by plain double-and-add over all 256 bits.
    static func naiveMultiply<F>(_ p: BLSJacobian<F>, _ k: UInt256) -> BLSJacobian<F> {
        T.multiply(p, limbs: k.limbArray)
    }

    @Test func scalarMultiplication() {
        var g = SplitMix64(seed: 10)
        let g1 = G1(BLSConstants.g1)
        let g2 = G2(BLSConstants.g2)
        var scalars = [UInt256.max, UInt256(1), UInt256(2), Self.r, Self.r - UInt256(1), Self.r + UInt256(1)]
        for _ in 0..<8 { scalars.append(T.randomScalar(&g)) }
        for k in scalars {
            #expect(g1.multiplied(by: k).isEqual(to: Self.naiveMultiply(g1, k)))
            #expect(g2.multiplied(by: k).isEqual(to: Self.naiveMultiply(g2, k)))
        }
        // Points outside the subgroup multiply the same way (the NAF does not assume the order).
        let off = G1(T.randomPointOnE(&g))
        let k = T.randomScalar(&g)
        #expect(off.multiplied(by: k).isEqual(to: Self.naiveMultiply(off, k)))
        #expect(g1.multiplied(by: .zero).isInfinity)
        #expect(g1.multiplied(by: Self.r).isInfinity && g2.multiplied(by: Self.r).isInfinity)
        #expect(g1.multiplied(bySmall: 5).isEqual(to: g1.multiplied(by: UInt256(5))))
        // Mixed addition agrees with full addition, including doubling and P + (−P).
        let a = g1.multiplied(by: UInt256(7))
        let b = g1.multiplied(by: UInt256(9)).affine
        #expect((a + b).isEqual(to: a + G1(b)))
        #expect((a + a.affine).isEqual(to: a.doubled))
        #expect((a + a.affine.negated).isInfinity)
        let points = (1...5).map { g1.multiplied(by: UInt256(UInt64($0))) } + [.infinity]
        #expect(G1.batchAffine(points) == points.map(\.affine))
    }

    @Test func endomorphismConstants() {
        let beta = BLSFrobenius.beta
        #expect(beta != .one && beta * beta * beta == .one)
        // ψ acts on G2 as [x] and φ on G1 as [−x²]; ψ² is ψ twice.
        let q = G2(BLSConstants.g2).multiplied(by: UInt256(12345))
        let x = BLSPairing.loopParameter
        #expect(BLSEndomorphism.psi(q).isEqual(to: q.multiplied(bySmall: x).negated))
        #expect(BLSEndomorphism.psi2(q).isEqual(to: BLSEndomorphism.psi(BLSEndomorphism.psi(q))))
        let p = G1(BLSConstants.g1).multiplied(by: UInt256(6789))
        #expect((BLSEndomorphism.phi(p) + p.multiplied(bySmall: x).multiplied(bySmall: x)).isInfinity)
    }

    /// The endomorphism tests agree with [r]P = O on points in the groups, on random points of the
    /// curves (almost never in the groups), and on group points plus a small-order component.
    @Test func fastSubgroupChecksAgreeWithTheOrder() {
        var g = SplitMix64(seed: 11)
        var inG1 = 0, outG1 = 0, inG2 = 0, outG2 = 0
        for i in 0..<12 {
            let k = T.randomScalar(&g)
            let member = G1(BLSConstants.g1).multiplied(by: k).affine
            let random = T.randomPointOnE(&g)
            // [r]R lies in the cofactor part (order dividing h); adding it moves a member out of G1.
            let torsion = G1(random).multiplied(by: Self.r)
            let mixed = (G1(member) + torsion).affine
            for point in [member, random, mixed] {
                let slow = BLSEndomorphism.isInSubgroupByOrder(point)
                #expect(BLSEndomorphism.isInG1(point) == slow, "G1 case \(i)")
                if slow { inG1 += 1 } else { outG1 += 1 }
            }
            let member2 = G2(BLSConstants.g2).multiplied(by: k).affine
            let random2 = T.randomPointOnTwist(&g)
            let torsion2 = G2(random2).multiplied(by: Self.r)
            let mixed2 = (G2(member2) + torsion2).affine
            for point in [member2, random2, mixed2] {
                let slow = BLSEndomorphism.isInSubgroupByOrder(point)
                #expect(BLSEndomorphism.isInG2(point) == slow, "G2 case \(i)")
                if slow { inG2 += 1 } else { outG2 += 1 }
            }
        }
        #expect(inG1 >= 12 && outG1 >= 20 && inG2 >= 12 && outG2 >= 20)
        #expect(BLSEndomorphism.isInG1(.infinity) && BLSEndomorphism.isInG2(.infinity))
    }

    @Test func cofactorClearing() {
        var g = SplitMix64(seed: 12)
        for _ in 0..<3 {
            let p = G2(T.randomPointOnTwist(&g))
            let fast = BLSEndomorphism.clearCofactorG2(p)
            #expect(fast.isEqual(to: T.multiply(p, limbs: BLSEndomorphism.hEffG2)))
            #expect(BLSEndomorphism.isInSubgroupByOrder(fast.affine))
            let q = G1(T.randomPointOnE(&g))
            let cleared = BLSEndomorphism.clearCofactorG1(q)
            #expect(cleared.isEqual(to: q.multiplied(by: UInt256(0xD201_0000_0001_0001))))
            #expect(BLSEndomorphism.isInSubgroupByOrder(cleared.affine))
        }
    }

    /// Simplified SWU lands on E'₁ / E'₂ (so the isogeny constants are right if the images lie on E /
    /// E'), and the whole map lands in G1 / G2.
    @Test func mapsToTheCurves() {
        var g = SplitMix64(seed: 13)
        var inputs1: [BLSFp] = [.zero, .one, -.one]
        var inputs2: [BLSFp2] = [.zero, .one, BLSFp2(.zero, .one)]
        for _ in 0..<6 {
            inputs1.append(T.randomFp(&g))
            inputs2.append(T.randomFp2(&g))
        }
        for u in inputs1 {
            let (x, y) = BLSMapToCurve.simplifiedSWU(u, a: BLSIsogenyG1.a, b: BLSIsogenyG1.b, z: BLSIsogenyG1.z)
            #expect(y.squared == (x.squared + BLSIsogenyG1.a) * x + BLSIsogenyG1.b)
            #expect(y.sgn0 == u.sgn0)
            let image = BLSMapToCurve.isogeny(
                x, y, xNumerator: BLSIsogenyG1.xNumerator, xDenominator: BLSIsogenyG1.xDenominator,
                yNumerator: BLSIsogenyG1.yNumerator, yDenominator: BLSIsogenyG1.yDenominator
            ).affine
            #expect(image.isOnCurve)
            let mapped = BLSMapToCurve.mapToG1(u).affine
            #expect(mapped.isOnCurve && BLSEndomorphism.isInSubgroupByOrder(mapped))
        }
        for u in inputs2 {
            let (x, y) = BLSMapToCurve.simplifiedSWU(u, a: BLSIsogenyG2.a, b: BLSIsogenyG2.b, z: BLSIsogenyG2.z)
            #expect(y.squared == (x.squared + BLSIsogenyG2.a) * x + BLSIsogenyG2.b)
            #expect(y.sgn0 == u.sgn0)
            let image = BLSMapToCurve.isogeny(
                x, y, xNumerator: BLSIsogenyG2.xNumerator, xDenominator: BLSIsogenyG2.xDenominator,
                yNumerator: BLSIsogenyG2.yNumerator, yDenominator: BLSIsogenyG2.yDenominator
            ).affine
            #expect(image.isOnCurve)
            let mapped = BLSMapToCurve.mapToG2(u).affine
            #expect(mapped.isOnCurve && BLSEndomorphism.isInSubgroupByOrder(mapped))
        }
    }

    @Test func multiScalarMultiplication() {
        var g = SplitMix64(seed: 14)
        for count in [1, 2, 7, 8, 20, 70] {
            var points: [BLSAffine<BLSFp>] = []
            var scalars: [UInt256] = []
            var expected = G1.infinity
            for i in 0..<count {
                let p = i == 3 ? .infinity : G1(BLSConstants.g1).multiplied(by: T.randomScalar(&g)).affine
                let k = i == 5 ? UInt256.zero : i == 6 ? UInt256.max : T.randomScalar(&g)
                points.append(p)
                scalars.append(k)
                expected = expected + Self.naiveMultiply(G1(p), k)
            }
            #expect(BLSMSM.multiply(points, scalars).isEqual(to: expected), "G1 MSM of \(count)")
        }
        for count in [1, 9, 33] {
            var points: [BLSAffine<BLSFp2>] = []
            var scalars: [UInt256] = []
            var expected = G2.infinity
            for _ in 0..<count {
                let q = G2(BLSConstants.g2).multiplied(by: T.randomScalar(&g)).affine
                let k = T.randomScalar(&g)
                points.append(q)
                scalars.append(k)
                expected = expected + Self.naiveMultiply(G2(q), k)
            }
            #expect(BLSMSM.multiply(points, scalars).isEqual(to: expected), "G2 MSM of \(count)")
        }
        // k = 1 is the scalar multiplication.
        let k = T.randomScalar(&g)
        #expect(BLSMSM.multiply([BLSConstants.g1], [k]).isEqual(to: G1(BLSConstants.g1).multiplied(by: k)))
    }
}
