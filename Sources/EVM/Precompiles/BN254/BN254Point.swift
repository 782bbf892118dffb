import EthereumPrimitives

/// The arithmetic a curve point needs from its coordinate field (F_p for G1, F_p² for G2).
package protocol BN254Field: Sendable, Equatable {
    static var zero: Self { get }
    static var one: Self { get }
    /// The constant b of the curve y² = x³ + b over this field: 3 for G1, 3/ξ for the G2 twist.
    static var curveB: Self { get }
    var isZero: Bool { get }
    static func + (a: Self, b: Self) -> Self
    static func - (a: Self, b: Self) -> Self
    static prefix func - (a: Self) -> Self
    static func * (a: Self, b: Self) -> Self
    var squared: Self { get }
    var doubled: Self { get }
    var inverse: Self { get }
}

extension BN254Fp: BN254Field {
    package static let curveB = BN254Fp(small: 3)
}

extension BN254Fp2: BN254Field {
    package static var curveB: BN254Fp2 { BN254Constants.twistB }
}

/// A point of y² = x³ + b in Jacobian coordinates (x = X/Z², y = Y/Z³); Z = 0 is the point at infinity.
package struct BN254Point<F: BN254Field>: Sendable, Equatable {
    package var x: F
    package var y: F
    package var z: F

    package init(x: F, y: F, z: F) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// The affine point (x, y) (not checked to be on the curve).
    package init(affineX: F, y: F) {
        self.init(x: affineX, y: y, z: .one)
    }

    package static var infinity: BN254Point { BN254Point(x: .one, y: .one, z: .zero) }

    package var isInfinity: Bool { z.isZero }

    /// The affine coordinates, or nil for the point at infinity.
    package var affine: (x: F, y: F)? {
        guard !isInfinity else { return nil }
        let zInverse = z.inverse
        let zInverse2 = zInverse.squared
        return (x * zInverse2, y * zInverse2 * zInverse)
    }

    /// True when an affine point satisfies y² = x³ + b.
    package static func isOnCurve(x: F, y: F) -> Bool {
        y.squared == x.squared * x + F.curveB
    }

    package var negated: BN254Point { BN254Point(x: x, y: -y, z: z) }

    /// 2·self (dbl-2009-l, for a = 0).
    package var doubled: BN254Point {
        if isInfinity { return self }
        let a = x.squared
        let b = y.squared
        let c = b.squared
        let d = ((x + b).squared - a - c).doubled
        let e = a.doubled + a
        let f = e.squared
        let x3 = f - d.doubled
        let y3 = e * (d - x3) - c.doubled.doubled.doubled
        let z3 = (y * z).doubled
        return BN254Point(x: x3, y: y3, z: z3)
    }

    /// The sum (add-2007-bl), handling infinity, equal and opposite points.
    package static func + (p: BN254Point, q: BN254Point) -> BN254Point {
        if p.isInfinity { return q }
        if q.isInfinity { return p }
        let z1z1 = p.z.squared
        let z2z2 = q.z.squared
        let u1 = p.x * z2z2
        let u2 = q.x * z1z1
        let s1 = p.y * q.z * z2z2
        let s2 = q.y * p.z * z1z1
        let h = u2 - u1
        let r = (s2 - s1).doubled
        if h.isZero {
            return r.isZero ? p.doubled : .infinity
        }
        let i = h.doubled.squared
        let j = h * i
        let v = u1 * i
        let x3 = r.squared - j - v.doubled
        let y3 = r * (v - x3) - (s1 * j).doubled
        let z3 = ((p.z + q.z).squared - z1z1 - z2z2) * h
        return BN254Point(x: x3, y: y3, z: z3)
    }

    /// scalar·self with a fixed 4-bit window (the scalar is not reduced).
    package func multiplied(by scalar: UInt256) -> BN254Point {
        let bits = scalar.significantBitCount
        guard bits > 0, !isInfinity else { return .infinity }
        var table = [BN254Point](repeating: .infinity, count: 16)
        table[1] = self
        for i in 2..<16 { table[i] = i % 2 == 0 ? table[i / 2].doubled : table[i - 1] + self }
        var result = BN254Point.infinity
        for window in stride(from: (bits - 1) / 4, through: 0, by: -1) {
            result = result.doubled.doubled.doubled.doubled
            let base = 4 * window
            var nibble = 0
            for b in 0..<4 where scalar.bit(base + b) { nibble |= 1 << b }
            if nibble != 0 { result = result + table[nibble] }
        }
        return result
    }

    /// Equality of the represented points (Jacobian representations are not unique).
    package static func == (p: BN254Point, q: BN254Point) -> Bool {
        if p.isInfinity || q.isInfinity { return p.isInfinity && q.isInfinity }
        let z1z1 = p.z.squared
        let z2z2 = q.z.squared
        return p.x * z2z2 == q.x * z1z1 && p.y * z2z2 * q.z == q.y * z1z1 * p.z
    }
}

