import EthereumPrimitives

/// The field operations BLS12-381's point arithmetic needs, and the curve over each field: E: y² = x³ + 4
/// over Fp (G1) and the twist E': y² = x³ + 4ξ over Fp2 (G2).
package protocol BLSCurveField: Sendable, Equatable {
    static var zero: Self { get }
    static var one: Self { get }
    /// b of the curve y² = x³ + b over this field.
    static var curveB: Self { get }
    var isZero: Bool { get }
    var squared: Self { get }
    var doubled: Self { get }
    var inverse: Self { get }
    static func + (a: Self, b: Self) -> Self
    static func - (a: Self, b: Self) -> Self
    static func * (a: Self, b: Self) -> Self
    static prefix func - (a: Self) -> Self
}

extension BLSFp: BLSCurveField {
    package static let curveB = BLSFp(small: 4)
}

extension BLSFp2: BLSCurveField {
    package static let curveB = BLSFp2(BLSFp(small: 4), BLSFp(small: 4))
}

/// An affine point of y² = x³ + b; `isInfinity` marks the point at infinity (coordinates then zero).
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

    /// Whether the point lies on its field's curve (E for Fp, E' for Fp2).
    package var isOnCurve: Bool { isOnCurve(b: F.curveB) }
}

/// A point in Jacobian coordinates (X/Z², Y/Z³) on y² = x³ + b (a = 0); Z = 0 is infinity.
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

    @inline(__always)
    init(x: F, y: F, z: F) {
        (self.x, self.y, self.z) = (x, y, z)
    }

    package static var infinity: BLSJacobian { BLSJacobian(x: .one, y: .one, z: .zero) }

    package var isInfinity: Bool { z.isZero }

    /// 2P (dbl-2009-l, a = 0: 2M + 5S).
    package var doubled: BLSJacobian {
        if isInfinity { return self }
        let a = x.squared
        let b = y.squared
        let c = b.squared
        let d = ((x + b).squared - a - c).doubled
        let e = a.doubled + a
        let f = e.squared
        let x3 = f - d.doubled
        let y3 = e * (d - x3) - c.doubled.doubled.doubled
        return BLSJacobian(x: x3, y: y3, z: (y * z).doubled)
    }

    /// P + Q (add-2007-bl: 11M + 5S), doubling when P = Q.
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
        let i = h.doubled.squared
        let j = h * i
        let r = sDiff.doubled
        let v = u1 * i
        let x3 = r.squared - j - v.doubled
        let y3 = r * (v - x3) - (s1 * j).doubled
        let z3 = ((p.z + q.z).squared - z1z1 - z2z2) * h
        return BLSJacobian(x: x3, y: y3, z: z3)
    }

    /// P + Q for an affine Q (madd-2007-bl: 7M + 4S), doubling when P = Q.
    package static func + (p: BLSJacobian, q: BLSAffine<F>) -> BLSJacobian {
        if q.isInfinity { return p }
        if p.isInfinity { return BLSJacobian(q) }
        let z1z1 = p.z.squared
        let u2 = q.x * z1z1
        let s2 = q.y * p.z * z1z1
        let h = u2 - p.x
        let sDiff = s2 - p.y
        if h.isZero {
            return sDiff.isZero ? p.doubled : .infinity
        }
        let hh = h.squared
        let i = hh.doubled.doubled
        let j = h * i
        let r = sDiff.doubled
        let v = p.x * i
        let x3 = r.squared - j - v.doubled
        let y3 = r * (v - x3) - (p.y * j).doubled
        let z3 = (p.z + h).squared - z1z1 - hh
        return BLSJacobian(x: x3, y: y3, z: z3)
    }

    package var negated: BLSJacobian { BLSJacobian(x: x, y: -y, z: z) }

    /// Whether two points are equal (cross-multiplied, no inversion).
    package func isEqual(to q: BLSJacobian) -> Bool {
        if isInfinity || q.isInfinity { return isInfinity && q.isInfinity }
        let z1z1 = z.squared
        let z2z2 = q.z.squared
        return x * z2z2 == q.x * z1z1 && y * (q.z * z2z2) == q.y * (z * z1z1)
    }

    /// [k]P with a signed-digit window (width-5 NAF: 8 precomputed odd multiples, one addition per
    /// five bits on average, 256 doublings).
    package func multiplied(by k: UInt256) -> BLSJacobian {
        if k.isZero || isInfinity { return .infinity }
        let digits = BLSScalar.nonAdjacentForm(k, width: 5)
        var table = [self]
        let twice = doubled
        for _ in 1..<8 { table.append(table[table.count - 1] + twice) }
        var result = BLSJacobian.infinity
        for digit in digits.reversed() {
            result = result.doubled
            if digit > 0 {
                result = result + table[Int(digit) >> 1]
            } else if digit < 0 {
                result = result + table[Int(-digit) >> 1].negated
            }
        }
        return result
    }

    /// [k]P for a 64-bit k, double-and-add from the top bit (k = |x| has six bits set).
    package func multiplied(bySmall k: UInt64) -> BLSJacobian {
        if k == 0 || isInfinity { return .infinity }
        var result = self
        for i in stride(from: 63 - k.leadingZeroBitCount - 1, through: 0, by: -1) {
            result = result.doubled
            if (k >> UInt64(i)) & 1 == 1 { result = result + self }
        }
        return result
    }

    package var affine: BLSAffine<F> {
        if isInfinity { return .infinity }
        let zInverse = z.inverse
        let zInverse2 = zInverse.squared
        return BLSAffine(x: x * zInverse2, y: y * zInverse2 * zInverse)
    }

    /// The affine forms of many points with one field inversion (Montgomery's trick).
    package static func batchAffine(_ points: [BLSJacobian]) -> [BLSAffine<F>] {
        var prefix: [F] = []
        prefix.reserveCapacity(points.count)
        var running = F.one
        for p in points {
            prefix.append(running)
            if !p.isInfinity { running = running * p.z }
        }
        var inverse = running.inverse
        var out = [BLSAffine<F>](repeating: .infinity, count: points.count)
        for i in stride(from: points.count - 1, through: 0, by: -1) where !points[i].isInfinity {
            let zInverse = inverse * prefix[i]
            inverse = inverse * points[i].z
            let zInverse2 = zInverse.squared
            out[i] = BLSAffine(x: points[i].x * zInverse2, y: points[i].y * zInverse2 * zInverse)
        }
        return out
    }
}

