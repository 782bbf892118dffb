import EthereumPrimitives

/// Multi-scalar multiplication Σ [kᵢ]Pᵢ for G1 and G2, as EIP-2537's MSM precompiles need.
///
/// The points must lie in G1 / G2 (the precompiles check). One pair is a single multiplication (EIP-2537:
/// "MSM with k = 1 ... invoke the single point multiplication"), split by the endomorphism
/// (``BLSGroupMultiplication``); a few pairs are summed from single multiplications; more use Pippenger's bucket
/// method: the 256-bit scalars are cut into c-bit windows, and for each window every point is added
/// (one mixed addition) into the bucket its digit names, then the buckets are summed by a running sum,
/// so a window costs k + 2·2^c additions instead of k multiplications.
package enum BLSMSM {
    /// Below this many pairs the single multiplications are cheaper than the buckets' fixed cost.
    static let pippengerThreshold = 8

    /// Σ [kᵢ]Pᵢ for points in G1 (single multiplications split by φ).
    package static func multiply(_ points: [BLSAffine<BLSFp>], _ scalars: [UInt256]) -> BLSJacobian<BLSFp> {
        multiply(points, scalars, single: BLSGroupMultiplication.g1)
    }

    /// Σ [kᵢ]Qᵢ for points in G2 (single multiplications split by ψ).
    package static func multiply(_ points: [BLSAffine<BLSFp2>], _ scalars: [UInt256]) -> BLSJacobian<BLSFp2> {
        multiply(points, scalars, single: BLSGroupMultiplication.g2)
    }

    static func multiply<F>(
        _ points: [BLSAffine<F>], _ scalars: [UInt256], single: (BLSJacobian<F>, UInt256) -> BLSJacobian<F>
    ) -> BLSJacobian<F> {
        precondition(points.count == scalars.count)
        if points.count < pippengerThreshold {
            var sum = BLSJacobian<F>.infinity
            for (p, k) in zip(points, scalars) where !p.isInfinity && !k.isZero {
                sum = sum + single(BLSJacobian(p), k)
            }
            return sum
        }
        return pippenger(points, scalars)
    }

    /// The window width for k points: about log₂(k), which balances k additions per window against the
    /// 2^c-bucket sum.
    static func windowBits(_ count: Int) -> Int {
        let log = Int.bitWidth - count.leadingZeroBitCount  // ⌊log₂ k⌋ + 1
        return min(max(log - 1, 2), 16)
    }

    static func pippenger<F>(_ points: [BLSAffine<F>], _ scalars: [UInt256]) -> BLSJacobian<F> {
        let c = windowBits(points.count)
        let windows = (256 + c - 1) / c
        var result = BLSJacobian<F>.infinity
        var buckets = [BLSJacobian<F>](repeating: .infinity, count: (1 << c) - 1)
        for window in stride(from: windows - 1, through: 0, by: -1) {
            for _ in 0..<c { result = result.doubled }
            for i in buckets.indices { buckets[i] = .infinity }
            for (p, k) in zip(points, scalars) where !p.isInfinity {
                let digit = bits(k, from: window * c, count: c)
                if digit != 0 { buckets[digit - 1] = buckets[digit - 1] + p }
            }
            // Σ j·bucket[j] = Σ_{j} (bucket[j] + bucket[j+1] + …): a running sum from the top.
            var running = BLSJacobian<F>.infinity
            var windowSum = BLSJacobian<F>.infinity
            for i in stride(from: buckets.count - 1, through: 0, by: -1) {
                running = running + buckets[i]
                windowSum = windowSum + running
            }
            result = result + windowSum
        }
        return result
    }

    /// `count` bits of k starting at bit `start` (bits past 255 read as zero).
    static func bits(_ k: UInt256, from start: Int, count: Int) -> Int {
        var value = 0
        for i in 0..<count where start + i < 256 && k.bit(start + i) { value |= 1 << i }
        return value
    }
}
