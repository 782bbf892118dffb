import Benchmark
import EVM
import EthereumCrypto
import EthereumPrimitives

/// The precompiles through `Precompiles.run` (input parsing and output encoding included), at Cancun
/// prices: ECRECOVER, MODEXP on RSA-2048 (verification with e = 65537, and a full 2048-bit exponent),
/// BN254 scalar multiplication and a two-pair pairing check, BLAKE2F with 12 rounds (one BLAKE2b block).
func registerPrecompileBenchmarks() {
    func address(_ n: UInt8) -> Address { Address(bytes: [UInt8](repeating: 0, count: 19) + [n])! }
    func word(_ n: Int) -> [UInt8] { UInt256(UInt64(n)).bigEndianBytes }
    func hex(_ s: String) -> [UInt8] { try! [UInt8](hex: s) }
    var generator = SystemRandomNumberGenerator()
    func random(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) } }

    let config = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal], timeUnits: .microseconds, maxDuration: .seconds(2))
    func register(_ name: String, _ n: UInt8, _ input: [UInt8]) {
        let target = address(n)
        guard case .success = Precompiles.run(target, input: input, gasLimit: 30_000_000, fork: .cancun) else {
            fatalError("benchmark input for \(name) does not succeed")
        }
        Benchmark(name, configuration: config) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(Precompiles.run(target, input: input, gasLimit: 30_000_000, fork: .cancun))
            }
        }
    }

    let key = try! PrivateKey(hex: "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318")
    let hash = Keccak256.hash("carchain precompile benchmark")
    let signature = Secp256k1.sign(hash: hash, with: key)
    register("precompile ecrecover", 1, hash.bytes + word(27 + Int(signature.recoveryID)) + signature.r.bytes + signature.s.bytes)

    var modulus = random(256)
    modulus[0] |= 0x80
    modulus[255] |= 1
    var base = random(256)
    base[0] &= 0x7F
    register("precompile modexp RSA-2048 e=65537", 5, word(256) + word(3) + word(256) + base + [0x01, 0x00, 0x01] + modulus)
    register("precompile modexp RSA-2048 2048-bit exponent", 5, word(256) + word(256) + word(256) + base + random(256) + modulus)

    // A point of G1 (chfast2's output in go-ethereum's bn256ScalarMul.json) and a 256-bit scalar.
    let point = hex("025a6f4181d2b4ea8b724290ffb40156eb0adb514c688556eb79cdea0752c2bb2eff3f31dea215f1eb86023a133a996eb6300b44da664d64251d05381bb8a02e")
    register("precompile bn254 mul", 7, point + hex("183227397098d014dc2822db40c0ac2ecbc0b548b438e5469e10460b6c3e7ea3"))
    register("precompile bn254 add", 6, point + point)

    // e(G1, G2) · e(−G1, G2) = 1: two pairs, both G2 points subgroup-checked.
    let g1 = word(1) + word(2)
    let minusG1 = word(1) + (BN254Fp.modulus - UInt256(2)).bigEndianBytes
    let g2 = hex("198e9393920d483a7260bfb731fb5d25f1aa493335a9e71297e485b7aef312c21800deef121f1e76426a00665e5c4479674322d4f75edadd46debd5cd992f6ed090689d0585ff075ec9e99ad690c3395bc4b313370b38ef355acdadcd122975b12c85ea5db8c6deb4aab71808dcb408fe3d1e7690c43d37b4ce6cc0166fa7daa")
    register("precompile bn254 pairing (2 pairs)", 8, g1 + g2 + minusG1 + g2)

    let blake = hex("0000000c48c9bdf267e6096a3ba7ca8485ae67bb2bf894fe72f36e3cf1361d5f3af54fa5d182e6ad7f520e511f6c3e2b8c68059b6bbd41fbabd9831f79217e1319cde05b616263")
        + [UInt8](repeating: 0, count: 125) + [3, 0, 0, 0, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 8) + [1]
    register("precompile blake2f 12 rounds", 9, blake)
    register("precompile sha256 1 KiB", 2, random(1024))
    register("precompile ripemd160 1 KiB", 3, random(1024))
}
