/// Fp12 = Fp6[w]/(w² − v): c0 + c1·w, where the pairing takes its values. Also w⁶ = ξ.
package struct BLSFp12: Sendable, Equatable {
    package var c0: BLSFp6
    package var c1: BLSFp6

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

    package var squared: BLSFp12 { self * self }

    /// c0 − c1·w: the p⁶-th power (Frobenius), and the inverse on the cyclotomic subgroup.
    package var conjugate: BLSFp12 { BLSFp12(c0, -c1) }

    /// (c0 − c1·w)/(c0² − v·c1²); zero for zero.
    package var inverse: BLSFp12 {
        let norm = (c0 * c0 - (c1 * c1).timesV).inverse
        return BLSFp12(c0 * norm, -(c1 * norm))
    }

    /// self^e, e given as little-endian limbs.
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
