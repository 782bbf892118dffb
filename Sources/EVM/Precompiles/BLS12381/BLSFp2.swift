/// Fp2 = Fp[u]/(u² + 1) for BLS12-381: c0 + c1·u. The field of G2's coordinates (the twist E'), and the
/// coefficient field of the Fp6/Fp12 tower.
package struct BLSFp2: Sendable, Equatable {
    package var c0: BLSFp
    package var c1: BLSFp

    @inline(__always)
    package init(_ c0: BLSFp, _ c1: BLSFp) {
        self.c0 = c0
        self.c1 = c1
    }

    package static let zero = BLSFp2(.zero, .zero)
    package static let one = BLSFp2(.one, .zero)

    package var isZero: Bool { c0.isZero && c1.isZero }

    @inline(__always)
    package static func + (a: BLSFp2, b: BLSFp2) -> BLSFp2 { BLSFp2(a.c0 + b.c0, a.c1 + b.c1) }
    @inline(__always)
    package static func - (a: BLSFp2, b: BLSFp2) -> BLSFp2 { BLSFp2(a.c0 - b.c0, a.c1 - b.c1) }
    @inline(__always)
    package static prefix func - (a: BLSFp2) -> BLSFp2 { BLSFp2(-a.c0, -a.c1) }

    package static func += (a: inout BLSFp2, b: BLSFp2) { a = a + b }
    package static func -= (a: inout BLSFp2, b: BLSFp2) { a = a - b }
    package static func *= (a: inout BLSFp2, b: BLSFp2) { a = a * b }

    /// Karatsuba: three base-field products.
    package static func * (a: BLSFp2, b: BLSFp2) -> BLSFp2 {
        let v0 = a.c0 * b.c0
        let v1 = a.c1 * b.c1
        return BLSFp2(v0 - v1, (a.c0 + a.c1) * (b.c0 + b.c1) - v0 - v1)
    }

    /// Times a base-field element: two products.
    @inline(__always)
    package static func * (a: BLSFp2, b: BLSFp) -> BLSFp2 { BLSFp2(a.c0 * b, a.c1 * b) }

    /// (c0 + c1)(c0 − c1) + 2·c0·c1·u: two base-field products.
    package var squared: BLSFp2 {
        let product = c0 * c1
        return BLSFp2((c0 + c1) * (c0 - c1), product + product)
    }

    @inline(__always)
    package var doubled: BLSFp2 { BLSFp2(c0.doubled, c1.doubled) }

    /// Times ξ = 1 + u, the non-residue that builds Fp6 (v³ = ξ) and the twist (b' = 4ξ).
    @inline(__always)
    package var timesXi: BLSFp2 { BLSFp2(c0 - c1, c0 + c1) }

    /// c0 − c1·u: the Frobenius map x ↦ x^p on Fp2.
    @inline(__always)
    package var conjugate: BLSFp2 { BLSFp2(c0, -c1) }

    /// c0² + c1², the norm to Fp.
    package var norm: BLSFp { c0.squared + c1.squared }

    /// (c0 − c1·u)/(c0² + c1²); zero for zero.
    package var inverse: BLSFp2 {
        let n = norm.inverse
        return BLSFp2(c0 * n, -(c1 * n))
    }

    /// A square is exactly an element whose norm is a square in Fp.
    package var isSquare: Bool { norm.isSquare }

    /// A square root, or nil when there is none. With n = √(c0² + c1²) in Fp, a root is
    /// x0 + x1·u with x0² = (c0 ± n)/2 (whichever is a square) and x1 = c1/(2·x0); an element of Fp
    /// alone (c1 = 0) has its root in Fp or in Fp·u.
    package var squareRoot: BLSFp2? {
        if c1.isZero {
            if let r = c0.squareRoot { return BLSFp2(r, .zero) }
            if let r = (-c0).squareRoot { return BLSFp2(.zero, r) }
            return nil
        }
        guard let n = norm.squareRoot else { return nil }
        let half = BLSFp2.inverseOfTwo
        let plus = (c0 + n) * half
        // Exactly one of (c0 ± n)/2 is a square here (their product −c1²/4 is not, as −1 is not).
        guard let x0 = plus.isSquare ? plus.squareRoot : ((c0 - n) * half).squareRoot else { return nil }
        let x1 = c1 * (x0.doubled).inverse
        let root = BLSFp2(x0, x1)
        return root.squared == self ? root : nil
    }

    /// sgn0 of RFC 9380 for m = 2: the parity of c0, or of c1 when c0 is zero.
    package var sgn0: Bool {
        let sign0 = c0.sgn0
        return sign0 || (c0.isZero && c1.sgn0)
    }

    /// 1/2 in Fp.
    static let inverseOfTwo = BLSFp(small: 2).inverse

    /// self^e, e given as little-endian limbs.
    package func power(_ e: [UInt64]) -> BLSFp2 {
        var result = BLSFp2.one
        for limb in e.reversed() {
            for bit in stride(from: 63, through: 0, by: -1) {
                result = result.squared
                if (limb >> UInt64(bit)) & 1 == 1 { result = result * self }
            }
        }
        return result
    }
}
