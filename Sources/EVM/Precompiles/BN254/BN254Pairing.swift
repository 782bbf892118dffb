/// The optimal ate pairing on BN254 (EIP-197's e: G1 × G2 → G_T).
///
/// Q on the twist maps to the curve over F_p¹² by ψ(x, y) = (x·w², y·w³). A line through twist points
/// with slope λ, evaluated at P = (x_P, y_P), is y_P − λ·x_P·w + (λ·x_T − y_T)·v·w; the code scales
/// it by an F_p² factor to stay in Jacobian coordinates, which the final exponentiation removes, as it
/// removes the vertical lines that are left out.
package enum BN254Pairing {
    /// The product of e(P_i, Q_i) over the pairs; pairs with a point at infinity contribute 1.
    package static func product(_ pairs: [(BN254G1, BN254G2)]) -> BN254Fp12 {
        finalExponentiation(millerLoop(pairs))
    }

    /// e(P, Q).
    package static func pairing(_ p: BN254G1, _ q: BN254G2) -> BN254Fp12 {
        product([(p, q)])
    }

    /// One step of the loop for one pair: the running point T (Jacobian), the affine Q and P.
    private struct PairState {
        var t: BN254G2
        let qx: BN254Fp2, qy: BN254Fp2
        let px: BN254Fp, py: BN254Fp
    }

    /// The Miller loop f_{6u+2,Q}(P) · l_{T,π(Q)}(P) · l_{T+π(Q),−π²(Q)}(P), shared over all pairs (one
    /// squaring of f per step for all of them).
    static func millerLoop(_ pairs: [(BN254G1, BN254G2)]) -> BN254Fp12 {
        var states: [PairState] = []
        for (p, q) in pairs {
            guard let pa = p.affine, let qa = q.affine else { continue }
            states.append(PairState(t: BN254G2(affineX: qa.x, y: qa.y), qx: qa.x, qy: qa.y, px: pa.x, py: pa.y))
        }
        var f = BN254Fp12.one
        if states.isEmpty { return f }
        let digits = BN254Constants.loopDigits
        for i in stride(from: digits.count - 2, through: 0, by: -1) {
            f = f.squared
            for k in states.indices {
                f = doublingStep(&states[k], f)
                switch digits[i] {
                case 1: f = additionStep(&states[k], f, states[k].qx, states[k].qy)
                case -1: f = additionStep(&states[k], f, states[k].qx, -states[k].qy)
                default: break
                }
            }
        }
        let g1 = BN254Constants.frobenius1
        let g2 = BN254Constants.frobenius2
        for k in states.indices {
            // π(Q) = (conj(x)·ξ^((p−1)/3), conj(y)·ξ^((p−1)/2)); −π²(Q) = (x·ξ^((p²−1)/3), y).
            let q1x = states[k].qx.conjugate * g1[2]
            let q1y = states[k].qy.conjugate * g1[3]
            f = additionStep(&states[k], f, q1x, q1y)
            let q2x = states[k].qx * g2[2]
            f = additionStep(&states[k], f, q2x, states[k].qy)
        }
        return f
    }

    /// f · (tangent line at T)(P), and T ← 2T.
    @inline(__always)
    private static func doublingStep(_ s: inout PairState, _ f: BN254Fp12) -> BN254Fp12 {
        let (x, y, z) = (s.t.x, s.t.y, s.t.z)
        let xx = x.squared
        let yy = y.squared
        let zz = z.squared
        let xx3 = xx.doubled + xx
        s.t = s.t.doubled
        // Scaled by 2·Y·Z³: y_P·2YZ³, −3X²Z²·x_P, 3X³ − 2Y².
        let a = (s.t.z * zz) * s.py
        let b = -(xx3 * zz) * s.px
        let c = xx3 * x - yy.doubled
        return f.timesLine(a, b, c)
    }

    /// f · (line through T and the affine (qx, qy))(P), and T ← T + (qx, qy), by mixed addition
    /// (madd-2007-bl). The line's slope is r/(2·Z·H) in the formula's terms, so scaled by Z3 = 2·Z·H its
    /// coefficients are y_P·Z3, −r·x_P and r·x_Q − y_Q·Z3.
    @inline(__always)
    private static func additionStep(_ s: inout PairState, _ f: BN254Fp12, _ qx: BN254Fp2, _ qy: BN254Fp2) -> BN254Fp12 {
        let (x1, y1, z1) = (s.t.x, s.t.y, s.t.z)
        let z1z1 = z1.squared
        let u2 = qx * z1z1
        let s2 = qy * z1 * z1z1
        let h = u2 - x1
        let hh = h.squared
        let i = hh.doubled.doubled
        let j = h * i
        let r = (s2 - y1).doubled
        let v = x1 * i
        let x3 = r.squared - j - v.doubled
        let y3 = r * (v - x3) - (y1 * j).doubled
        let z3 = (z1 + h).squared - z1z1 - hh
        s.t = BN254G2(x: x3, y: y3, z: z3)
        let a = z3 * s.py
        let b = -(r * s.px)
        let c = r * qx - qy * z3
        return f.timesLine(a, b, c)
    }

    /// f^((p¹² − 1)/r): the easy part (p⁶ − 1)(p² + 1) by conjugation, inversion and Frobenius, then the
    /// hard part (p⁴ − p² + 1)/r by the addition chain of Scott, Benger, Charlemagne, Dominguez Perez and
    /// Kachisa, "On the final exponentiation for calculating pairings on ordinary elliptic curves" (2009),
    /// which needs three exponentiations by u.
    package static func finalExponentiation(_ f: BN254Fp12) -> BN254Fp12 {
        var t = f.conjugate * f.inverse
        t = t.frobenius2 * t
        return hardPart(t)
    }

    /// x^((p⁴ − p² + 1)/r) for x in the cyclotomic subgroup (where the inverse is the conjugate).
    package static func hardPart(_ x: BN254Fp12) -> BN254Fp12 {
        let fp = x.frobenius
        let fp2 = x.frobenius2
        let fp3 = fp2.frobenius
        let fu = x.cyclotomicPowerU()
        let fu2 = fu.cyclotomicPowerU()
        let fu3 = fu2.cyclotomicPowerU()
        let y0 = fp * fp2 * fp3
        let y1 = x.conjugate
        let y2 = fu2.frobenius2
        let y3 = fu.frobenius.conjugate
        let y4 = (fu * fu2.frobenius).conjugate
        let y5 = fu2.conjugate
        let y6 = (fu3 * fu3.frobenius).conjugate
        var t0 = y6.cyclotomicSquared * y4 * y5
        var t1 = y3 * y5 * t0
        t0 = t0 * y2
        t1 = (t1.cyclotomicSquared * t0).cyclotomicSquared
        t0 = t1 * y1
        t1 = t1 * y0
        return t0.cyclotomicSquared * t1
    }
}
