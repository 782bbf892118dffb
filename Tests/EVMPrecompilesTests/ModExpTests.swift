import Foundation
import BigInt
import EVM
import EthereumPrimitives
import TestSupport
import Testing

@Suite struct ModExpTests {
    static func word(_ n: UInt64) -> [UInt8] { UInt256(n).bigEndianBytes }

    static func input(_ base: [UInt8], _ exponent: [UInt8], _ modulus: [UInt8]) -> [UInt8] {
        word(UInt64(base.count)) + word(UInt64(exponent.count)) + word(UInt64(modulus.count)) + base + exponent + modulus
    }

    static func output(_ result: PrecompileResult) -> [UInt8]? {
        if case .success(_, let output) = result { return output }
        return nil
    }

    static func gas(_ result: PrecompileResult) -> UInt64? {
        if case .success(let gas, _) = result { return gas }
        return nil
    }

    @Test func knownAnswers() {
        runKnownAnswers("modexp_eip2565.json", 5, KnownAnswers.modexp, fork: .berlin).report()
    }

    /// EIP-198's own examples and pre-Berlin prices (modexp.json), and EIP-7883 prices from Osaka.
    @Test func gasPerFork() {
        let example1 = hex(KnownAnswers.modexp[0].input)
        #expect(Self.gas(Precompiles.run(precompile(5), input: example1, gasLimit: 100_000, fork: .byzantium)) == 13_056)
        #expect(Self.gas(Precompiles.run(precompile(5), input: example1, gasLimit: 100_000, fork: .muirGlacier)) == 13_056)
        #expect(Self.gas(Precompiles.run(precompile(5), input: example1, gasLimit: 100_000, fork: .berlin)) == 1_360)
        // EIP-7883: complexity 16 for ≤ 32 bytes, 255 iterations, no divisor.
        #expect(Self.gas(Precompiles.run(precompile(5), input: example1, gasLimit: 100_000, fork: .osaka)) == 4_080)
        let square = hex(KnownAnswers.modexp[2].input)
        // Before Berlin: 64² = 4096, one iteration, / 20.
        #expect(Self.gas(Precompiles.run(precompile(5), input: square, gasLimit: 100_000, fork: .byzantium)) == 204)
        // Osaka: 2 · 8² = 128 → the minimum of 500.
        #expect(Self.gas(Precompiles.run(precompile(5), input: square, gasLimit: 100_000, fork: .osaka)) == 500)
        // An empty call: 0 before Berlin, 200 from Berlin, 500 from Osaka.
        #expect(Precompiles.run(precompile(5), input: [], gasLimit: 0, fork: .byzantium) == .success(gasUsed: 0, output: []))
        #expect(Precompiles.run(precompile(5), input: [], gasLimit: 200, fork: .berlin) == .success(gasUsed: 200, output: []))
        #expect(Precompiles.run(precompile(5), input: [], gasLimit: 199, fork: .berlin) == .failure)
        #expect(Precompiles.run(precompile(5), input: [], gasLimit: 500, fork: .osaka) == .success(gasUsed: 500, output: []))
        // A long exponent: 8 (16 from Osaka) per byte beyond 32 plus the head's bit length − 1.
        let longExponent = Self.input([2], [0x01] + [UInt8](repeating: 0, count: 39), [7])
        // Head = 0x01 followed by 31 zero bytes: 248 bits; 8·8 + 248 = 312 iterations.
        #expect(Self.gas(Precompiles.run(precompile(5), input: longExponent, gasLimit: 100_000, fork: .berlin)) == 200)
        #expect(Self.gas(Precompiles.run(precompile(5), input: longExponent, gasLimit: 100_000, fork: .byzantium)) == 312 / 20)
        #expect(Self.gas(Precompiles.run(precompile(5), input: longExponent, gasLimit: 100_000, fork: .osaka)) == 16 * (16 * 8 + 248))
    }

    /// Declared lengths far beyond the input are priced from the lengths and never allocated.
    @Test func hugeLengths() {
        let huge = UInt256(1) << 255
        let hugeBase = huge.bigEndianBytes + Self.word(0) + Self.word(1) + [5]
        #expect(Precompiles.run(precompile(5), input: hugeBase, gasLimit: .max, fork: .berlin) == .failure)
        #expect(Precompiles.run(precompile(5), input: hugeBase, gasLimit: .max, fork: .byzantium) == .failure)
        let hugeModulus = Self.word(1) + Self.word(1) + UInt256(UInt64.max).bigEndianBytes
        #expect(Precompiles.run(precompile(5), input: hugeModulus, gasLimit: .max, fork: .berlin) == .failure)
        // A huge exponent with empty base and modulus costs only the minimum and returns nothing.
        let hugeExponent = Self.word(0) + huge.bigEndianBytes + Self.word(0)
        #expect(Precompiles.run(precompile(5), input: hugeExponent, gasLimit: 200, fork: .berlin) == .success(gasUsed: 200, output: []))
        #expect(Precompiles.run(precompile(5), input: hugeExponent, gasLimit: 0, fork: .byzantium) == .success(gasUsed: 0, output: []))
        // … but with a modulus it is priced by its length.
        let hugeExponentWithModulus = Self.word(0) + UInt256(1 << 40).bigEndianBytes + Self.word(1) + [0x01, 0x02]
        #expect(Precompiles.run(precompile(5), input: hugeExponentWithModulus, gasLimit: 100_000_000, fork: .berlin) == .failure)
        // EIP-7823 from Osaka: any length above 1024 fails, whatever the gas.
        let tooLong = Self.input([UInt8](repeating: 1, count: 1025), [1], [3])
        #expect(Precompiles.run(precompile(5), input: tooLong, gasLimit: .max, fork: .osaka) == .failure)
        #expect(Self.output(Precompiles.run(precompile(5), input: tooLong, gasLimit: .max, fork: .prague)) == [2])  // 0x0101…01 ≡ 1025 ≡ 2 (mod 3)
    }

