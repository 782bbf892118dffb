/// Fp6 = Fp2[v]/(v³ − ξ), ξ = 1 + u: c0 + c1·v + c2·v².
package struct BLSFp6: Sendable, Equatable {
    package var c0: BLSFp2
    package var c1: BLSFp2
    package var c2: BLSFp2

    @inline(__always)
    package init(_ c0: BLSFp2, _ c1: BLSFp2, _ c2: BLSFp2) {
        self.c0 = c0
        self.c1 = c1
        self.c2 = c2
    }

    package static let zero = BLSFp6(.zero, .zero, .zero)
    package static let one = BLSFp6(.one, .zero, .zero)

    package var isZero: Bool { c0.isZero && c1.isZero && c2.isZero }

    @inline(__always)
    package static func + (a: BLSFp6, b: BLSFp6) -> BLSFp6 { BLSFp6(a.c0 + b.c0, a.c1 + b.c1, a.c2 + b.c2) }
    @inline(__always)
    package static func - (a: BLSFp6, b: BLSFp6) -> BLSFp6 { BLSFp6(a.c0 - b.c0, a.c1 - b.c1, a.c2 - b.c2) }
    @inline(__always)
    package static prefix func - (a: BLSFp6) -> BLSFp6 { BLSFp6(-a.c0, -a.c1, -a.c2) }

    /// Schoolbook product with v³ = ξ folded in; Karatsuba-style sums make it six Fp2 products.
    package static func * (a: BLSFp6, b: BLSFp6) -> BLSFp6 {
        let t0 = a.c0 * b.c0
        let t1 = a.c1 * b.c1
        let t2 = a.c2 * b.c2
        // a1b2 + a2b1, a0b1 + a1b0, a0b2 + a2b0 from one product each.
        let m12 = (a.c1 + a.c2) * (b.c1 + b.c2) - t1 - t2
        let m01 = (a.c0 + a.c1) * (b.c0 + b.c1) - t0 - t1
        let m02 = (a.c0 + a.c2) * (b.c0 + b.c2) - t0 - t2
        return BLSFp6(t0 + m12.timesXi, m01 + t2.timesXi, m02 + t1)
    }

    /// Times an Fp2 element: three Fp2 products.
    @inline(__always)
    package static func * (a: BLSFp6, b: BLSFp2) -> BLSFp6 { BLSFp6(a.c0 * b, a.c1 * b, a.c2 * b) }

    /// Times the sparse element b·v + c·v² (five Fp2 products): the shape one half of a Miller-loop
    /// line takes in this tower.
    @inline(__always)
    func timesSparse12(_ b: BLSFp2, _ c: BLSFp2) -> BLSFp6 {
        let b1 = c1 * b
        let c2c = c2 * c
        let cross = (c1 + c2) * (b + c) - b1 - c2c  // c1·c + c2·b
        return BLSFp6(cross.timesXi, c0 * b + c2c.timesXi, c0 * c + b1)
    }

    /// Times v: (c0, c1, c2)·v = (ξ·c2, c0, c1).
    @inline(__always)
    package var timesV: BLSFp6 { BLSFp6(c2.timesXi, c0, c1) }

    /// The square (CH-SQR2 of Chung–Hasan: two products and three squarings in Fp2).
    package var squared: BLSFp6 {
        let s0 = c0.squared
        let ab = c0 * c1
        let s1 = ab.doubled
        let s2 = (c0 - c1 + c2).squared
        let bc = c1 * c2
        let s3 = bc.doubled
        let s4 = c2.squared
        return BLSFp6(s0 + s3.timesXi, s1 + s4.timesXi, s1 + s2 + s3 - s0 - s4)
    }

    /// The inverse; zero for zero.
    package var inverse: BLSFp6 {
        let a = c0.squared - (c1 * c2).timesXi
        let b = c2.squared.timesXi - c0 * c1
        let c = c1.squared - c0 * c2
        let norm = (c0 * a + (c2 * b + c1 * c).timesXi).inverse
        return BLSFp6(a * norm, b * norm, c * norm)
    }
}
