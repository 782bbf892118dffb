import EVM
import EthereumPrimitives
import TestSupport
import Testing

@Suite struct BN254PrecompileTests {
    @Test func knownAnswers() {
        runKnownAnswers("bn256Add.json", 6, KnownAnswers.bn254Add, fork: .istanbul).report()
        runKnownAnswers("bn256ScalarMul.json", 7, KnownAnswers.bn254Mul, fork: .istanbul).report()
        runKnownAnswers("bn256Pairing.json", 8, KnownAnswers.bn254Pairing, fork: .istanbul).report()
    }

    /// EIP-196/197 prices before Istanbul, EIP-1108 prices from Istanbul.
    @Test func gasPerFork() {
        let g1 = hex(KnownAnswers.g1Generator)
        #expect(Precompiles.run(precompile(6), input: g1 + g1, gasLimit: 500, fork: .byzantium) != .failure)
        #expect(Precompiles.run(precompile(6), input: g1 + g1, gasLimit: 499, fork: .byzantium) == .failure)
        #expect(Precompiles.run(precompile(6), input: g1 + g1, gasLimit: 150, fork: .istanbul) != .failure)
        #expect(Precompiles.run(precompile(7), input: g1 + UInt256(3).bigEndianBytes, gasLimit: 39_999, fork: .petersburg) == .failure)
        guard case .success(let mulGas, _) = Precompiles.run(precompile(7), input: g1, gasLimit: 40_000, fork: .byzantium),
            case .success(let pairGas, let out) = Precompiles.run(
                precompile(8), input: hex(KnownAnswers.bn254Pairing[4].input), gasLimit: 1_000_000, fork: .byzantium)
        else {
            Issue.record("unexpected failure")
            return
        }
        #expect(mulGas == 40_000)
        #expect(pairGas == 100_000 + 2 * 80_000)
        #expect(out.last == 1)
        #expect(Precompiles.run(precompile(8), input: [], gasLimit: 99_999, fork: .byzantium) == .failure)
    }

    @Test func invalidPoints() {
        let p = BN254Fp.modulus.bigEndianBytes
        let one = UInt256(1).bigEndianBytes, two = UInt256(2).bigEndianBytes, three = UInt256(3).bigEndianBytes
        let g1 = one + two
        // Coordinate equal to p (even though p ≡ 0 would be "on the curve" as (0, 0)... it is not canonical).
        #expect(Precompiles.run(precompile(6), input: p + two + g1, gasLimit: 150, fork: .istanbul) == .failure)
        #expect(Precompiles.run(precompile(6), input: g1 + one + p, gasLimit: 150, fork: .istanbul) == .failure)
        // (1, 3) is not on y² = x³ + 3.
        #expect(Precompiles.run(precompile(6), input: one + three + g1, gasLimit: 150, fork: .istanbul) == .failure)
        #expect(Precompiles.run(precompile(7), input: one + three + one, gasLimit: 6000, fork: .istanbul) == .failure)
        // Scalar multiplication: by 0 and by r gives infinity; a large scalar is not reduced first but gives the same point.
        let zeros = [UInt8](repeating: 0, count: 64)
        #expect(Precompiles.run(precompile(7), input: g1 + UInt256.zero.bigEndianBytes, gasLimit: 6000, fork: .istanbul) == .success(gasUsed: 6000, output: zeros))
        let r = UInt256(limbs: (0x43E1_F593_F000_0001, 0x2833_E848_79B9_7091, 0xB850_45B6_8181_585D, 0x3064_4E72_E131_A029))
        #expect(Precompiles.run(precompile(7), input: g1 + r.bigEndianBytes, gasLimit: 6000, fork: .istanbul) == .success(gasUsed: 6000, output: zeros))
        #expect(
            Precompiles.run(precompile(7), input: g1 + (r + UInt256(2)).bigEndianBytes, gasLimit: 6000, fork: .istanbul)
                == Precompiles.run(precompile(6), input: g1 + g1, gasLimit: 6000, fork: .istanbul).withGas(6000))