    @Test func edgeCases() {
        // Zero modulus: zeros of the modulus's length.
        #expect(Self.output(Precompiles.run(precompile(5), input: Self.input([3], [5], [0, 0, 0]), gasLimit: 10_000, fork: .berlin)) == [0, 0, 0])
        // Modulus 1: zero; x^0 = 1; 0^0 = 1.
        #expect(Self.output(Precompiles.run(precompile(5), input: Self.input([3], [0], [0, 1]), gasLimit: 10_000, fork: .berlin)) == [0, 0])
        #expect(Self.output(Precompiles.run(precompile(5), input: Self.input([3], [0], [0, 7]), gasLimit: 10_000, fork: .berlin)) == [0, 1])
        #expect(Self.output(Precompiles.run(precompile(5), input: Self.input([], [], [0, 7]), gasLimit: 10_000, fork: .berlin)) == [0, 1])
        #expect(Self.output(Precompiles.run(precompile(5), input: Self.input([0], [3], [9]), gasLimit: 10_000, fork: .berlin)) == [0])
        // Truncated input is zero-padded: base 2, exponent (missing → 0) → 1 mod 5.
        let truncated = Self.word(1) + Self.word(1) + Self.word(1) + [2]
        #expect(Self.output(Precompiles.run(precompile(5), input: truncated, gasLimit: 10_000, fork: .berlin)) == [0])
        // Base [2], exponent [3, (pad) 0], modulus [(pad) 0]: a zero modulus.
        let truncatedExponent = Self.word(1) + Self.word(2) + Self.word(1) + [2, 3]
        #expect(Self.output(Precompiles.run(precompile(5), input: truncatedExponent, gasLimit: 10_000, fork: .berlin)) == [0])
    }

    /// base^exp mod m with UInt256 square-and-multiply, for moduli up to 32 bytes.
    static func reference256(_ base: UInt256, _ exponent: UInt256, _ modulus: UInt256) -> UInt256 {
        if modulus.isZero { return .zero }
        var result = UInt256(1) % modulus
        var b = base % modulus
        for i in 0..<exponent.significantBitCount {
            if exponent.bit(i) { result = UInt512.product(result, b).remainder(dividingBy: modulus) }
            b = UInt512.product(b, b).remainder(dividingBy: modulus)
        }
        return result
    }

    @Test func gmpAgreesWithUInt256Reference() {
        var g = SplitMix64(seed: 11)
        for _ in 0..<300 {
            let bl = Int(g.next() % 33), el = Int(g.next() % 33), ml = Int(g.next() % 33)
            let base = g.bytes(bl), exponent = g.bytes(el), modulus = g.bytes(ml)
            guard let out = Self.output(Precompiles.run(precompile(5), input: Self.input(base, exponent, modulus), gasLimit: 10_000_000, fork: .cancun)) else {
                Issue.record("failed for \(base) \(exponent) \(modulus)")
                continue
            }
            let expected = Self.reference256(
                UInt256(truncatingBigEndian: base), UInt256(truncatingBigEndian: exponent), UInt256(truncatingBigEndian: modulus))
            #expect(out == Array(expected.bigEndianBytes.suffix(ml)), "base \(base.hexString) exp \(exponent.hexString) mod \(modulus.hexString)")
        }
    }

    /// Larger operands against attaswift/BigInt's `power(_:modulus:)`.
    @Test func gmpAgreesWithBigIntReference() {
        var g = SplitMix64(seed: 12)
        for _ in 0..<40 {
            let bl = Int(g.next() % 200), el = Int(g.next() % 40), ml = Int(g.next() % 200) + 1
            let base = g.bytes(bl), exponent = g.bytes(el), modulus = g.bytes(ml)
            guard let out = Self.output(Precompiles.run(precompile(5), input: Self.input(base, exponent, modulus), gasLimit: 100_000_000, fork: .cancun)) else {
                Issue.record("failed")
                continue
            }
            let m = BigUInt(Data(modulus))
            var expected = [UInt8](repeating: 0, count: ml)
            if !m.isZero {
                let r = m == 1 ? BigUInt(0) : BigUInt(Data(base)).power(BigUInt(Data(exponent)), modulus: m)
                let bytes = [UInt8](r.serialize())
                expected.replaceSubrange((ml - bytes.count)..<ml, with: bytes)
            }
            #expect(out == expected)
        }
    }
}
