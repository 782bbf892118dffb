import EVM
import EthereumCrypto
import EthereumPrimitives
import TestSupport
import Testing

/// The address of precompile number `n`.
func precompile(_ n: UInt16) -> Address {
    var bytes = [UInt8](repeating: 0, count: 20)
    bytes[18] = UInt8(n >> 8)
    bytes[19] = UInt8(n & 0xFF)
    return Address(bytes: bytes)!
}

func hex(_ s: String) -> [UInt8] { (try? [UInt8](hex: s)) ?? [] }

/// Runs known-answer vectors for precompile `n` under `fork`, checking output and gas, then checks that one
/// gas less than the cost fails.
func runKnownAnswers(_ suite: String, _ n: UInt16, _ vectors: [KnownAnswer], fork: Hardfork) -> ConformanceTally {
    var tally = ConformanceTally(suite: suite)
    for vector in vectors {
        let input = hex(vector.input)
        let result = Precompiles.run(precompile(n), input: input, gasLimit: 10_000_000, fork: fork)
        guard case .success(let gas, let output) = result else {
            tally.record(.fail("got \(result)"), case: vector.name)
            continue
        }
        let expected = hex(vector.expected)
        if output != expected {
            tally.record(.fail("output \(firstDifference(output, expected))"), case: vector.name)
        } else if gas != vector.gas {
            tally.record(.fail("gas \(gas), expected \(vector.gas)"), case: vector.name)
        } else if gas > 0, Precompiles.run(precompile(n), input: input, gasLimit: gas - 1, fork: fork) != .failure {
            tally.record(.fail("did not fail with gas \(gas - 1)"), case: vector.name)
        } else {
            tally.record(.pass, case: vector.name)
        }
    }
    return tally
}

@Suite struct PrecompileRegistryTests {
    @Test func activeSets() {
        #expect(Precompiles.addresses(for: .frontier) == (1...4).map { precompile($0) })
        #expect(Precompiles.addresses(for: .spuriousDragon).count == 4)
        #expect(Precompiles.addresses(for: .byzantium) == (1...8).map { precompile($0) })
        #expect(Precompiles.addresses(for: .petersburg).count == 8)
        #expect(Precompiles.addresses(for: .istanbul).count == 9)
        #expect(Precompiles.addresses(for: .shanghai).count == 9)
        #expect(Precompiles.addresses(for: .cancun) == (1...10).map { precompile($0) })
        #expect(Precompiles.addresses(for: .prague) == (1...17).map { precompile($0) })
        #expect(Precompiles.addresses(for: .osaka) == (1...17).map { precompile($0) } + [precompile(0x100)])
        #expect(!Precompiles.isPrecompile(precompile(5), fork: .spuriousDragon))
        #expect(Precompiles.isPrecompile(precompile(5), fork: .byzantium))
        #expect(!Precompiles.isPrecompile(precompile(9), fork: .petersburg))
        #expect(Precompiles.isPrecompile(precompile(10), fork: .cancun))
        #expect(!Precompiles.isPrecompile(precompile(10), fork: .shanghai))
        #expect(!Precompiles.isPrecompile(precompile(0), fork: .cancun))
        #expect(!Precompiles.isPrecompile(precompile(0x101), fork: .osaka))
        #expect(!Precompiles.isPrecompile(try! Address("0x1000000000000000000000000000000000000001"), fork: .cancun))
    }

    @Test func unimplementedPrecompilesAreReportedUnsupported() {
        // 0x0a exists from Cancun (PointEvaluationTests covers it): bad input fails, it is not "unsupported".
        #expect(Precompiles.run(precompile(10), input: [], gasLimit: 100_000, fork: .cancun) == .failure)
        guard case .unsupported = Precompiles.run(precompile(10), input: [], gasLimit: 100_000, fork: .shanghai) else {
            Issue.record("0x0a before Cancun should be refused")
            return
        }
        // 0x0b–0x11 exist from Prague and 0x100 from Osaka: bad input fails (P256VERIFY: empty output).
        #expect(Precompiles.run(precompile(11), input: [], gasLimit: 100_000, fork: .prague) == .failure)
        guard case .unsupported = Precompiles.run(precompile(11), input: [], gasLimit: 100_000, fork: .cancun) else {
            Issue.record("BLS12-381 G1ADD before Prague should be refused")
            return
        }
        #expect(Precompiles.run(precompile(0x100), input: [], gasLimit: 100_000, fork: .osaka) == .success(gasUsed: 6_900, output: []))
        // Not a precompile in this fork.
        guard case .unsupported = Precompiles.run(precompile(9), input: [], gasLimit: 100_000, fork: .byzantium) else {
            Issue.record("0x09 before Istanbul should be refused")
            return
        }
    }
}

@Suite struct HashPrecompileTests {
    @Test func sha256() {
        let empty = Precompiles.run(precompile(2), input: [], gasLimit: 60, fork: .frontier)
        #expect(empty == .success(gasUsed: 60, output: hex("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")))
        let abc = Precompiles.run(precompile(2), input: Array("abc".utf8), gasLimit: 72, fork: .cancun)
        #expect(abc == .success(gasUsed: 72, output: hex("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")))
        #expect(Precompiles.run(precompile(2), input: Array("abc".utf8), gasLimit: 71, fork: .cancun) == .failure)
        guard case .success(let gas, _) = Precompiles.run(precompile(2), input: [UInt8](repeating: 1, count: 65), gasLimit: 1000, fork: .cancun) else {
            Issue.record("sha256 failed")
            return
        }
        #expect(gas == 60 + 12 * 3)
    }

