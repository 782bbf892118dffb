/// Fp2 = Fp[u]/(u² + 1) for BLS12-381: c0 + c1·u.
package struct BLSFp2: Sendable, Equatable {
    package var c0: BLSFp
    package var c1: BLSFp

    package init(_ c0: BLSFp, _ c1: BLSFp) {
        self.c0 = c0
        self.c1 = c1
    }

    package static let zero = BLSFp2(.zero, .zero)
    package static let one = BLSFp2(.one, .zero)

    package var isZero: Bool { c0.isZero && c1.isZero }

    package static func + (a: BLSFp2, b: BLSFp2) -> BLSFp2 { BLSFp2(a.c0 + b.c0, a.c1 + b.c1) }
    package static func - (a: BLSFp2, b: BLSFp2) -> BLSFp2 { BLSFp2(a.c0 - b.c0, a.c1 - b.c1) }
    package static prefix func - (a: BLSFp2) -> BLSFp2 { BLSFp2(-a.c0, -a.c1) }

    /// Karatsuba: three base-field products.
    package static func * (a: BLSFp2, b: BLSFp2) -> BLSFp2 {
        let v0 = a.c0 * b.c0
        let v1 = a.c1 * b.c1
        return BLSFp2(v0 - v1, (a.c0 + a.c1) * (b.c0 + b.c1) - v0 - v1)
    }

    package static func * (a: BLSFp2, b: BLSFp) -> BLSFp2 { BLSFp2(a.c0 * b, a.c1 * b) }

    package var squared: BLSFp2 {
        // (c0 + c1)(c0 − c1) + 2·c0·c1·u
        let product = c0 * c1
        return BLSFp2((c0 + c1) * (c0 - c1), product + product)
    }

    /// Times ξ = 1 + u, the non-residue that builds Fp6 (v³ = ξ) and the twist (b' = 4ξ).
    package var timesXi: BLSFp2 { BLSFp2(c0 - c1, c0 + c1) }

    /// (c0 − c1·u)/(c0² + c1²); zero for zero.
    package var inverse: BLSFp2 {
        let norm = (c0.squared + c1.squared).inverse
        return BLSFp2(c0 * norm, -(c1 * norm))
    }
}