        // Pairing: a length that is not a multiple of 192 fails; so do invalid G1 or G2 points even when
        // the other point of the pair is infinity.
        let g2 = hex(KnownAnswers.g2Generator)
        #expect(Precompiles.run(precompile(8), input: g1 + g2 + [0], gasLimit: 1_000_000, fork: .istanbul) == .failure)
        #expect(Precompiles.run(precompile(8), input: Array((g1 + g2).dropLast()), gasLimit: 1_000_000, fork: .istanbul) == .failure)
        #expect(Precompiles.run(precompile(8), input: one + three + [UInt8](repeating: 0, count: 128), gasLimit: 1_000_000, fork: .istanbul) == .failure)
        var badG2 = g2
        badG2[127] ^= 1
        #expect(Precompiles.run(precompile(8), input: zeros + badG2, gasLimit: 1_000_000, fork: .istanbul) == .failure)
        var g2CoordinateTooBig = g2
        g2CoordinateTooBig.replaceSubrange(0..<32, with: p)
        #expect(Precompiles.run(precompile(8), input: g1 + g2CoordinateTooBig, gasLimit: 1_000_000, fork: .istanbul) == .failure)
        // A point on the twist outside the order-r subgroup.
        let outside = Self.twistPointOutsideSubgroup()
        #expect(BN254G2.isOnCurve(x: outside.x, y: outside.y))
        #expect(!BN254G2(affineX: outside.x, y: outside.y).isInSubgroup)
        let encoded = outside.x.c1.value.bigEndianBytes + outside.x.c0.value.bigEndianBytes
            + outside.y.c1.value.bigEndianBytes + outside.y.c0.value.bigEndianBytes
        #expect(Precompiles.run(precompile(8), input: g1 + encoded, gasLimit: 1_000_000, fork: .istanbul) == .failure)
        // Infinity pairs are valid and contribute 1.
        let all0 = [UInt8](repeating: 0, count: 192)
        #expect(Precompiles.run(precompile(8), input: all0 + zeros + g2, gasLimit: 1_000_000, fork: .istanbul)
            == .success(gasUsed: 45_000 + 2 * 34_000, output: UInt256(1).bigEndianBytes))
    }

    /// Square root in F_p² (p ≡ 3 mod 4; Adj and Rodríguez-Henríquez, algorithm 9), or nil.
    static func sqrt(_ a: BN254Fp2) -> BN254Fp2? {
        let p = BN254Fp.modulus
        let a1 = a.power((p - UInt256(3)) / UInt256(4))
        let alpha = a1.squared * a
        let a0 = alpha.conjugate * alpha
        if a0 == -BN254Fp2.one { return nil }
        let x0 = a1 * a
        let root: BN254Fp2
        if alpha == -BN254Fp2.one {
            root = BN254Fp2(.zero, .one) * x0
        } else {
            root = (BN254Fp2.one + alpha).power((p - UInt256(1)) / UInt256(2)) * x0
        }
        return root.squared == a ? root : nil
    }

    static func twistPointOutsideSubgroup() -> (x: BN254Fp2, y: BN254Fp2) {
        var c: UInt64 = 1
        while true {
            let x = BN254Fp2(BN254Fp(small: c), .one)
            if let y = sqrt(x.squared * x + BN254Fp2.curveB) { return (x, y) }
            c += 1
        }
    }

    /// Random scalars: ADD and MUL agree with each other and with the group law.
    @Test func addAndMulAgree() {
        var g = SplitMix64(seed: 21)
        let g1 = hex(KnownAnswers.g1Generator)
        for _ in 0..<10 {
            let a = UInt256(limbs: (g.next(), g.next(), g.next(), g.next()))
            let b = UInt256(limbs: (g.next(), g.next(), 0, 0))
            guard case .success(_, let aG) = Precompiles.run(precompile(7), input: g1 + a.bigEndianBytes, gasLimit: 6000, fork: .cancun),
                case .success(_, let bG) = Precompiles.run(precompile(7), input: g1 + b.bigEndianBytes, gasLimit: 6000, fork: .cancun),
                case .success(_, let sum) = Precompiles.run(precompile(6), input: aG + bG, gasLimit: 150, fork: .cancun),
                case .success(_, let direct) = Precompiles.run(precompile(7), input: aG + UInt256(1).bigEndianBytes, gasLimit: 6000, fork: .cancun),
                case .success(_, let bAG) = Precompiles.run(precompile(7), input: aG + b.bigEndianBytes, gasLimit: 6000, fork: .cancun),
                case .success(_, let aBG) = Precompiles.run(precompile(7), input: bG + a.bigEndianBytes, gasLimit: 6000, fork: .cancun)
            else {
                Issue.record("unexpected failure")
                return
            }
            #expect(direct == aG)
            #expect(bAG == aBG)
            // e(aG + bG, H) · e(−aG, H) · e(−bG, H) = 1
            let h = hex(KnownAnswers.g2Generator)
            func negate(_ point: [UInt8]) -> [UInt8] {
                let y = UInt256(truncatingBigEndian: point[32..<64])
                return Array(point[0..<32]) + (y.isZero ? y : BN254Fp.modulus - y).bigEndianBytes
            }
            let input = sum + h + negate(aG) + h + negate(bG) + h
            #expect(Precompiles.run(precompile(8), input: input, gasLimit: 1_000_000, fork: .cancun)
                == .success(gasUsed: 45_000 + 3 * 34_000, output: UInt256(1).bigEndianBytes))
        }
    }
}

extension PrecompileResult {
    /// The same result with its gas replaced (to compare outputs across precompiles).
    func withGas(_ gas: UInt64) -> PrecompileResult {
        if case .success(_, let output) = self { return .success(gasUsed: gas, output: output) }
        return self
    }
}
