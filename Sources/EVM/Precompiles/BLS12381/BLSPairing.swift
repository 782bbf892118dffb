import EthereumPrimitives

/// The BLS12-381 optimal ate pairing e: G1 × G2 → Fp12 (loop parameter |x| = 0xd201000000010000, x < 0)
/// and the product-equals-one check the KZG verifier and the EIP-2537 pairing precompile need.
///
/// Miller loop: T runs on the twist E'(Fp2): y² = x³ + 4ξ in homogeneous projective coordinates, so a
/// step costs no inversion. The line through ψ(T) (ψ(x, y) = (x·w⁻², y·w⁻³) maps E' into E(Fp12)),
/// evaluated at P and scaled by elements of Fp2 (which the final exponentiation sends to one), is
/// a + b·w³ + c·w⁵ with a, b, c ∈ Fp2: the tangent at T = (X : Y : Z) gives
/// (−2YZ·ξ·yP, 3b'Z² − Y², 3X²·xP) and the chord through T and Q = (x₂, y₂) gives
/// (λ·ξ·yP, θ·x₂ − λ·y₂, −θ·xP) with θ = Y − y₂Z, λ = X − x₂Z. Only yP and xP come from P, so the lines
/// are computed from Q alone first (``G2Prepared``); at P those sparse factors multiply f in 14 Fp2
/// products (``BLSFp12/timesLine(_:_:_:)``), and all pairs of a product share f's squarings.
///
/// Final exponentiation: the easy part f^((p⁶ − 1)(p² + 1)) by a conjugate, one inversion and a
/// Frobenius; the hard part by the x-chain 3·(p⁴ − p² + 1)/r = (x − 1)²·(x + p)·(x² + p² − 1) + 3 (five
/// powers by |x| with cyclotomic squarings, three Frobenius maps). That exponent is three times the
/// usual one, so the result is e(P, Q)³: still bilinear and non-degenerate, and since 3 ∤ r a product
/// is one exactly when its cube is.
package enum BLSPairing {
    package static let loopParameter: UInt64 = 0xD201_0000_0001_0000

    /// (p⁶ + 1)/r, the hard part of the final exponent (p¹² − 1)/r = (p⁶ − 1)·(p⁶ + 1)/r; little-endian
    /// limbs. Only the plain, slow final exponentiation the tests compare with uses it.
    package static let hardExponent: [UInt64] = BLSConstants.limbs(
        hex: "28b3148775037b6f235c55ca7566dbf85ae664cf5bb36579aea83c48c1dae0ec9031179bdeccad7375a3763bdf7ccf56"
            + "fb1573beaa8c548ce0809bc5f61afb46e197bd2fa4899f0c50126c802eec85a2e707f08418554744497f8b2f29229678"
            + "78febcb95d1f1304275ef499dffb12d6a874d21b73da2b822f514a9c4f6fee6a95db11e63f565e886c94c4f82384c3b5"
            + "e2f557c0b15f27d7bd90935021c3f007c01e7ebe3afc816101ddd076117d1d615d49e2764d7bc3b5ef4b188a20b038ee"
            + "1cd4778e0de7338259c22a12bd40224741b36fec77602d7271563890f1333a09c4497903f76e9cf0f70a61c791e209a5"
            + "256de0381a168739e1cdc0705d6a")

    /// 3b' = 12ξ of the twist.
    static let threeBTwist = BLSFp2.curveB.doubled + BLSFp2.curveB

    /// A line's coefficients before P is known: it is (A·yP) + B·w³ + (C·xP)·w⁵ at P = (xP, yP).
    package struct Line: Sendable {
        let a: BLSFp2
        let b: BLSFp2
        let c: BLSFp2
    }

    /// The lines of Q's Miller loop in the order the loop uses them (63 tangents and 5 chords): they
    /// depend on Q alone, so a fixed G2 point (KZG's [τ]₂ and −G2) is prepared once, and a pairing
    /// with many P's against one Q walks T once.
    package struct G2Prepared: Sendable {
        let lines: [Line]

        package init(_ q: BLSAffine<BLSFp2>) {
            guard !q.isInfinity else {
                lines = []
                return
            }
            var lines: [Line] = []
            lines.reserveCapacity(68)
            var t = TwistPoint(x: q.x, y: q.y, z: .one)
            for i in stride(from: 62, through: 0, by: -1) {
                lines.append(BLSPairing.doublingStep(&t))
                if (BLSPairing.loopParameter >> UInt64(i)) & 1 == 1 { lines.append(BLSPairing.additionStep(&t, q)) }
            }
            self.lines = lines
        }

        /// True for the point at infinity (its pairing with anything is one).
        var isInfinity: Bool { lines.isEmpty }
    }

    /// The point T of the Miller loop on the twist, in homogeneous projective coordinates (x = X/Z).
    struct TwistPoint {
        var x: BLSFp2
        var y: BLSFp2
        var z: BLSFp2
    }

    /// 2T, returning the tangent line: (−2YZ·ξ, 3b'Z² − Y², 3X²).
    @inline(__always)
    static func doublingStep(_ t: inout TwistPoint) -> Line {
        let xx = t.x.squared
        let yy = t.y.squared
        let zz = t.z.squared
        let yz = t.y * t.z
        let bzz = threeBTwist * zz  // 3b'Z²
        let line = Line(a: -(yz.doubled.timesXi), b: bzz - yy, c: xx.doubled + xx)
        // Doubling with everything scaled by 4: X3 = 2XY(Y² − 9b'Z²), Y3 = (Y² + 9b'Z²)² − 108b'²Z⁴,
        // Z3 = 8Y³Z.
        let nine = bzz.doubled + bzz  // 9b'Z²
        let x3 = (t.x * t.y).doubled * (yy - nine)
        let sum = yy + nine
        let bzzSquared = bzz.squared  // 9b'²Z⁴
        let twelve = bzzSquared.doubled.doubled
        let y3 = sum.squared - (twelve.doubled + twelve)  // 108b'²Z⁴ = 12·9b'²Z⁴
        let z3 = (yy * yz).doubled.doubled.doubled
        t = TwistPoint(x: x3, y: y3, z: z3)
        return line
    }

    /// T + Q for an affine Q, returning the chord: (λ·ξ, θ·x₂ − λ·y₂, −θ).
    @inline(__always)
    static func additionStep(_ t: inout TwistPoint, _ q: BLSAffine<BLSFp2>) -> Line {
        let theta = t.y - q.y * t.z
        let lambda = t.x - q.x * t.z
        let line = Line(a: lambda.timesXi, b: theta * q.x - lambda * q.y, c: -theta)
        let cc = theta.squared
        let dd = lambda.squared
        let ee = lambda * dd
        let ff = t.z * cc
        let gg = t.x * dd
        let hh = ee + ff - gg.doubled
        t = TwistPoint(x: lambda * hh, y: theta * (gg - hh) - t.y * ee, z: t.z * ee)
        return line
    }

    /// ∏ f_{x,Qᵢ}(Pᵢ) over the pairs, sharing f's squarings; pairs with a point at infinity contribute one.
    package static func multiMillerLoop(_ pairs: [(BLSAffine<BLSFp>, G2Prepared)]) -> BLSFp12 {
        let active = pairs.filter { !$0.0.isInfinity && !$0.1.isInfinity }
        if active.isEmpty { return .one }
        var f = BLSFp12.one
        var index = 0
        for i in stride(from: 62, through: 0, by: -1) {
            if i != 62 { f = f.squared }
            for (p, q) in active {
                let line = q.lines[index]
                f = f.timesLine(line.a * p.y, line.b, line.c * p.x)
            }
            index += 1
            if (loopParameter >> UInt64(i)) & 1 == 1 {
                for (p, q) in active {
                    let line = q.lines[index]
                    f = f.timesLine(line.a * p.y, line.b, line.c * p.x)
                }
                index += 1
            }
        }
        // x < 0: f_{x,Q} = 1/f_{|x|,Q} up to factors the final exponentiation removes.
        return f.conjugate
    }

    /// The Miller loop of one pair.
    package static func millerLoop(_ p: BLSAffine<BLSFp>, _ q: BLSAffine<BLSFp2>) -> BLSFp12 {
        multiMillerLoop([(p, G2Prepared(q))])
    }

    /// f^(3·(p¹² − 1)/r) (see the type's comment for why the cube).
    package static func finalExponentiation(_ f: BLSFp12) -> BLSFp12 {
        // Easy part: f^(p⁶ − 1), then ^(p² + 1). The result lies in the cyclotomic subgroup.
        var t = f.conjugate * f.inverse
        t = t.frobenius(2) * t
        // Hard part. On the cyclotomic subgroup the inverse is the conjugate, and a^x = conj(a^|x|).
        @inline(__always) func powerX(_ a: BLSFp12) -> BLSFp12 { a.cyclotomicPowerByX.conjugate }
        var a = powerX(t) * t.conjugate  // t^(x − 1)
        a = powerX(a) * a.conjugate  // t^((x − 1)²)
        let b = powerX(a) * a.frobenius(1)  // ·(x + p)
        let c = powerX(powerX(b)) * b.frobenius(2) * b.conjugate  // ·(x² + p² − 1)
        return c * t.cyclotomicSquared * t  // + 3
    }

    /// True when ∏ e(Pᵢ, Qᵢ) = 1.
    package static func productIsOne(_ pairs: [(BLSAffine<BLSFp>, BLSAffine<BLSFp2>)]) -> Bool {
        productIsOne(prepared: pairs.map { ($0.0, G2Prepared($0.1)) })
    }

    /// True when ∏ e(Pᵢ, Qᵢ) = 1, with the Qᵢ prepared.
    package static func productIsOne(prepared pairs: [(BLSAffine<BLSFp>, G2Prepared)]) -> Bool {
        finalExponentiation(multiMillerLoop(pairs)) == .one
    }
}
