/// A field whose elements the simplified SWU map can take: square roots and RFC 9380's sgn0.
package protocol BLSMapField: BLSCurveField {
    var squareRoot: Self? { get }
    var sgn0: Bool { get }
}

extension BLSFp: BLSMapField {}
extension BLSFp2: BLSMapField {}

/// map_to_curve of RFC 9380 for BLS12-381 as EIP-2537's MAP_FP_TO_G1 and MAP_FP2_TO_G2 use it (no
/// hashing, only the map): simplified SWU onto an isogenous curve E' with A'·B' ≠ 0 (§6.6.2), the
/// isogeny to E (§6.6.3, constants in ``BLSIsogenyG1`` and ``BLSIsogenyG2``), then cofactor clearing
/// (§7) into the r-order subgroup.
package enum BLSMapToCurve {
    /// MAP_FP_TO_G1's point for u.
    package static func mapToG1(_ u: BLSFp) -> BLSJacobian<BLSFp> {
        let (x, y) = simplifiedSWU(u, a: BLSIsogenyG1.a, b: BLSIsogenyG1.b, z: BLSIsogenyG1.z)
        let point = isogeny(
            x, y, xNumerator: BLSIsogenyG1.xNumerator, xDenominator: BLSIsogenyG1.xDenominator,
            yNumerator: BLSIsogenyG1.yNumerator, yDenominator: BLSIsogenyG1.yDenominator)
        return BLSEndomorphism.clearCofactorG1(point)
    }

    /// MAP_FP2_TO_G2's point for u.
    package static func mapToG2(_ u: BLSFp2) -> BLSJacobian<BLSFp2> {
        let (x, y) = simplifiedSWU(u, a: BLSIsogenyG2.a, b: BLSIsogenyG2.b, z: BLSIsogenyG2.z)
        let point = isogeny(
            x, y, xNumerator: BLSIsogenyG2.xNumerator, xDenominator: BLSIsogenyG2.xDenominator,
            yNumerator: BLSIsogenyG2.yNumerator, yDenominator: BLSIsogenyG2.yDenominator)
        return BLSEndomorphism.clearCofactorG2(point)
    }

    /// The simplified SWU map of RFC 9380 §6.6.2 onto y² = x³ + a·x + b, in its straightforward form:
    /// x1 = (−b/a)(1 + 1/(z²u⁴ + z·u²)) (b/(z·a) when that denominator is zero), x2 = z·u²·x1; the
    /// first of them whose g(x) is a square, and y's sign made that of u.
    package static func simplifiedSWU<F: BLSMapField>(_ u: F, a: F, b: F, z: F) -> (F, F) {
        let zu2 = z * u.squared
        let denominator = zu2.squared + zu2
        let x1: F
        if denominator.isZero {
            x1 = b * (z * a).inverse
        } else {
            x1 = (-b * a.inverse) * (F.one + denominator.inverse)
        }
        func g(_ x: F) -> F { (x.squared + a) * x + b }
        var x = x1
        var y: F
        if let root = g(x1).squareRoot {
            y = root
        } else {
            x = zu2 * x1
            // RFC 9380 guarantees g(x2) is a square when g(x1) is not.
            y = g(x).squareRoot ?? .zero
        }
        if u.sgn0 != y.sgn0 { y = -y }
        return (x, y)
    }

    /// The isogeny (x', y') ↦ (x_num/x_den, y'·y_num/y_den), in Jacobian coordinates to avoid
    /// inversions: Z = x_den·y_den, X = x_num·x_den·y_den², Y = y'·y_num·y_den²·x_den³. A zero
    /// denominator gives Z = 0, the point at infinity, as RFC 9380 requires.
    package static func isogeny<F: BLSCurveField>(
        _ x: F, _ y: F, xNumerator: [F], xDenominator: [F], yNumerator: [F], yDenominator: [F]
    ) -> BLSJacobian<F> {
        func evaluate(_ coefficients: [F], monic: Bool) -> F {
            var result: F = monic ? .one : .zero
            for c in coefficients.reversed() { result = result * x + c }
            return result
        }
        let xn = evaluate(xNumerator, monic: false)
        let xd = evaluate(xDenominator, monic: true)
        let yn = evaluate(yNumerator, monic: false)
        let yd = evaluate(yDenominator, monic: true)
        let yd2 = yd.squared
        let xd3 = xd.squared * xd
        return BLSJacobian(x: xn * xd * yd2, y: y * yn * yd2 * xd3, z: xd * yd)
    }
}
