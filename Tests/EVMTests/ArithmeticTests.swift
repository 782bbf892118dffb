import EVM
import EthereumPrimitives
import Testing

/// Arithmetic, comparison and bitwise instructions through the interpreter.
@Suite struct ArithmeticTests {
    let max = UInt256.max
    let minSigned: UInt256 = UInt256.one << 255  // −2^255

    @Test func addSubMulWrap() {
        #expect(EVMTest.apply(0x01, [max, UInt256(2)]) == UInt256(1))
        #expect(EVMTest.apply(0x03, [UInt256(1), UInt256(2)]) == max)  // 1 − 2
        #expect(EVMTest.apply(0x02, [max, max]) == UInt256(1))
    }

    @Test func divisionByZeroIsZero() {
        for op: UInt8 in [0x04, 0x05, 0x06, 0x07] {
            #expect(EVMTest.apply(op, [UInt256(7), .zero]) == .zero)
        }
        #expect(EVMTest.apply(0x08, [UInt256(5), UInt256(6), .zero]) == .zero)  // ADDMOD n = 0
        #expect(EVMTest.apply(0x09, [UInt256(5), UInt256(6), .zero]) == .zero)  // MULMOD n = 0
    }

    @Test func signedDivisionAndModulo() {
        let minusOne = max
        #expect(EVMTest.apply(0x05, [minSigned, minusOne]) == minSigned)  // −2^255 / −1 overflows to itself
        #expect(EVMTest.apply(0x05, [UInt256(7).negated, UInt256(2)]) == UInt256(3).negated)  // rounds toward zero
        #expect(EVMTest.apply(0x07, [UInt256(7).negated, UInt256(3)]) == UInt256(1).negated)  // sign of dividend
    }

    @Test func modularArithmeticUsesFullWidth() {
        #expect(EVMTest.apply(0x08, [max, max, UInt256(10)]) == UInt256(0))  // (2^257 − 2) mod 10 = 0
        #expect(EVMTest.apply(0x09, [max, max, UInt256(12)]) == UInt256(9))  // (2^256 − 1)^2 mod 12
    }

    @Test func expGasPerExponentByte() {
        // PUSH2 0x0100 (exponent, 2 bytes) PUSH1 2 EXP: 3 + 3 + 10 + 2·50 = 116 under Spurious Dragon+.
        let code = EVMTest.hex("0x61010060020a00")
        #expect(EVMTest.run(code, fork: .cancun).result.gasLeft == 1_000_000 - 116)
        #expect(EVMTest.run(code, fork: .homestead).result.gasLeft == 1_000_000 - 36)  // 10 per byte before EIP-160
        #expect(EVMTest.apply(0x0a, [UInt256(2), UInt256(255)]) == minSigned)
        #expect(EVMTest.apply(0x0a, [UInt256(3), UInt256(0)]) == UInt256(1))
    }

    @Test func signExtendAndByte() {
        #expect(EVMTest.apply(0x0b, [.zero, UInt256(0xff)]) == max)
        #expect(EVMTest.apply(0x0b, [.zero, UInt256(0x7f)]) == UInt256(0x7f))
        #expect(EVMTest.apply(0x0b, [UInt256(31), UInt256(0x80)]) == UInt256(0x80))
        #expect(EVMTest.apply(0x1a, [UInt256(31), UInt256(0xabcd)]) == UInt256(0xcd))
        #expect(EVMTest.apply(0x1a, [UInt256(32), UInt256(0xabcd)]) == .zero)
    }

    @Test func comparisons() {
        #expect(EVMTest.apply(0x10, [UInt256(1), UInt256(2)]) == .one)  // LT
        #expect(EVMTest.apply(0x12, [max, UInt256(1)]) == .one)  // SLT: −1 < 1
        #expect(EVMTest.apply(0x13, [max, UInt256(1)]) == .zero)  // SGT
        #expect(EVMTest.apply(0x14, [max, max]) == .one)  // EQ
        #expect(EVMTest.apply(0x15, [.zero]) == .one)  // ISZERO
    }

    /// EIP-145's examples.
    @Test func shifts() {
        #expect(EVMTest.apply(0x1b, [UInt256(1), UInt256(1)]) == UInt256(2))  // SHL
        #expect(EVMTest.apply(0x1b, [UInt256(256), UInt256(1)]) == .zero)
        #expect(EVMTest.apply(0x1c, [UInt256(255), minSigned]) == UInt256(1))  // SHR
        #expect(EVMTest.apply(0x1d, [UInt256(255), minSigned]) == max)  // SAR
        #expect(EVMTest.apply(0x1d, [UInt256(256), UInt256(0x7fff)]) == .zero)
        #expect(EVMTest.apply(0x1b, [UInt256(1), UInt256(1)], fork: .byzantium) == nil)  // undefined before Constantinople
    }

    @Test func clzInOsaka() {
        #expect(EVMTest.apply(0x1e, [.zero], fork: .osaka) == UInt256(256))
        #expect(EVMTest.apply(0x1e, [UInt256(1)], fork: .osaka) == UInt256(255))
        #expect(EVMTest.apply(0x1e, [UInt256(1)], fork: .cancun) == nil)
    }
}
