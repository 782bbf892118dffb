import EthereumPrimitives

/// The field operations BLS12-381's point arithmetic needs (Fp for G1, Fp2 for G2).
package protocol BLSCurveField: Sendable, Equatable {
    static var zero: Self { get }
    static var one: Self { get }
    var isZero: Bool { get }
    var squared: Self { get }
    var inverse: Self { get }
    static func + (a: Self, b: Self) -> Self
    static func - (a: Self, b: Self) -> Self
    static func * (a: Self, b: Self) -> Self
    static prefix func - (a: Self) -> Self
}

extension BLSFp: BLSCurveField {}
extension BLSFp2: BLSCurveField {}

/// An affine point of y² = x³ + b; `nil` coordinates are the point at infinity.
package struct BLSAffine<F: BLSCurveField>: Sendable, Equatable {
    package var x: F
    package var y: F
    package var isInfinity: Bool

    package init(x: F, y: F) {
        self.x = x
        self.y = y
        self.isInfinity = false
    }

    package static var infinity: BLSAffine { BLSAffine(infinity: ()) }

    private init(infinity: Void) {
        self.x = .zero
        self.y = .zero
        self.isInfinity = true
    }

    package var negated: BLSAffine { isInfinity ? self : BLSAffine(x: x, y: -y) }

    /// Whether the point lies on y² = x³ + b.
    package func isOnCurve(b: F) -> Bool {
        isInfinity || y.squared == x.squared * x + b
    }
}

/// A point in Jacobian coordinates (X/Z², Y/Z³) on a curve y² = x³ + b (a = 0); Z = 0 is infinity.
package struct BLSJacobian<F: BLSCurveField>: Sendable {
    package var x: F
    package var y: F
    package var z: F

    package init(_ p: BLSAffine<F>) {
        if p.isInfinity {
            (x, y, z) = (.one, .one, .zero)
        } else {
            (x, y, z) = (p.x, p.y, .one)
        }
    }

    init(x: F, y: F, z: F) {
        (self.x, self.y, self.z) = (x, y, z)
    }

    package static var infinity: BLSJacobian { BLSJacobian(x: .one, y: .one, z: .zero) }

    package var isInfinity: Bool { z.isZero }

    /// 2P (dbl-2009-l, a = 0).
    package var doubled: BLSJacobian {
        if isInfinity { return self }
        let a = x.squared
        let b = y.squared
        let c = b.squared
        let t = (x + b).squared - a - c
        let d = t + t
        let e = a + a + a
        let f = e.squared
        let x3 = f - (d + d)
        let c8 = c + c + c + c + c + c + c + c
        let y3 = e * (d - x3) - c8
        let yz = y * z
        return BLSJacobian(x: x3, y: y3, z: yz + yz)
    }

    /// P + Q (add-2007-bl), doubling when P = Q.
    package static func + (p: BLSJacobian, q: BLSJacobian) -> BLSJacobian {
        if p.isInfinity { return q }
        if q.isInfinity { return p }
        let z1z1 = p.z.squared
        let z2z2 = q.z.squared
        let u1 = p.x * z2z2
        let u2 = q.x * z1z1
        let s1 = p.y * q.z * z2z2
        let s2 = q.y * p.z * z1z1
        let h = u2 - u1
        let sDiff = s2 - s1
        if h.isZero {
            return sDiff.isZero ? p.doubled : .infinity
        }
        let i = (h + h).squared
        let j = h * i
        let r = sDiff + sDiff
        let v = u1 * i
        let x3 = r.squared - j - (v + v)
        let s1j = s1 * j
        let y3 = r * (v - x3) - (s1j + s1j)
        let z3 = ((p.z + q.z).squared - z1z1 - z2z2) * h
        return BLSJacobian(x: x3, y: y3, z: z3)
    }

    package var negated: BLSJacobian { BLSJacobian(x: x, y: -y, z: z) }

    /// [k]P, double-and-add from the top bit.
    package func multiplied(by k: UInt256) -> BLSJacobian {
        var result = BLSJacobian.infinity
        for i in stride(from: 255, through: 0, by: -1) {
            result = result.doubled
            if k.bit(i) { result = result + self }
        }
        return result
    }

    package var affine: BLSAffine<F> {
        if isInfinity { return .infinity }
        let zInverse = z.inverse
        let zInverse2 = zInverse.squared
        return BLSAffine(x: x * zInverse2, y: y * zInverse2 * zInverse)
    }
}
