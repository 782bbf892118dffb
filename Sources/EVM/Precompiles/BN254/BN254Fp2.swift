import EthereumPrimitives

/// An element c0 + c1·u of F_p² = F_p[u]/(u² + 1), the field of the G2 twist's coordinates.
package struct BN254Fp2: Sendable, Equatable {
    package var c0: BN254Fp
    package var c1: BN254Fp

    @inline(__always)
    package init(_ c0: BN254Fp, _ c1: BN254Fp) {
        self.c0 = c0
        self.c1 = c1
    }

    package static let zero = BN254Fp2(.zero, .zero)
    package static let one = BN254Fp2(.one, .zero)
    /// ξ = 9 + u, the non-residue that defines F_p⁶ (v³ = ξ) and the twist.
    package static let xi = BN254Fp2(BN254Fp(small: 9), .one)

    package var isZero: Bool { c0.isZero && c1.isZero }

    @inline(__always)
    package static func + (a: BN254Fp2, b: BN254Fp2) -> BN254Fp2 { BN254Fp2(a.c0 + b.c0, a.c1 + b.c1) }

    @inline(__always)
    package static func - (a: BN254Fp2, b: BN254Fp2) -> BN254Fp2 { BN254Fp2(a.c0 - b.c0, a.c1 - b.c1) }

    @inline(__always)
    package static prefix func - (a: BN254Fp2) -> BN254Fp2 { BN254Fp2(-a.c0, -a.c1) }

    /// Karatsuba: three base-field products.
    @inline(__always)
    package static func * (a: BN254Fp2, b: BN254Fp2) -> BN254Fp2 {
        let v0 = a.c0 * b.c0
        let v1 = a.c1 * b.c1
        return BN254Fp2(v0 - v1, (a.c0 + a.c1) * (b.c0 + b.c1) - v0 - v1)
    }

    @inline(__always)
    package static func * (a: BN254Fp2, s: BN254Fp) -> BN254Fp2 { BN254Fp2(a.c0 * s, a.c1 * s) }

    /// (c0 + c1)(c0 − c1) + 2·c0·c1·u.
    @inline(__always)
    package var squared: BN254Fp2 {
        let t = c0 * c1
        return BN254Fp2((c0 + c1) * (c0 - c1), t + t)
    }

    @inline(__always)
    package var doubled: BN254Fp2 { BN254Fp2(c0.doubled, c1.doubled) }

    /// The Frobenius map x ↦ x^p, which is conjugation c0 − c1·u.
    @inline(__always)
    package var conjugate: BN254Fp2 { BN254Fp2(c0, -c1) }

    /// self · ξ = (9·c0 − c1) + (c0 + 9·c1)·u.
    @inline(__always)
    package var timesXi: BN254Fp2 {
        let a8 = c0.doubled.doubled.doubled
        let b8 = c1.doubled.doubled.doubled
        return BN254Fp2(a8 + c0 - c1, c0 + b8 + c1)
    }

    /// The inverse (c0 − c1·u)/(c0² + c1²); zero for zero.
    package var inverse: BN254Fp2 {
        let t = (c0.squared + c1.squared).inverse
        return BN254Fp2(c0 * t, -(c1 * t))
    }

    /// self^exponent for an exponent given as big-endian bits of a `UInt256`.
    package func power(_ exponent: UInt256) -> BN254Fp2 {
        var result = BN254Fp2.one
        for i in stride(from: 255, through: 0, by: -1) {
            result = result.squared
            if exponent.bit(i) { result = result * self }
        }
        return result
    }
}
