/// Fp12 = Fp6[w]/(w² − v): c0 + c1·w, where the pairing takes its values. Also w⁶ = ξ, so an element is
/// Σ aₖ·wᵏ (k = 0…5, aₖ ∈ Fp2) with c0 = (a0, a2, a4) and c1 = (a1, a3, a5).
package struct BLSFp12: Sendable, Equatable {
    package var c0: BLSFp6
    package var c1: BLSFp6

    @inline(__always)
    package init(_ c0: BLSFp6, _ c1: BLSFp6) {
        self.c0 = c0
        self.c1 = c1
    }

    /// The Fp2 element `a` as an element of Fp12.
    package init(_ a: BLSFp2) {
        self.init(BLSFp6(a, .zero, .zero), .zero)
    }

    package static let zero = BLSFp12(.zero, .zero)
    package static let one = BLSFp12(.one, .zero)
    /// w itself.
    package static let w = BLSFp12(.zero, .one)

    package static func + (a: BLSFp12, b: BLSFp12) -> BLSFp12 { BLSFp12(a.c0 + b.c0, a.c1 + b.c1) }
    package static func - (a: BLSFp12, b: BLSFp12) -> BLSFp12 { BLSFp12(a.c0 - b.c0, a.c1 - b.c1) }

    /// Karatsuba over Fp6: three Fp6 products.
    package static func * (a: BLSFp12, b: BLSFp12) -> BLSFp12 {
        let t0 = a.c0 * b.c0
        let t1 = a.c1 * b.c1
        return BLSFp12(t0 + t1.timesV, (a.c0 + a.c1) * (b.c0 + b.c1) - t0 - t1)
    }

    /// (c0 + c1·w)² = c0² + v·c1² + 2·c0·c1·w, from two Fp6 products.
    package var squared: BLSFp12 {
        let t = c0 * c1
        let sum = (c0 + c1) * (c0 + c1.timesV) - t - t.timesV
        return BLSFp12(sum, t + t)
    }

    /// Times the sparse element a + b·w³ + c·w⁵ (a Miller-loop line in this tower): 14 Fp2 products
    /// instead of 18.
    @inline(__always)
    package func timesLine(_ a: BLSFp2, _ b: BLSFp2, _ c: BLSFp2) -> BLSFp12 {
        let t0 = c0 * a
        let t1 = c1.timesSparse12(b, c)
        let cross = (c0 + c1) * BLSFp6(a, b, c) - t0 - t1
        return BLSFp12(t0 + t1.timesV, cross)
    }

    /// c0 − c1·w: the p⁶-th power (Frobenius), and the inverse on the cyclotomic subgroup.
    package var conjugate: BLSFp12 { BLSFp12(c0, -c1) }

    /// (c0 − c1·w)/(c0² − v·c1²); zero for zero.
    package var inverse: BLSFp12 {
        let norm = (c0.squared - c1.squared.timesV).inverse
        return BLSFp12(c0 * norm, -(c1 * norm))
    }

    /// self^(p^k) for k = 1, 2 or 3: aₖ·wᵏ ↦ aₖ^(p^k)·γ·wᵏ with γ = ξ^(k·(p^k − 1)/6) (constants in
    /// ``BLSFrobenius``); aₖ^(p^k) is the conjugate for odd k.
    package func frobenius(_ power: Int) -> BLSFp12 {
        let g = BLSFrobenius.coefficients(power)
        let odd = power % 2 == 1
        @inline(__always) func map(_ a: BLSFp2, _ k: Int) -> BLSFp2 { (odd ? a.conjugate : a) * g[k] }
        return BLSFp12(
            BLSFp6(map(c0.c0, 0), map(c0.c1, 2), map(c0.c2, 4)),
            BLSFp6(map(c1.c0, 1), map(c1.c1, 3), map(c1.c2, 5)))
    }

    /// The square of an element of the cyclotomic subgroup (x^(p⁶+1)... = 1), by Granger and Scott:
    /// with Fp4 = Fp2[s]/(s² − ξ), s = w³, the element is A0 + A1·w + A2·w² (Aᵢ ∈ Fp4) and its square
    /// is (3A0² − 2Ā0) + (3s·A2² + 2Ā1)·w + (3A1² − 2Ā2)·w², Ā the conjugate over Fp2: nine Fp2
    /// squarings instead of two Fp6 products. Only valid in that subgroup (after the easy part of the
    /// final exponentiation).
    package var cyclotomicSquared: BLSFp12 {
        // A0 = a0 + a3·s, A1 = a1 + a4·s, A2 = a2 + a5·s.
        let (a0, a1, a2) = (c0.c0, c1.c0, c0.c1)
        let (a3, a4, a5) = (c1.c1, c0.c2, c1.c2)
        @inline(__always) func fp4Square(_ x: BLSFp2, _ y: BLSFp2) -> (BLSFp2, BLSFp2) {
            let x2 = x.squared
            let y2 = y.squared
            return (x2 + y2.timesXi, (x + y).squared - x2 - y2)
        }
        let (s00, s01) = fp4Square(a0, a3)
        let (s10, s11) = fp4Square(a1, a4)
        let (s20, s21) = fp4Square(a2, a5)
        // 3z − 2a and 3z + 2a.
        @inline(__always) func minus(_ z: BLSFp2, _ a: BLSFp2) -> BLSFp2 { let d = z - a; return d + d + z }
        @inline(__always) func plus(_ z: BLSFp2, _ a: BLSFp2) -> BLSFp2 { let s = z + a; return s + s + z }
        let n0 = minus(s00, a0)
        let n3 = plus(s01, a3)
        let n1 = plus(s21.timesXi, a1)  // s·A2² = ξ·s21 + s20·s
        let n4 = minus(s20, a4)
        let n2 = minus(s10, a2)
        let n5 = plus(s11, a5)
        return BLSFp12(BLSFp6(n0, n2, n4), BLSFp6(n1, n3, n5))
    }

    /// self^|x| for the BLS parameter |x| = 0xd201000000010000, on the cyclotomic subgroup: 63
    /// cyclotomic squarings and 5 products.
    package var cyclotomicPowerByX: BLSFp12 {
        var result = self
        for i in stride(from: 62, through: 0, by: -1) {
            result = result.cyclotomicSquared
            if (BLSPairing.loopParameter >> UInt64(i)) & 1 == 1 { result = result * self }
        }
        return result
    }

    /// self^e, e given as little-endian limbs (any element; for tests and one-off constants).
    package func power(_ e: [UInt64]) -> BLSFp12 {
        var result = BLSFp12.one
        var started = false
        for limb in e.reversed() {
            for bit in stride(from: 63, through: 0, by: -1) {
                if started { result = result.squared }
                if (limb >> UInt64(bit)) & 1 == 1 {
                    result = started ? result * self : self
                    started = true
                }
            }
        }
        return result
    }
}
