import EthereumPrimitives

/// An element c0 + c1·w of F_p¹² = F_p⁶[w]/(w² − v), where pairing values live. As a vector over F_p²,
/// the coefficient of w^j (j = 0…5) is c0.c0, c1.c0, c0.c1, c1.c1, c0.c2, c1.c2.
package struct BN254Fp12: Sendable, Equatable {
    package var c0: BN254Fp6
    package var c1: BN254Fp6

    @inline(__always)
    package init(_ c0: BN254Fp6, _ c1: BN254Fp6) {
        self.c0 = c0
        self.c1 = c1
    }

    package static let one = BN254Fp12(.one, .zero)

    package var isOne: Bool { self == BN254Fp12.one }

    @inline(__always)
    package static func * (a: BN254Fp12, b: BN254Fp12) -> BN254Fp12 {
        let t0 = a.c0 * b.c0
        let t1 = a.c1 * b.c1
        return BN254Fp12(t0 + t1.timesV, (a.c0 + a.c1) * (b.c0 + b.c1) - t0 - t1)
    }

    /// Complex squaring: two F_p⁶ products.
    @inline(__always)
    package var squared: BN254Fp12 {
        let t = c0 * c1
        let c0New = (c0 + c1) * (c0 + c1.timesV) - t - t.timesV
        return BN254Fp12(c0New, t + t)
    }

    /// self · (a + b·w + c·v·w): multiplication by a line function's value, which has only these three
    /// F_p² coefficients.
    @inline(__always)
    func timesLine(_ a: BN254Fp2, _ b: BN254Fp2, _ c: BN254Fp2) -> BN254Fp12 {
        let t0 = c0 * a
        let t1 = c1.times(b, c)
        let s = (c0 + c1).times(a + b, c)
        return BN254Fp12(t0 + t1.timesV, s - t0 - t1)
    }

    /// c0 − c1·w: the p⁶-th power, which is the inverse in the cyclotomic subgroup.
    @inline(__always)
    package var conjugate: BN254Fp12 { BN254Fp12(c0, -c1) }

    package var inverse: BN254Fp12 {
        let t = (c0.squared - c1.squared.timesV).inverse
        return BN254Fp12(c0 * t, -(c1 * t))
    }

    /// The Frobenius map x ↦ x^p: conjugate each F_p² coefficient of w^j and multiply by ξ^(j(p−1)/6).
    package var frobenius: BN254Fp12 {
        let g = BN254Constants.frobenius1
        return BN254Fp12(
            BN254Fp6(c0.c0.conjugate, c0.c1.conjugate * g[2], c0.c2.conjugate * g[4]),
            BN254Fp6(c1.c0.conjugate * g[1], c1.c1.conjugate * g[3], c1.c2.conjugate * g[5]))
    }

    /// x ↦ x^(p²): multiply the coefficient of w^j by ξ^(j(p²−1)/6), which lies in F_p.
    package var frobenius2: BN254Fp12 {
        let g = BN254Constants.frobenius2
        return BN254Fp12(
            BN254Fp6(c0.c0, c0.c1 * g[2], c0.c2 * g[4]),
            BN254Fp6(c1.c0 * g[1], c1.c1 * g[3], c1.c2 * g[5]))
    }

    /// self^e for a non-negative exponent given as big-endian bytes.
    package func power(bigEndian exponent: [UInt8]) -> BN254Fp12 {
        var result = BN254Fp12.one
        for byte in exponent {
            for bit in stride(from: 7, through: 0, by: -1) {
                result = result.squared
                if (byte >> UInt8(bit)) & 1 == 1 { result = result * self }
            }
        }
        return result
    }

    /// The square of an element of the cyclotomic subgroup (norm 1 over F_p⁶ and F_p²), by Granger and
    /// Scott, "Faster squaring in the cyclotomic subgroup of sixth degree extensions" (2010): with s = w³
    /// (s² = ξ), the element is A + B·w + C·w² over F_p²[s], and its square is
    /// (3A² − 2Ā) + (3s·C² + 2B̄)·w + (3B² − 2C̄)·w², where ¯ conjugates s. Only valid in that subgroup.
    package var cyclotomicSquared: BN254Fp12 {
        @inline(__always)
        func square4(_ x0: BN254Fp2, _ x1: BN254Fp2) -> (BN254Fp2, BN254Fp2) {
            let t0 = x0.squared
            let t1 = x1.squared
            return (t0 + t1.timesXi, (x0 + x1).squared - t0 - t1)
        }
        let (a0, a1) = (c0.c0, c1.c1)
        let (b0, b1) = (c1.c0, c0.c2)
        let (d0, d1) = (c0.c1, c1.c2)
        let (aa0, aa1) = square4(a0, a1)
        let (bb0, bb1) = square4(b0, b1)
        let (dd0, dd1) = square4(d0, d1)
        // A' = 3A² − 2Ā
        let na0 = (aa0 - a0).doubled + aa0
        let na1 = (aa1 + a1).doubled + aa1
        // B' = 3s·C² + 2B̄, with s·(x0 + x1·s) = ξ·x1 + x0·s
        let sc0 = dd1.timesXi
        let nb0 = (sc0 + b0).doubled + sc0
        let nb1 = (dd0 - b1).doubled + dd0
        // C' = 3B² − 2C̄
        let nd0 = (bb0 - d0).doubled + bb0
        let nd1 = (bb1 + d1).doubled + bb1
        return BN254Fp12(BN254Fp6(na0, nd0, nb1), BN254Fp6(nb0, na1, nd1))
    }

    /// self^u for the curve parameter u, for self in the cyclotomic subgroup: cyclotomic squarings and
    /// the non-adjacent form of u (a −1 digit multiplies by the conjugate, which is the inverse there).
    func cyclotomicPowerU() -> BN254Fp12 {
        let digits = BN254Constants.uDigits
        let inverse = conjugate
        var result = self
        for i in stride(from: digits.count - 2, through: 0, by: -1) {
            result = result.cyclotomicSquared
            switch digits[i] {
            case 1: result = result * self
            case -1: result = result * inverse
            default: break
            }
        }
        return result
    }
}
