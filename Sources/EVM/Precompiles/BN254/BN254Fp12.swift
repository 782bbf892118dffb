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

    /// self^u for the curve parameter u (positive, 63 bits).
    func powerU() -> BN254Fp12 {
        var result = self
        let u = BN254Constants.u
        let top = 63 - u.leadingZeroBitCount
        for i in stride(from: top - 1, through: 0, by: -1) {
            result = result.squared
            if (u >> UInt64(i)) & 1 == 1 { result = result * self }
        }
        return result
    }
}