/// Scalar recodings for point multiplication.
package enum BLSScalar {
    /// The width-w non-adjacent form of k, least significant digit first: odd digits in
    /// (−2^(w−1), 2^(w−1)), each non-zero digit followed by at least w − 1 zeros.
    package static func nonAdjacentForm(_ k: UInt256, width: Int) -> [Int8] {
        var digits: [Int8] = []
        digits.reserveCapacity(257)
        var (l0, l1, l2, l3) = k.limbs
        var l4: UInt64 = 0  // room for the carry a negative digit leaves
        let window = UInt64(1) << UInt64(width)
        let half = window >> 1
        while (l0 | l1 | l2 | l3 | l4) != 0 {
            var digit: Int64 = 0
            if l0 & 1 == 1 {
                let low = l0 & (window - 1)
                if low >= half {
                    digit = Int64(low) - Int64(window)
                    // k += |digit|
                    var carry = UInt64(-digit)
                    (l0, carry) = BLSFp.adc(l0, carry, 0)
                    (l1, carry) = BLSFp.adc(l1, 0, carry)
                    (l2, carry) = BLSFp.adc(l2, 0, carry)
                    (l3, carry) = BLSFp.adc(l3, 0, carry)
                    l4 &+= carry
                } else {
                    digit = Int64(low)
                    l0 -= low
                }
            }
            digits.append(Int8(digit))
            // k >>= 1
            l0 = l0 >> 1 | l1 << 63
            l1 = l1 >> 1 | l2 << 63
            l2 = l2 >> 1 | l3 << 63
            l3 = l3 >> 1 | l4 << 63
            l4 >>= 1
        }
        return digits
    }
}
