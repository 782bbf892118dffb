import EVM
import EthereumPrimitives
import TestSupport
import Testing

/// EIP-2537's precompiles at the byte level: encodings (padding, canonical values, infinity, points off
/// the curve or outside the subgroup), lengths, gas, fork activation. geth's vectors are in
/// GethPrecompileVectorTests; here the rules are exercised one by one.
@Suite struct BLS12381PrecompileTests {
    typealias G1 = BLSJacobian<BLSFp>
    typealias G2 = BLSJacobian<BLSFp2>
    typealias T = BLS12381AlgebraTests

    static func run(_ n: UInt16, _ input: [UInt8], gas: UInt64 = 10_000_000, fork: Hardfork = .prague) -> PrecompileResult {
        Precompiles.run(precompile(n), input: input, gasLimit: gas, fork: fork)
    }

    static func output(_ result: PrecompileResult) -> [UInt8]? {
        if case .success(_, let out) = result { return out }
        return nil
    }

    static func reason(_ op: BLS12381Precompiles.Operation, _ input: [UInt8]) -> BLSEncoding.DecodingError? {
        do {
            _ = try BLS12381Precompiles.evaluate(op, input: input)
            return nil
        } catch {
            return error
        }
    }

    static let g1 = BLSEncoding.encode(BLSConstants.g1)
    static let g2 = BLSEncoding.encode(BLSConstants.g2)
    static let zero32 = [UInt8](repeating: 0, count: 32)

    static func scalar(_ k: UInt64) -> [UInt8] { UInt256(k).bigEndianBytes }

    /// A point on E outside G1, and one on E' outside G2.
    static var offSubgroupG1: [UInt8] {
        var g = SplitMix64(seed: 20)
        var p = T.randomPointOnE(&g)
        while BLSEndomorphism.isInSubgroupByOrder(p) { p = T.randomPointOnE(&g) }
        return BLSEncoding.encode(p)
    }

    static var offSubgroupG2: [UInt8] {
        var g = SplitMix64(seed: 21)
        var q = T.randomPointOnTwist(&g)
        while BLSEndomorphism.isInSubgroupByOrder(q) { q = T.randomPointOnTwist(&g) }
        return BLSEncoding.encode(q)
    }

    @Test func activationAndEncodingRoundTrip() {
        #expect(Self.run(0x0B, Self.g1 + Self.g1, fork: .cancun) != Self.run(0x0B, Self.g1 + Self.g1))
        guard case .unsupported = Self.run(0x0B, Self.g1 + Self.g1, fork: .cancun) else {
            Issue.record("0x0b must not exist before Prague")
            return
        }
        // G + infinity = G, G + (−G) = infinity, G + G = 2G (the doubling case of addition).
        let infinity1 = [UInt8](repeating: 0, count: 128)
        #expect(Self.output(Self.run(0x0B, Self.g1 + infinity1)) == Self.g1)
        #expect(Self.output(Self.run(0x0B, infinity1 + infinity1)) == infinity1)
        let minusG = BLSEncoding.encode(BLSConstants.g1.negated)
        #expect(Self.output(Self.run(0x0B, Self.g1 + minusG)) == infinity1)
        #expect(Self.output(Self.run(0x0B, Self.g1 + Self.g1)) == BLSEncoding.encode(G1(BLSConstants.g1).doubled.affine))
        let infinity2 = [UInt8](repeating: 0, count: 256)
        #expect(Self.output(Self.run(0x0D, Self.g2 + infinity2)) == Self.g2)
        #expect(Self.output(Self.run(0x0D, Self.g2 + BLSEncoding.encode(BLSConstants.g2.negated))) == infinity2)
        // MSM k = 1 is the scalar multiplication, and [r]G is infinity.
        #expect(Self.output(Self.run(0x0C, Self.g1 + Self.scalar(5))) == BLSEncoding.encode(G1(BLSConstants.g1).multiplied(by: 5).affine))
        #expect(Self.output(Self.run(0x0C, Self.g1 + BLSConstants.groupOrder.bigEndianBytes)) == infinity1)
        #expect(Self.output(Self.run(0x0E, Self.g2 + Self.scalar(7))) == BLSEncoding.encode(G2(BLSConstants.g2).multiplied(by: 7).affine))
    }

