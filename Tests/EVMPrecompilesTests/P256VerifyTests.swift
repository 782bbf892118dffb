import EVM
import EthereumPrimitives
import TestSupport
import Testing

/// EIP-7951's rules one by one (geth's 782 vectors run in GethPrecompileVectorTests): refusals are
/// empty output at full gas, not exceptions; only too little gas fails the call; Osaka only.
@Suite struct P256VerifyTests {
    /// geth's p256Verify.json "CallP256Verify": hash ‖ r ‖ s ‖ qx ‖ qy of a valid signature.
    static let valid = hex(
        "4cee90eb86eaa050036147a12d49004b6b9c72bd725d39d4785011fe190f0b4d"
            + "a73bd4903f0ce3b639bbbf6e8e80d16931ff4bcf5993d58468e8fb19086e8cac"
            + "36dbcd03009df8c59286b162af3bd7fcc0450c9aa81be5d10d312af6c66b1d60"
            + "4aebd3099c618202fcfe16ae7770b0c49ab5eadf74b754204a3bb6060e44eff3"
            + "7618b065f9832de4ca6ca971a7a1adc826d0f7c00181a5fb2ddf79ae00b4e10e")
    static let n = "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551"
    static let p = "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff"
    static let one = [UInt8](repeating: 0, count: 31) + [1]

    static func run(_ input: [UInt8], gas: UInt64 = 10_000, fork: Hardfork = .osaka) -> PrecompileResult {
        Precompiles.run(precompile(0x100), input: input, gasLimit: gas, fork: fork)
    }

    /// `valid` with the 32-byte word `index` (0 hash, 1 r, 2 s, 3 qx, 4 qy) replaced.
    static func replacing(_ index: Int, with word: String) -> [UInt8] {
        var input = valid
        input.replaceSubrange((32 * index)..<(32 * index + 32), with: hex(word))
        return input
    }

    static let refused = PrecompileResult.success(gasUsed: 6_900, output: [])

    @Test func validSignatureAndGas() {
        #expect(Self.run(Self.valid) == .success(gasUsed: 6_900, output: Self.one))
        #expect(Self.run(Self.valid, gas: 6_900) == .success(gasUsed: 6_900, output: Self.one))
        // Too little gas is the only exception.
        #expect(Self.run(Self.valid, gas: 6_899) == .failure)
        #expect(Self.run([], gas: 6_899) == .failure)
        // Osaka only.
        guard case .unsupported = Self.run(Self.valid, fork: .prague) else {
            Issue.record("0x100 must not exist before Osaka")
            return
        }
    }

    @Test func refusalsReturnEmptyOutput() {
        // Wrong lengths.
        #expect(Self.run([]) == Self.refused)
        #expect(Self.run(Self.valid + [0]) == Self.refused)
        #expect(Self.run(Array(Self.valid.dropLast())) == Self.refused)
        // Another hash, r or s: a well-formed signature that does not verify.
        var otherHash = Self.valid
        otherHash[0] ^= 1
        #expect(Self.run(otherHash) == Self.refused)
        // r, s out of [1, n).
        let zero = String(repeating: "0", count: 64)
        #expect(Self.run(Self.replacing(1, with: zero)) == Self.refused)
        #expect(Self.run(Self.replacing(2, with: zero)) == Self.refused)
        #expect(Self.run(Self.replacing(1, with: Self.n)) == Self.refused)
        #expect(Self.run(Self.replacing(2, with: Self.n)) == Self.refused)
        // qx, qy ≥ p, the (0, 0) infinity encoding, and a point off the curve.
        #expect(Self.run(Self.replacing(3, with: Self.p)) == Self.refused)
        #expect(Self.run(Self.replacing(4, with: Self.p)) == Self.refused)
        var infinity = Self.valid
        infinity.replaceSubrange(96..<160, with: [UInt8](repeating: 0, count: 64))
        #expect(Self.run(infinity) == Self.refused)
        var offCurve = Self.valid
        offCurve[159] ^= 1
        #expect(Self.run(offCurve) == Self.refused)
    }
}
