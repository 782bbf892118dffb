import Benchmark
import EVM
import EthereumPrimitives

/// The EIP-2537 precompiles (Prague) and P256VERIFY (EIP-7951, Osaka) through `Precompiles.run`, input
/// decoding with its on-curve and subgroup checks and output encoding included. Points are multiples of
/// the generators by fixed pseudo-random 255-bit scalars, so no operation meets a shortcut (infinity,
/// small scalars). References from the same `make bench` run (tools/bench.sh): c-kzg-4844's
/// verify_kzg_proof (a two-pair pairing check plus a G1 and a G2 multiplication, on blst) for the
/// pairing, and `openssl speed ecdsap256` (verifications per second) for P256VERIFY.
func registerBLS12381Benchmarks() {
    let config = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal], timeUnits: .microseconds, maxDuration: .seconds(2))
    var random = SplitMix64(seed: 0x2537)
    func scalar() -> UInt256 {
        UInt256(limbs: (random.next(), random.next(), random.next(), random.next() >> 2))
    }
    func g1() -> [UInt8] { BLSEncoding.encode(BLSJacobian(BLSConstants.g1).multiplied(by: scalar()).affine) }
    func g2() -> [UInt8] { BLSEncoding.encode(BLSJacobian(BLSConstants.g2).multiplied(by: scalar()).affine) }

    func register(_ name: String, _ n: UInt16, _ input: [UInt8], fork: Hardfork = .prague) {
        let target = Address(uint32: UInt32(n))
        guard case .success = Precompiles.run(target, input: input, gasLimit: 100_000_000, fork: fork) else {
            fatalError("benchmark input for \(name) does not succeed")
        }
        Benchmark(name, configuration: config) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(Precompiles.run(target, input: input, gasLimit: 100_000_000, fork: fork))
            }
        }
    }

    register("precompile BLS12_G1ADD (0x0b)", 0x0B, g1() + g1())
    register("precompile BLS12_G1MSM (0x0c), 1 pair", 0x0C, g1() + scalar().bigEndianBytes)
    register(
        "precompile BLS12_G1MSM (0x0c), 128 pairs", 0x0C,
        (0..<128).flatMap { _ in g1() + scalar().bigEndianBytes })
    register("precompile BLS12_G2ADD (0x0d)", 0x0D, g2() + g2())
    register("precompile BLS12_G2MSM (0x0e), 1 pair", 0x0E, g2() + scalar().bigEndianBytes)
    register(
        "precompile BLS12_G2MSM (0x0e), 128 pairs", 0x0E,
        (0..<128).flatMap { _ in g2() + scalar().bigEndianBytes })
    // e(a·G1, b·G2)·e(−ab·G1, G2) = 1: a pairing check that holds, two pairs.
    let a = scalar(), b = scalar()
    let aG1 = BLSJacobian(BLSConstants.g1).multiplied(by: a).affine
    let pair1 = BLSEncoding.encode(aG1) + BLSEncoding.encode(BLSJacobian(BLSConstants.g2).multiplied(by: b).affine)
    let pair2 =
        BLSEncoding.encode(BLSJacobian(aG1).multiplied(by: b).affine.negated) + BLSEncoding.encode(BLSConstants.g2)
    register("precompile BLS12_PAIRING_CHECK (0x0f), 2 pairs", 0x0F, pair1 + pair2)
    register("precompile BLS12_MAP_FP_TO_G1 (0x10)", 0x10, [UInt8](repeating: 0, count: 16) + BLSFp(small: 0x2537_0010).bigEndianBytes)
    register(
        "precompile BLS12_MAP_FP2_TO_G2 (0x11)", 0x11,
        [UInt8](repeating: 0, count: 16) + BLSFp(small: 0x2537_0011).bigEndianBytes
            + [UInt8](repeating: 0, count: 16) + BLSFp(small: 7).bigEndianBytes)
    // geth's p256Verify.json "CallP256Verify" (a valid signature).
    let p256 = try! [UInt8](
        hex: "4cee90eb86eaa050036147a12d49004b6b9c72bd725d39d4785011fe190f0b4da73bd4903f0ce3b639bbbf6e8e80d169"
            + "31ff4bcf5993d58468e8fb19086e8cac36dbcd03009df8c59286b162af3bd7fcc0450c9aa81be5d10d312af6c66b1d60"
            + "4aebd3099c618202fcfe16ae7770b0c49ab5eadf74b754204a3bb6060e44eff37618b065f9832de4ca6ca971a7a1adc8"
            + "26d0f7c00181a5fb2ddf79ae00b4e10e")
    register("precompile P256VERIFY (0x100)", 0x100, p256, fork: .osaka)
}