    /// Vectors from the RIPEMD-160 authors' page (Bosselaers).
    @Test(arguments: [
        ("", "9c1185a5c5e9fc54612808977ee8f548b2258d31"),
        ("a", "0bdc9d2d256b3ee9daae347be6f4dc835a467ffe"),
        ("abc", "8eb208f7e05d987a9b044a8e98c6b087f15a0bfc"),
        ("message digest", "5d0689ef49d2fae572b881b123a85ffa21595f36"),
        ("abcdefghijklmnopqrstuvwxyz", "f71c27109c692c1b56bbdceb5b9d2865b3708dbc"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "12a053384a9c0c88e405a06c27dcf49ada62eb2b"),
        ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "b0e20b6e3116640286ed3a87a5713079b21f5189"),
        (String(repeating: "1234567890", count: 8), "9b752e45573d4b39f4dbd3323cab82bf63326bfb"),
    ])
    func ripemd160(message: String, digest: String) {
        let result = Precompiles.run(precompile(3), input: Array(message.utf8), gasLimit: 100_000, fork: .frontier)
        let words = UInt64((message.utf8.count + 31) / 32)
        #expect(result == .success(gasUsed: 600 + 120 * words, output: [UInt8](repeating: 0, count: 12) + hex(digest)))
    }

    @Test func ripemd160MillionA() {
        #expect(RIPEMD160.hash([UInt8](repeating: 0x61, count: 1_000_000)) == hex("52783243c1697bdbe16d37f97f68f08325dc1528"))
    }

    @Test func identity() {
        let input: [UInt8] = Array(0..<100)
        #expect(Precompiles.run(precompile(4), input: input, gasLimit: 27, fork: .frontier) == .success(gasUsed: 27, output: input))
        #expect(Precompiles.run(precompile(4), input: input, gasLimit: 26, fork: .frontier) == .failure)
        #expect(Precompiles.run(precompile(4), input: [], gasLimit: 15, fork: .frontier) == .success(gasUsed: 15, output: []))
    }
}

@Suite struct ECRecoverTests {
    @Test func knownAnswers() {
        runKnownAnswers("ecRecover.json", 1, KnownAnswers.ecrecover, fork: .cancun).report()
    }

    static func input(hash: Bytes32, v: UInt8, r: Bytes32, s: Bytes32) -> [UInt8] {
        hash.bytes + [UInt8](repeating: 0, count: 31) + [v] + r.bytes + s.bytes
    }

    @Test func recoversSigner() throws {
        var g = SplitMix64(seed: 7)
        for _ in 0..<10 {
            let key = try PrivateKey(bytes: g.bytes(32))
            let hash = Keccak256.hash(g.bytes(40))
            let signature = Secp256k1.sign(hash: hash, with: key)
            let input = Self.input(hash: hash, v: 27 + signature.recoveryID, r: signature.r, s: signature.s)
            let expected = [UInt8](repeating: 0, count: 12) + key.publicKey.address.bytes
            #expect(Precompiles.run(precompile(1), input: input, gasLimit: 3000, fork: .frontier) == .success(gasUsed: 3000, output: expected))
            // The same signature with high s (n − s) and the other parity recovers the same key: EIP-2
            // does not apply to the precompile.
            let n = UInt256(Secp256k1.curveOrder)
            let highS = (n - UInt256(signature.s)).bytes32
            let flipped = Self.input(hash: hash, v: 28 - signature.recoveryID, r: signature.r, s: highS)
            #expect(Precompiles.run(precompile(1), input: flipped, gasLimit: 3000, fork: .cancun) == .success(gasUsed: 3000, output: expected))
            // Invalid v, r = 0, s = n: empty output, full gas.
            for bad in [
                Self.input(hash: hash, v: 29, r: signature.r, s: signature.s),
                Self.input(hash: hash, v: 0, r: signature.r, s: signature.s),
                Self.input(hash: hash, v: 27, r: .zero, s: signature.s),
                Self.input(hash: hash, v: 27, r: signature.r, s: Secp256k1.curveOrder),
            ] {
                #expect(Precompiles.run(precompile(1), input: bad, gasLimit: 3000, fork: .cancun) == .success(gasUsed: 3000, output: []))
            }
            #expect(Precompiles.run(precompile(1), input: input, gasLimit: 2999, fork: .cancun) == .failure)
        }
        // Short input is zero-padded: v = 0 → invalid.
        #expect(Precompiles.run(precompile(1), input: [1, 2, 3], gasLimit: 3000, fork: .cancun) == .success(gasUsed: 3000, output: []))
    }
}

@Suite struct Blake2FTests {
    @Test func knownAnswers() {
        runKnownAnswers("blake2F.json", 9, KnownAnswers.blake2f, fork: .istanbul).report()
    }

    /// fail-blake2f.json's cases: wrong lengths and a final flag other than 0/1 fail.
    @Test func invalidInputs() {
        let good = hex("0000000c" + KnownAnswers.blake2fBody + "01")
        #expect(Precompiles.run(precompile(9), input: [], gasLimit: 1000, fork: .istanbul) == .failure)
        #expect(Precompiles.run(precompile(9), input: Array(good.dropLast()), gasLimit: 1000, fork: .istanbul) == .failure)
        #expect(Precompiles.run(precompile(9), input: good + [0], gasLimit: 1000, fork: .istanbul) == .failure)
        var badFlag = good
        badFlag[212] = 2
        #expect(Precompiles.run(precompile(9), input: badFlag, gasLimit: 1000, fork: .istanbul) == .failure)
        // 2^32 − 1 rounds costs more than the gas given, so it fails before running.
        var huge = good
        huge[0] = 0xFF; huge[1] = 0xFF; huge[2] = 0xFF; huge[3] = 0xFF
        #expect(Precompiles.run(precompile(9), input: huge, gasLimit: 30_000_000, fork: .istanbul) == .failure)
    }
}
