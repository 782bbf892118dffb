import EthereumPrimitives

/// Derived constants of BN254, computed once from ξ and p rather than written out.
enum BN254Constants {
    /// The BN parameter u (p and r are polynomials in u).
    static let u: UInt64 = 4_965_661_367_192_848_881

    /// The group order r of G1 and G2.
    static let order = UInt256(limbs: (0x43E1_F593_F000_0001, 0x2833_E848_79B9_7091, 0xB850_45B6_8181_585D, 0x3064_4E72_E131_A029))

    /// ξ^(j(p−1)/6) for j = 0…5: the Frobenius map's factor on the coefficient of w^j.
    static let frobenius1: [BN254Fp2] = {
        let exponent = (BN254Fp.modulus - UInt256(1)) / UInt256(6)
        let gamma = BN254Fp2.xi.power(exponent)
        var out = [BN254Fp2.one]
        for _ in 1..<6 { out.append(out[out.count - 1] * gamma) }
        return out
    }()

    /// ξ^(j(p²−1)/6) = γ_j^(p+1), the norm of γ_j, which is in F_p.
    static let frobenius2: [BN254Fp] = frobenius1.map { ($0 * $0.conjugate).c0 }

    /// The twist curve's constant b' = 3/ξ (y² = x³ + b' over F_p²).
    static let twistB: BN254Fp2 = BN254Fp2(BN254Fp(small: 3), .zero) * BN254Fp2.xi.inverse

    /// The Miller loop's scalar 6u + 2 in non-adjacent form, least significant digit first.
    static let loopDigits: [Int8] = nonAdjacentForm(low: u &* 6 &+ 2, high: u.multipliedFullWidth(by: 6).high)

    /// u in non-adjacent form, least significant digit first.
    static let uDigits: [Int8] = nonAdjacentForm(low: u, high: 0)

    /// The non-adjacent form of the 128-bit value high·2^64 + low (for −1 digits, the value is raised).
    static func nonAdjacentForm(low: UInt64, high: UInt64) -> [Int8] {
        var (low, high) = (low, high)
        var digits: [Int8] = []
        while low != 0 || high != 0 {
            if low & 1 == 1 {
                let digit: Int8 = low & 3 == 3 ? -1 : 1
                digits.append(digit)
                if digit == 1 {
                    low -= 1
                } else {
                    let (sum, carry) = low.addingReportingOverflow(1)
                    low = sum
                    if carry { high += 1 }
                }
            } else {
                digits.append(0)
            }
            low = low >> 1 | high << 63
            high >>= 1
        }
        return digits
    }
}