    @Test func fieldEncodingRules() {
        // Non-zero padding in the top 16 bytes of x, in y, and in the map input.
        var padded = Self.g1 + Self.g1
        padded[0] = 1
        #expect(Self.run(0x0B, padded) == .failure)
        #expect(Self.reason(.g1Add, padded) == .nonZeroPadding)
        var paddedY = Self.g1 + Self.g1
        paddedY[64 + 15] = 0x80
        #expect(Self.reason(.g1Add, paddedY) == .nonZeroPadding)
        // x = p (non-canonical encoding of 0) and x = p + 1.
        let pBytes = BLSFp.modulusLimbs.reversed().flatMap { UInt256($0).bigEndianBytes.suffix(8) }
        let pField = [UInt8](repeating: 0, count: 16) + pBytes
        #expect(Self.reason(.mapFpToG1, pField) == .notInField)
        #expect(Self.run(0x10, pField) == .failure)
        var pPlusOne = pField
        pPlusOne[63] += 1
        #expect(Self.reason(.mapFpToG1, pPlusOne) == .notInField)
        var pMinusOne = pField
        pMinusOne[63] -= 1
        #expect(Self.output(Self.run(0x10, pMinusOne))?.count == 128)
        #expect(Self.reason(.mapFp2ToG2, [UInt8](repeating: 0, count: 64) + pField) == .notInField)
        var mapPadding = [UInt8](repeating: 0, count: 64)
        mapPadding[3] = 9
        #expect(Self.reason(.mapFpToG1, mapPadding) == .nonZeroPadding)
    }

    @Test func pointRules() {
        let infinity1 = [UInt8](repeating: 0, count: 128)
        // (0, y) is not infinity: (0, 1) is off the curve, while (0, 2) is on it (2² = 0³ + 4), a point of
        // order 3 that ADD accepts and MSM refuses.
        var zeroXOne = infinity1
        zeroXOne[127] = 1
        #expect(Self.reason(.g1Add, zeroXOne + Self.g1) == .notOnCurve)
        var orderThree = infinity1
        orderThree[127] = 2
        let tripled = Self.output(Self.run(0x0B, orderThree + orderThree)).flatMap { Self.output(Self.run(0x0B, $0 + orderThree)) }
        #expect(tripled == infinity1)
        #expect(Self.reason(.g1MSM, orderThree + Self.zero32) == .notInG1)
        var offCurve = Self.g1
        offCurve[127] ^= 1
        #expect(Self.reason(.g1Add, Self.g1 + offCurve) == .notOnCurve)
        #expect(Self.reason(.g1MSM, offCurve + Self.zero32) == .notOnCurve)
        var offCurve2 = Self.g2
        offCurve2[255] ^= 1
        #expect(Self.reason(.g2Add, offCurve2 + Self.g2) == .notOnCurve)
        #expect(Self.reason(.pairingCheck, Self.g1 + offCurve2) == .notOnCurve)
        // Outside the subgroup: ADD accepts (no subgroup check), MSM and pairing refuse — even with k = 0.
        let outside1 = Self.offSubgroupG1
        let outside2 = Self.offSubgroupG2
        #expect(Self.output(Self.run(0x0B, outside1 + Self.g1)) != nil)
        #expect(Self.output(Self.run(0x0D, outside2 + Self.g2)) != nil)
        #expect(Self.reason(.g1MSM, outside1 + Self.zero32) == .notInG1)
        #expect(Self.reason(.g2MSM, outside2 + Self.zero32) == .notInG2)
        #expect(Self.reason(.pairingCheck, outside1 + Self.g2) == .notInG1)
        #expect(Self.reason(.pairingCheck, Self.g1 + outside2) == .notInG2)
        #expect(Self.run(0x0F, Self.g1 + outside2) == .failure)
    }

