import EVM
import EthereumPrimitives
import Foundation
import Testing
import TestSupport

/// BLS12-381 arithmetic, the pairing and the EIP-4844 point evaluation precompile (0x0a). The EIP-4844
/// state tests (`make statetests`) run it too; here: algebraic properties, the encodings, and
/// c-kzg-4844 (PyPI `ckzg`) as an independent implementation.
@Suite struct PointEvaluationTests {
    typealias G1 = BLSJacobian<BLSFp>
    typealias G2 = BLSJacobian<BLSFp2>

    static let r = BLSConstants.groupOrder

    /// The ZCash compressed encoding of a G2 point: x.c1 ‖ x.c0 with the flags in the first byte.
    func compress(_ p: BLSAffine<BLSFp2>) -> [UInt8] {
        if p.isInfinity { return [0xC0] + [UInt8](repeating: 0, count: 95) }
        let yLargest = p.y.c1.isZero ? p.y.c0.isLexicographicallyLargest : p.y.c1.isLexicographicallyLargest
        var out = p.x.c1.bigEndianBytes + p.x.c0.bigEndianBytes
        out[0] |= 0x80 | (yLargest ? 0x20 : 0)
        return out
    }

    func compress(_ p: BLSAffine<BLSFp>) -> [UInt8] {
        if p.isInfinity { return [0xC0] + [UInt8](repeating: 0, count: 47) }
        var out = p.x.bigEndianBytes
        out[0] |= 0x80 | (p.y.isLexicographicallyLargest ? 0x20 : 0)
        return out
    }

    func pairing(_ p: BLSAffine<BLSFp>, _ q: BLSAffine<BLSFp2>) -> BLSFp12 {
        BLSPairing.finalExponentiation(BLSPairing.millerLoop(p, q))
    }

    @Test func fieldArithmetic() throws {
        let a = BLSFp(small: 12345)
        let b = BLSFp(small: 678)
        #expect(a * b == BLSFp(small: 12345 * 678))
        #expect(a + b - b == a)
        #expect(a * a.inverse == .one)
        #expect((b - a) + a == b)
        #expect(BLSFp.zero.inverse == .zero)
        let sq = try #require(BLSFp(small: 49).squareRoot)
        #expect(sq == BLSFp(small: 7) || sq == -BLSFp(small: 7))
        #expect(BLSFp(small: 5).squareRoot == nil || BLSFp(small: 5).squareRoot!.squared == BLSFp(small: 5))
        let x = BLSFp2(a, b)
        #expect(x * x.inverse == .one)
        #expect(x.squared == x * x)
        let y = BLSFp6(x, x.squared, BLSFp2(b, a))
        #expect(y * y.inverse == .one)
        let z = BLSFp12(y, BLSFp6(x, .zero, x))
        #expect(z * z.inverse == .one)
        #expect(BLSFp12.w * BLSFp12.w == BLSFp12(BLSFp6(.zero, .one, .zero), .zero))  // w² = v
        // Round trip through bytes, and x ≥ p refused.
        #expect(BLSFp(bigEndian: a.bigEndianBytes) == a)
        let p: [UInt8] = try Hex.decode(
            "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab")
        #expect(BLSFp(bigEndian: p) == nil)
    }

