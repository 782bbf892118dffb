/// The constants of the Frobenius maps on Fp12 and of the endomorphisms of G1 and G2, derived once
/// from p and ξ = 1 + u rather than written out, so they cannot carry a typo (tests check their
/// defining properties).
///
/// With w⁶ = ξ, (a·wᵏ)^(p^j) = a^(p^j)·ξ^(k·(p^j − 1)/6)·wᵏ, so the p^j-power map multiplies the k-th
/// coefficient by γⱼᵏ where γⱼ = ξ^((p^j − 1)/6): γ₁ by exponentiation, γ₂ = γ₁·γ̄₁ (as γ₁^(p²) = γ₁)
/// and γ₃ = γ₁·γ₂.
package enum BLSFrobenius {
    /// (p − 1)/6, little-endian limbs.
    static let pMinus1Over6: [UInt64] = BLSLimbs.divide(BLSLimbs.subtractOne(BLSFp.modulusLimbs), by: 6)

    static let gamma1: BLSFp2 = BLSFp2.one.timesXi.power(pMinus1Over6)
    static let gamma2: BLSFp2 = gamma1 * gamma1.conjugate
    static let gamma3: BLSFp2 = gamma1 * gamma2

    static let table1 = powers(gamma1)
    static let table2 = powers(gamma2)
    static let table3 = powers(gamma3)

    /// γ⁰ … γ⁵.
    static func powers(_ g: BLSFp2) -> [BLSFp2] {
        var out = [BLSFp2.one]
        for _ in 1..<6 { out.append(out[out.count - 1] * g) }
        return out
    }

    /// The coefficients of the p^power map (power 1, 2 or 3).
    static func coefficients(_ power: Int) -> [BLSFp2] {
        switch power {
        case 1: return table1
        case 2: return table2
        default: return table3
        }
    }

    /// ψ = untwist ∘ Frobenius ∘ twist on E'(Fp2) maps (x, y) to (x̄·psiX, ȳ·psiY): the twist's
    /// coordinates are x·w², y·w³ of E's, and w^(p−1) = γ₁, so the factors are γ₁⁻² and γ₁⁻³.
    package static let psiX: BLSFp2 = (gamma1 * gamma1).inverse
    package static let psiY: BLSFp2 = (gamma1 * gamma1 * gamma1).inverse
    /// ψ² maps (x, y) to (x·psi2X, y·psi2Y) (no conjugation: the p²-power fixes Fp2).
    package static let psi2X: BLSFp2 = psiX * psiX.conjugate
    package static let psi2Y: BLSFp2 = psiY * psiY.conjugate

    /// β, a primitive cube root of unity in Fp: φ(x, y) = (β·x, y) is an endomorphism of E. This is
    /// the root for which φ acts on G1 as multiplication by −x² (x the BLS parameter), as the fast
    /// subgroup check of EIP-2537 needs; a test checks that property and β³ = 1.
    package static let beta: BLSFp = {
        // The two primitive cube roots are ξ-independent: (−1 ± √−3)/2. Pick by the eigenvalue test.
        let minusThree = -BLSFp(small: 3)
        let root = minusThree.squareRoot ?? .zero
        let half = BLSFp2.inverseOfTwo
        let candidate = (root - .one) * half
        return BLSEndomorphism.actsAsMinusXSquared(candidate) ? candidate : (-root - .one) * half
    }()
}

/// Small multi-limb integer helpers for deriving exponents from p (little-endian 64-bit limbs).
enum BLSLimbs {
    static func subtractOne(_ a: [UInt64]) -> [UInt64] {
        var out = a
        for i in out.indices {
            let (d, borrow) = out[i].subtractingReportingOverflow(1)
            out[i] = d
            if !borrow { break }
        }
        return out
    }

    static func addOne(_ a: [UInt64]) -> [UInt64] {
        var out = a
        for i in out.indices {
            let (s, carry) = out[i].addingReportingOverflow(1)
            out[i] = s
            if !carry { return out }
        }
        return out + [1]
    }

    /// ⌊a / d⌋ for a small divisor.
    static func divide(_ a: [UInt64], by d: UInt64) -> [UInt64] {
        var out = a
        var remainder: UInt64 = 0
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            let (q, r) = d.dividingFullWidth((remainder, a[i]))
            out[i] = q
            remainder = r
        }
        return out
    }

    /// a·b for a multi-limb a and a one-limb b.
    static func multiply(_ a: [UInt64], by b: UInt64) -> [UInt64] {
        var out: [UInt64] = []
        var carry: UInt64 = 0
        for limb in a {
            let (high, low) = limb.multipliedFullWidth(by: b)
            let (sum, overflow) = low.addingReportingOverflow(carry)
            out.append(sum)
            carry = high &+ (overflow ? 1 : 0)
        }
        if carry != 0 { out.append(carry) }
        return out
    }
}