    @Test func lengthsAndGas() {
        // Exact lengths: one byte more or less fails; empty MSM and pairing inputs fail.
        for (n, length) in [(UInt16(0x0B), 256), (0x0D, 512), (0x10, 64), (0x11, 128)] {
            let good = [UInt8](repeating: 0, count: length)
            #expect(Self.output(Self.run(n, good)) != nil, "0x\(n) on zeros")
            #expect(Self.run(n, good + [0]) == .failure)
            #expect(Self.run(n, Array(good.dropLast())) == .failure)
        }
        for n: UInt16 in [0x0C, 0x0E, 0x0F] {
            #expect(Self.run(n, []) == .failure)
            #expect(Self.reason(n == 0x0C ? .g1MSM : n == 0x0E ? .g2MSM : .pairingCheck, []) == .invalidLength(0))
        }
        #expect(Self.run(0x0C, Self.g1 + Self.scalar(1) + [0]) == .failure)
        // Gas: MSM k·cost·discount(k)/1000 with each table's cap past 128; pairing 32600k + 37700.
        #expect(BLS12381Precompiles.gas(.g1MSM, inputLength: 160) == 12_000)
        #expect(BLS12381Precompiles.gas(.g1MSM, inputLength: 2 * 160) == 2 * 12_000 * 949 / 1000)
        #expect(BLS12381Precompiles.gas(.g1MSM, inputLength: 128 * 160) == 128 * 12_000 * 519 / 1000)
        #expect(BLS12381Precompiles.gas(.g1MSM, inputLength: 300 * 160 + 5) == 300 * 12_000 * 519 / 1000)
        #expect(BLS12381Precompiles.gas(.g2MSM, inputLength: 2 * 288) == 2 * 22_500)
        #expect(BLS12381Precompiles.gas(.g2MSM, inputLength: 200 * 288) == 200 * 22_500 * 524 / 1000)
        #expect(BLS12381Precompiles.gas(.g1MSM, inputLength: 159) == 0)
        #expect(BLS12381Precompiles.gas(.pairingCheck, inputLength: 0) == 37_700)
        #expect(BLS12381Precompiles.gas(.pairingCheck, inputLength: 2 * 384) == 102_900)
        #expect(BLS12381Precompiles.gas(.mapFp2ToG2, inputLength: 128) == 23_800)
        #expect(BLS12381Precompiles.msmGas(pairs: Int.max, multiplicationGas: 22_500, discounts: BLS12381Precompiles.g2Discounts) == nil)
        // Gas one short fails; exactly enough succeeds and charges it.
        let input = Self.g1 + Self.g2
        #expect(Self.run(0x0F, input, gas: 70_299) == .failure)
        #expect(Self.run(0x0F, input, gas: 70_300) == .success(gasUsed: 70_300, output: Self.zero32))
    }

    @Test func pairingCheckResults() {
        let one = [UInt8](repeating: 0, count: 31) + [1]
        let zero = [UInt8](repeating: 0, count: 32)
        let minusG1 = BLSEncoding.encode(BLSConstants.g1.negated)
        let infinity1 = [UInt8](repeating: 0, count: 128)
        let infinity2 = [UInt8](repeating: 0, count: 256)
        #expect(Self.output(Self.run(0x0F, Self.g1 + Self.g2)) == zero)
        #expect(Self.output(Self.run(0x0F, Self.g1 + Self.g2 + minusG1 + Self.g2)) == one)
        #expect(Self.output(Self.run(0x0F, infinity1 + Self.g2)) == one)
        #expect(Self.output(Self.run(0x0F, Self.g1 + infinity2)) == one)
        // e(2G, 3H)·e(−6G, H) = 1.
        let twoG = BLSEncoding.encode(G1(BLSConstants.g1).multiplied(by: 2).affine)
        let threeH = BLSEncoding.encode(G2(BLSConstants.g2).multiplied(by: 3).affine)
        let minusSixG = BLSEncoding.encode(G1(BLSConstants.g1).multiplied(by: 6).affine.negated)
        #expect(Self.output(Self.run(0x0F, twoG + threeH + minusSixG + Self.g2)) == one)
        #expect(Self.output(Self.run(0x0F, twoG + threeH + minusG1 + Self.g2)) == zero)
    }
}
