import EthereumPrimitives

/// The endomorphisms of BLS12-381's curves and what they buy: the fast subgroup checks of EIP-2537's
/// "fast_subgroup_checks" note (Scott, ePrint 2021/1130 §4) and the fast cofactor clearing of G2
/// (Budroni–Pintore, RFC 9380 §8.8.2). Every fast test has a slow counterpart ([r]P = O, [h_eff]P) that
/// the tests compare it with.
package enum BLSEndomorphism {
    /// |x|, the BLS parameter's magnitude (x = −|x|).
    static let absX: UInt64 = BLSPairing.loopParameter

    /// φ(x, y) = (β·x, y) on E (β a cube root of unity).
    package static func phi(_ p: BLSJacobian<BLSFp>) -> BLSJacobian<BLSFp> {
        BLSJacobian(x: p.x * BLSFrobenius.beta, y: p.y, z: p.z)
    }

    /// ψ on E' (untwist–Frobenius–twist). Jacobian coordinates: conjugating Z too keeps the map exact,
    /// since (X̄·c)/(Z̄²) = conj(X/Z²)·c.
    package static func psi(_ p: BLSJacobian<BLSFp2>) -> BLSJacobian<BLSFp2> {
        BLSJacobian(
            x: p.x.conjugate * BLSFrobenius.psiX, y: p.y.conjugate * BLSFrobenius.psiY, z: p.z.conjugate)
    }

    /// ψ² on E'.
    package static func psi2(_ p: BLSJacobian<BLSFp2>) -> BLSJacobian<BLSFp2> {
        BLSJacobian(x: p.x * BLSFrobenius.psi2X, y: p.y * BLSFrobenius.psi2Y, z: p.z)
    }

    /// [x]P for the signed parameter x = −|x|.
    static func timesX<F>(_ p: BLSJacobian<F>) -> BLSJacobian<F> { p.multiplied(bySmall: absX).negated }

    /// Whether the candidate cube root β makes φ act on G1 as [−x²] (checked on the generator).
    static func actsAsMinusXSquared(_ beta: BLSFp) -> Bool {
        let g = BLSJacobian(BLSConstants.g1)
        let phiG = BLSJacobian(x: g.x * beta, y: g.y, z: g.z)
        let x2G = g.multiplied(bySmall: absX).multiplied(bySmall: absX)
        return (phiG + x2G).isInfinity
    }

    /// P ∈ G1 for a point P on E: φ(P) = −[x²]P.
    package static func isInG1(_ p: BLSAffine<BLSFp>) -> Bool {
        if p.isInfinity { return true }
        let point = BLSJacobian(p)
        let x2P = point.multiplied(bySmall: absX).multiplied(bySmall: absX)
        return (phi(point) + x2P).isInfinity
    }

    /// Q ∈ G2 for a point Q on E': ψ(Q) = [x]Q.
    package static func isInG2(_ q: BLSAffine<BLSFp2>) -> Bool {
        if q.isInfinity { return true }
        let point = BLSJacobian(q)
        return psi(point).isEqual(to: timesX(point))
    }

    /// The definition, [r]P = O: slow, for tests.
    package static func isInSubgroupByOrder<F>(_ p: BLSAffine<F>) -> Bool {
        BLSJacobian(p).multiplied(by: BLSConstants.groupOrder).isInfinity
    }

    /// h_eff for G1 (RFC 9380 §8.8.1): 1 − x = |x| + 1.
    package static func clearCofactorG1(_ p: BLSJacobian<BLSFp>) -> BLSJacobian<BLSFp> {
        p.multiplied(bySmall: absX) + p
    }

    /// [h_eff]P for G2 (RFC 9380 §8.8.2) computed as [x² − x − 1]P + [x − 1]ψ(P) + ψ²(2P).
    package static func clearCofactorG2(_ p: BLSJacobian<BLSFp2>) -> BLSJacobian<BLSFp2> {
        let t1 = timesX(p)  // [x]P
        let t2 = psi(p)  // ψ(P)
        let t3 = psi2(p.doubled)  // ψ²(2P)
        let xMinus1Psi = timesX(t2) + t2.negated  // [x − 1]ψ(P)
        let x2 = timesX(t1)  // [x²]P
        let x2MinusXMinus1 = x2 + t1.negated + p.negated  // [x² − x − 1]P
        return x2MinusXMinus1 + xMinus1Psi + t3
    }

    /// h_eff of G2 from RFC 9380 §8.8.2, for the slow check of ``clearCofactorG2(_:)`` in tests.
    package static let hEffG2: [UInt64] = BLSConstants.limbs(
        hex: "bc69f08f2ee75b3584c6a0ea91b352888e2a8e9145ad7689986ff031508ffe1329c2f178731db956d82bf015d1212b02ec"
            + "0ec69d7477c1ae954cbc06689f6a359894c0adebbf6b4e8020005aaa95551")
}

