/// An element c0 + c1·v + c2·v² of F_p⁶ = F_p²[v]/(v³ − ξ).
package struct BN254Fp6: Sendable, Equatable {
    package var c0: BN254Fp2
    package var c1: BN254Fp2
    package var c2: BN254Fp2

    @inline(__always)
    package init(_ c0: BN254Fp2, _ c1: BN254Fp2, _ c2: BN254Fp2) {
        self.c0 = c0
        self.c1 = c1
        self.c2 = c2
    }

    package static let zero = BN254Fp6(.zero, .zero, .zero)
    package static let one = BN254Fp6(.one, .zero, .zero)

    package var isZero: Bool { c0.isZero && c1.isZero && c2.isZero }

    @inline(__always)
    package static func + (a: BN254Fp6, b: BN254Fp6) -> BN254Fp6 { BN254Fp6(a.c0 + b.c0, a.c1 + b.c1, a.c2 + b.c2) }

    @inline(__always)
    package static func - (a: BN254Fp6, b: BN254Fp6) -> BN254Fp6 { BN254Fp6(a.c0 - b.c0, a.c1 - b.c1, a.c2 - b.c2) }

    @inline(__always)
    package static prefix func - (a: BN254Fp6) -> BN254Fp6 { BN254Fp6(-a.c0, -a.c1, -a.c2) }

    /// Karatsuba-style: six F_p² products.
    @inline(__always)
    package static func * (a: BN254Fp6, b: BN254Fp6) -> BN254Fp6 {
        let t0 = a.c0 * b.c0
        let t1 = a.c1 * b.c1
        let t2 = a.c2 * b.c2
        let c0 = ((a.c1 + a.c2) * (b.c1 + b.c2) - t1 - t2).timesXi + t0
        let c1 = (a.c0 + a.c1) * (b.c0 + b.c1) - t0 - t1 + t2.timesXi
        let c2 = (a.c0 + a.c2) * (b.c0 + b.c2) - t0 - t2 + t1
        return BN254Fp6(c0, c1, c2)
    }

    /// self · s for s in F_p².
    @inline(__always)
    package static func * (a: BN254Fp6, s: BN254Fp2) -> BN254Fp6 { BN254Fp6(a.c0 * s, a.c1 * s, a.c2 * s) }

    /// self · (b0 + b1·v), the shape of a line function's coefficients.
    @inline(__always)
    func times(_ b0: BN254Fp2, _ b1: BN254Fp2) -> BN254Fp6 {
        let t0 = c0 * b0
        let t1 = c1 * b1
        let r0 = (c2 * b1).timesXi + t0
        let r1 = (c0 + c1) * (b0 + b1) - t0 - t1
        let r2 = c2 * b0 + t1
        return BN254Fp6(r0, r1, r2)
    }

    @inline(__always)
    package var squared: BN254Fp6 { self * self }

    /// self · v = ξ·c2 + c0·v + c1·v².
    @inline(__always)
    package var timesV: BN254Fp6 { BN254Fp6(c2.timesXi, c0, c1) }

    /// The inverse, by the norm to F_p²; zero for zero.
    package var inverse: BN254Fp6 {
        let t0 = c0.squared - (c1 * c2).timesXi
        let t1 = c2.squared.timesXi - c0 * c1
        let t2 = c1.squared - c0 * c2
        let norm = c0 * t0 + (c2 * t1).timesXi + (c1 * t2).timesXi
        let n = norm.inverse
        return BN254Fp6(t0 * n, t1 * n, t2 * n)
    }
}
