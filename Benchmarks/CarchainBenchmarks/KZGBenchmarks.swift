import Benchmark
import EVM
import EthereumPrimitives

/// The point evaluation precompile (0x0a, EIP-4844) and its parts. Verification does the same work
/// whether the proof holds or not, so the input is a well-formed proof of a false claim (commitment
/// [1]G1, proof [2]G1, z = 1, y = 1, matching versioned hash): two G1 decompressions with subgroup
/// checks, [y]G1 and [z]G2, and a two-pair pairing check.
func registerKZGBenchmarks() {
    let config = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal], timeUnits: .microseconds, maxDuration: .seconds(3))
    let g1 = BLSJacobian(BLSConstants.g1)
    func compressed(_ p: BLSAffine<BLSFp>) -> [UInt8] {
        var out = p.x.bigEndianBytes
        out[0] |= 0x80 | (p.y.isLexicographicallyLargest ? 0x20 : 0)
        return out
    }
    let commitment = compressed(BLSConstants.g1)
    let proof = compressed(g1.doubled.affine)
    var versioned: [UInt8] = []
    if case .success(_, let digest) = Precompiles.run(Address(uint32: 2), input: commitment, gasLimit: 1_000, fork: .cancun) {
        versioned = digest
        versioned[0] = 0x01
    }
    let input = versioned + UInt256(1).bigEndianBytes + UInt256(1).bigEndianBytes + commitment + proof

    Benchmark("KZG point evaluation precompile (0x0a, full verification)", configuration: config) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(Precompiles.run(Address(uint32: 0x0A), input: input, gasLimit: 50_000, fork: .cancun))
        }
    }
    let q = BLSConstants.g2
    let p = BLSConstants.g1
    Benchmark("BLS12-381 pairing check, two pairs", configuration: config) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(BLSPairing.productIsOne([(p, q), (p.negated, q)]))
        }
    }
    Benchmark("BLS12-381 G1 decompression with subgroup check", configuration: config) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(PointEvaluation.decompressG1(proof))
        }
    }
}