/// Scalar multiplication in G1 and G2 split by the endomorphisms (GLV for φ, GLS for ψ): on the groups
/// φ acts as [−x²] and ψ as [x], so a scalar reduced mod r splits into halves (G1) or quarters (G2) whose
/// multiplications share one run of doublings. Only valid for points in G1 / G2 (the MSM precompiles
/// check membership first); a test compares with the plain multiplication.
package enum BLSGroupMultiplication {
    static let xSquared = UInt256(BLSEndomorphism.absX) * UInt256(BLSEndomorphism.absX)

    /// [k]P for P ∈ G1: k mod r = k0 + k1·x² gives [k]P = [k0]P − [k1]φ(P), k0, k1 < 2^128.
    package static func g1(_ p: BLSJacobian<BLSFp>, _ k: UInt256) -> BLSJacobian<BLSFp> {
        let (k1, k0) = (k % BLSConstants.groupOrder).quotientAndRemainder(dividingBy: xSquared)
        let table = oddMultiples(p, count: 8)
        let phiTable = table.map { BLSEndomorphism.phi($0).negated }
        return interleaved([table, phiTable], [k0, k1], width: 5)
    }

    /// [k]Q for Q ∈ G2: k mod r = Σ dᵢ·|x|^i (four 64-bit digits), and [|x|]Q = −ψ(Q), so
    /// [k]Q = [d0]Q − [d1]ψ(Q) + [d2]ψ²(Q) − [d3]ψ³(Q).
    package static func g2(_ q: BLSJacobian<BLSFp2>, _ k: UInt256) -> BLSJacobian<BLSFp2> {
        var rest = k % BLSConstants.groupOrder
        var digits: [UInt256] = []
        let base = UInt256(BLSEndomorphism.absX)
        for _ in 0..<4 {
            let (quotient, remainder) = rest.quotientAndRemainder(dividingBy: base)
            digits.append(remainder)
            rest = quotient
        }
        var tables = [oddMultiples(q, count: 4)]
        for i in 1..<4 { tables.append(tables[i - 1].map { BLSEndomorphism.psi($0).negated }) }
        return interleaved(tables, digits, width: 4)
    }

    /// P, 3P, 5P, … (count of them).
    static func oddMultiples<F>(_ p: BLSJacobian<F>, count: Int) -> [BLSJacobian<F>] {
        var table = [p]
        let twice = p.doubled
        for _ in 1..<count { table.append(table[table.count - 1] + twice) }
        return table
    }

    /// Σ [kᵢ]Pᵢ with each kᵢ in width-w NAF against its table of odd multiples (2^(w−2) entries),
    /// one shared doubling per digit position (Straus).
    static func interleaved<F>(_ tables: [[BLSJacobian<F>]], _ scalars: [UInt256], width: Int) -> BLSJacobian<F> {
        let nafs = scalars.map { BLSScalar.nonAdjacentForm($0, width: width) }
        let length = nafs.map(\.count).max() ?? 0
        var result = BLSJacobian<F>.infinity
        for position in stride(from: length - 1, through: 0, by: -1) {
            result = result.doubled
            for (naf, table) in zip(nafs, tables) where position < naf.count {
                let digit = naf[position]
                if digit > 0 {
                    result = result + table[Int(digit) >> 1]
                } else if digit < 0 {
                    result = result + table[Int(-digit) >> 1].negated
                }
            }
        }
        return result
    }
}