    @Test func generatorsAndSetupPointAreInTheGroups() throws {
        for p in [BLSConstants.g1] {
            #expect(!p.isInfinity && p.isOnCurve)
            #expect(G1(p).multiplied(by: Self.r).isInfinity)
        }
        for q in [BLSConstants.g2, BLSConstants.tauG2] {
            #expect(!q.isInfinity && q.isOnCurve)
            #expect(G2(q).multiplied(by: Self.r).isInfinity)
        }
        // The ceremony's compressed [τ]₂ (trusted_setup.txt, G2 point 1) and the compressed generators.
        #expect(Hex.encode(compress(BLSConstants.tauG2), prefix: false)
            == "b5bfd7dd8cdeb128843bc287230af38926187075cbfbefa81009a2ce615ac53d2914e5870cb452d2afaaab24f3499f72"
            + "185cbfee53492714734429b7b38608e23926c911cceceac9a36851477ba4c60b087041de621000edc98edada20c1def2")
        #expect(Hex.encode(compress(BLSConstants.g1), prefix: false)
            == "97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb")
    }

    @Test func pairingIsBilinearAndNonDegenerate() {
        let a = UInt256(0x1234_5678_9ABC)
        let b = UInt256(0xFEDC_BA98)
        let p = BLSConstants.g1
        let q = BLSConstants.g2
        let base = pairing(p, q)
        #expect(base != .one)
        let aP = G1(p).multiplied(by: a).affine
        let bQ = G2(q).multiplied(by: b).affine
        let lhs = pairing(aP, bQ)
        #expect(lhs == pairing(G1(p).multiplied(by: a &* b).affine, q))
        #expect(lhs == pairing(p, G2(q).multiplied(by: a &* b).affine))
        // e([a]P, Q)·e(−P, [a]Q) = 1, and not with a + 1.
        let aQ = G2(q).multiplied(by: a).affine
        #expect(BLSPairing.productIsOne([(aP, q), (p.negated, aQ)]))
        let a1Q = G2(q).multiplied(by: a &+ 1).affine
        #expect(!BLSPairing.productIsOne([(aP, q), (p.negated, a1Q)]))
        // Infinity contributes one.
        #expect(BLSPairing.productIsOne([(.infinity, q), (p, .infinity)]))
    }

    @Test func compressedG1Decoding() throws {
        let g = BLSConstants.g1
        #expect(PointEvaluation.decompressG1(compress(g)) == g)
        #expect(PointEvaluation.decompressG1(compress(g.negated)) == g.negated)
        let g5 = G1(g).multiplied(by: UInt256(5)).affine
        #expect(PointEvaluation.decompressG1(compress(g5)) == g5)
        #expect(PointEvaluation.decompressG1([0xC0] + [UInt8](repeating: 0, count: 47))?.isInfinity == true)

        var uncompressedFlag = compress(g)
        uncompressedFlag[0] &= 0x7F
        #expect(PointEvaluation.decompressG1(uncompressedFlag) == nil)
        #expect(PointEvaluation.decompressG1([0xE0] + [UInt8](repeating: 0, count: 47)) == nil)  // infinity with sign
        #expect(PointEvaluation.decompressG1([0xC0] + [UInt8](repeating: 0, count: 46) + [1]) == nil)  // infinity with x
        #expect(PointEvaluation.decompressG1(Array(compress(g).dropLast())) == nil)
        // x = p, and the first x ≥ 1 on the curve that is not in the subgroup.
        var xIsP = try Hex.decode(
            "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab")
        xIsP[0] |= 0x80
        #expect(PointEvaluation.decompressG1(xIsP) == nil)
        var x: UInt64 = 1
        while (BLSFp(small: x).squared * BLSFp(small: x) + BLSFp.curveB).squareRoot == nil { x += 1 }
        var encoded = BLSFp(small: x).bigEndianBytes
        encoded[0] |= 0x80
        #expect(PointEvaluation.decompressG1(encoded) == nil, "x = \(x) is on the curve but outside G1")
    }

    @Test func precompileAgainstCKZG() throws {
        guard
            let data = try PythonVenv.run(
                script: "kzg_vectors.py", input: Data(), arguments: ["4", "4844"], what: "point evaluation vs ckzg")
        else { return }
        let document = try JSONValue(parsing: [UInt8](data))
        // The constants the Swift side carries, against the ones ckzg's setup and Python's integers give.
        #expect(document["tauG2"]?.stringValue == Hex.encode(compress(BLSConstants.tauG2), prefix: false))
        #expect(BLSConstants.limbs(hex: document["hardExponent"]?.stringValue ?? "") == BLSPairing.hardExponent)
        let cases = try #require(document["cases"]?.arrayValue)
        var tally = ConformanceTally(suite: "Point evaluation vs ckzg")
        var validCount = 0
        for item in cases {
            let what = item["what"]?.stringValue ?? "?"
            let input = try Hex.decode(try #require(item["input"]?.stringValue))
            let valid = item["valid"] == .bool(true)
            if valid { validCount += 1 }
            let result = Precompiles.run(Address(uint32: 0x0A), input: input, gasLimit: 60_000, fork: .cancun)
            let expected: PrecompileResult =
                valid
                ? .success(
                    gasUsed: 50_000,
                    output: UInt256(4096).bigEndianBytes + BLSConstants.groupOrder.bigEndianBytes)
                : .failure
            tally.check(result == expected, what, "expected \(valid ? "success" : "failure"), got \(result)")
        }
        tally.report()
        #expect(validCount >= 5 && cases.count > validCount)
    }

    @Test func gasAndLengthRules() {
        let infinity = [0xC0] + [UInt8](repeating: 0, count: 47)
        guard case .success(_, var hash) = Precompiles.run(Address(uint32: 0x02), input: infinity, gasLimit: 1_000, fork: .cancun)
        else {
            Issue.record("sha256 precompile failed")
            return
        }
        hash[0] = 0x01
        let input = hash + [UInt8](repeating: 0, count: 64) + infinity + infinity
        let ok = Precompiles.run(Address(uint32: 0x0A), input: input, gasLimit: 50_000, fork: .cancun)
        if case .success(let gas, let output) = ok {
            #expect(gas == 50_000 && output.count == 64)
        } else {
            Issue.record("infinity/infinity at y = 0 should verify, got \(ok)")
        }
        #expect(Precompiles.run(Address(uint32: 0x0A), input: input, gasLimit: 49_999, fork: .cancun) == .failure)
        #expect(Precompiles.run(Address(uint32: 0x0A), input: input + [0], gasLimit: 60_000, fork: .cancun) == .failure)
        #expect(Precompiles.run(Address(uint32: 0x0A), input: Array(input.dropLast()), gasLimit: 60_000, fork: .cancun) == .failure)
        // z = r is out of range.
        var zIsR = input
        zIsR.replaceSubrange(32..<64, with: BLSConstants.groupOrder.bigEndianBytes)
        #expect(Precompiles.run(Address(uint32: 0x0A), input: zIsR, gasLimit: 60_000, fork: .cancun) == .failure)
    }
}
