import EthereumPrimitives

/// The BLS12-381 pairing e: G1 × G2 → Fp12 (optimal ate, loop parameter |x| = 0xd201000000010000) and
/// the product-equals-one check the KZG verifier needs.
///
/// Written for clarity over speed: the Miller loop keeps T on the twist E'(Fp2): y² = x³ + 4ξ in
/// affine coordinates and evaluates each line at P as a full Fp12 element through the untwisting map
/// ψ(x', y') = (x'·w⁻², y'·w⁻³), and the final exponentiation is f^(p⁶−1) followed by a plain power
/// by (p⁶+1)/r. Vertical lines and constant factors lie in proper subfields and vanish in the final
/// exponentiation; so does the conjugation for the negative x, which the "== 1" check does not need.
package enum BLSPairing {
    static let loopParameter: UInt64 = 0xD201_0000_0001_0000
    static let wInverse = BLSFp12.w.inverse
    static let wInverse2 = wInverse * wInverse
    static let wInverse3 = wInverse2 * wInverse

    /// (p⁶ + 1)/r, the hard part of the final exponent (p¹² − 1)/r = (p⁶ − 1)·(p⁶ + 1)/r; little-endian
    /// limbs. Computed from p and r (both in BLSConstants); a test checks e·r = p⁶ + 1.
    package static let hardExponent: [UInt64] = BLSConstants.limbs(
        hex: "28b3148775037b6f235c55ca7566dbf85ae664cf5bb36579aea83c48c1dae0ec9031179bdeccad7375a3763bdf7ccf56"
            + "fb1573beaa8c548ce0809bc5f61afb46e197bd2fa4899f0c50126c802eec85a2e707f08418554744497f8b2f29229678"
            + "78febcb95d1f1304275ef499dffb12d6a874d21b73da2b822f514a9c4f6fee6a95db11e63f565e886c94c4f82384c3b5"
            + "e2f557c0b15f27d7bd90935021c3f007c01e7ebe3afc816101ddd076117d1d615d49e2764d7bc3b5ef4b188a20b038ee"
            + "1cd4778e0de7338259c22a12bd40224741b36fec77602d7271563890f1333a09c4497903f76e9cf0f70a61c791e209a5"
            + "256de0381a168739e1cdc0705d6a")

    /// The Miller loop f_{|x|,Q}(P); one when either point is infinity.
    package static func millerLoop(_ p: BLSAffine<BLSFp>, _ q: BLSAffine<BLSFp2>) -> BLSFp12 {
        if p.isInfinity || q.isInfinity { return .one }
        let xP = BLSFp12(BLSFp2(p.x, .zero))
        let yP = BLSFp12(BLSFp2(p.y, .zero))
        // The line through ψ(T) with slope λ = λ'·w⁻¹, at P: yP − yT·w⁻³ − λ'·w⁻¹·(xP − xT·w⁻²).
        func line(_ slope: BLSFp2, _ tx: BLSFp2, _ ty: BLSFp2) -> BLSFp12 {
            yP - BLSFp12(ty) * wInverse3 - BLSFp12(slope) * wInverse * (xP - BLSFp12(tx) * wInverse2)
        }
        var tx = q.x
        var ty = q.y
        var f = BLSFp12.one
        for i in stride(from: 62, through: 0, by: -1) {
            let tx2 = tx.squared
            let slope = (tx2 + tx2 + tx2) * (ty + ty).inverse
            f = f.squared * line(slope, tx, ty)
            let x3 = slope.squared - tx - tx
            ty = slope * (tx - x3) - ty
            tx = x3
            if (loopParameter >> UInt64(i)) & 1 == 1 {
                let slope = (q.y - ty) * (q.x - tx).inverse
                f = f * line(slope, tx, ty)
                let x3 = slope.squared - tx - q.x
                ty = slope * (tx - x3) - ty
                tx = x3
            }
        }
        return f
    }

    /// f^((p¹² − 1)/r).
    package static func finalExponentiation(_ f: BLSFp12) -> BLSFp12 {
        let easy = f.conjugate * f.inverse  // f^(p⁶ − 1)
        return easy.power(hardExponent)
    }

    /// True when ∏ e(Pᵢ, Qᵢ) = 1.
    package static func productIsOne(_ pairs: [(BLSAffine<BLSFp>, BLSAffine<BLSFp2>)]) -> Bool {
        var f = BLSFp12.one
        for (p, q) in pairs { f = f * millerLoop(p, q) }
        return finalExponentiation(f) == .one
    }
}