/// G1: points over F_p (cofactor 1, so every curve point is in the group).
package typealias BN254G1 = BN254Point<BN254Fp>
/// G2: points of the sextic twist over F_p²; membership in the order-r subgroup must be checked.
package typealias BN254G2 = BN254Point<BN254Fp2>

extension BN254Point where F == BN254Fp {
    /// The generator (1, 2).
    package static var generator: BN254G1 { BN254G1(affineX: BN254Fp(small: 1), y: BN254Fp(small: 2)) }
}

extension BN254Point where F == BN254Fp2 {
    /// The generator used by EIP-197.
    package static var generator: BN254G2 {
        func fp(_ hex: String) -> BN254Fp { BN254Fp((try? UInt256(hex: hex)) ?? .zero) ?? .zero }
        return BN254G2(
            affineX: BN254Fp2(
                fp("0x1800deef121f1e76426a00665e5c4479674322d4f75edadd46debd5cd992f6ed"),
                fp("0x198e9393920d483a7260bfb731fb5d25f1aa493335a9e71297e485b7aef312c2")),
            y: BN254Fp2(
                fp("0x12c85ea5db8c6deb4aab71808dcb408fe3d1e7690c43d37b4ce6cc0166fa7daa"),
                fp("0x090689d0585ff075ec9e99ad690c3395bc4b313370b38ef355acdadcd122975b")))
    }

    /// The endomorphism ψ = untwist ∘ Frobenius ∘ twist: (x, y) ↦ (x̄·ξ^((p−1)/3), ȳ·ξ^((p−1)/2)), on
    /// Jacobian coordinates (conjugation is a field automorphism, so it applies to X, Y, Z alike).
    package var psi: BN254G2 {
        let g = BN254Constants.frobenius1
        return BN254G2(x: x.conjugate * g[2], y: y.conjugate * g[3], z: z.conjugate)
    }

    /// ψ²: (x, y) ↦ (x·ξ^((p²−1)/3), y·ξ^((p²−1)/2)) = (x·ξ^((p²−1)/3), −y).
    package var psi2: BN254G2 {
        let g = BN254Constants.frobenius2
        return BN254G2(x: x * g[2], y: y * g[3], z: z)
    }

    /// True when the point (on the twist) is in the order-r subgroup G2, by the test of El Housni,
    /// Guillevic and Piellard, "Co-factor clearing and subgroup membership testing on pairing-friendly
    /// curves" (2022): [u+1]Q + ψ([u]Q) + ψ²([u]Q) = ψ³([2u]Q). It costs one multiplication by the 63-bit
    /// u instead of one by the 254-bit r; ``isInSubgroupByOrder`` is the direct test.
    package var isInSubgroup: Bool {
        let uq = multiplied(by: UInt256(BN254Constants.u))
        let lhs = uq + self + uq.psi + uq.psi2
        return lhs == uq.doubled.psi2.psi
    }

    /// True when r·Q is the point at infinity (the definition of membership; slower than ``isInSubgroup``).
    package var isInSubgroupByOrder: Bool { multiplied(by: BN254Constants.order).isInfinity }
}
