// Property tests of UInt256's EVM-semantics operations against BigInt, plus fixed vectors.

import BigInt
import EthereumPrimitives
import Testing

@Suite struct UInt256EVMTests {
    static let minSigned = UInt256.one << 255  // −2^255
    static let minusOne = UInt256.max

    @Test func unsignedDivisionByZeroIsZero() {
        var gen = ValueGenerator(seed: 0xD0)
        var check = PropertyCheck("evmDiv/evmMod")
        for _ in 0..<propertyCases {
            let a = gen.next(), b = gen.next()
            let (q, r) = b.isZero ? (BigUInt(0), BigUInt(0)) : a.big.quotientAndRemainder(dividingBy: b.big)
            check.expect(a.evmDiv(b) == UInt256(reference: q), "evmDiv(\(a.h), \(b.h))")
            check.expect(a.evmMod(b) == UInt256(reference: r), "evmMod(\(a.h), \(b.h))")
            check.expect(a.evmDiv(.zero) == .zero && a.evmMod(.zero) == .zero, "by zero, \(a.h)")
        }
        check.finish()
    }

    @Test func signedDivisionMatchesReference() {
        var gen = ValueGenerator(seed: 0x5D1)
        var check = PropertyCheck("sdiv/smod")
        for _ in 0..<propertyCases {
            let a = gen.next(), b = gen.next()
            let (x, y) = (a.signedBig, b.signedBig)
            // BigInt's / truncates toward zero and % takes the dividend's sign: the EVM's rules.
            let q = y == 0 ? 0 : x / y
            let r = y == 0 ? 0 : x % y
            check.expect(a.sdiv(b) == UInt256(reference: q), "sdiv(\(a.h), \(b.h)) = \(a.sdiv(b).h)")
            check.expect(a.smod(b) == UInt256(reference: r), "smod(\(a.h), \(b.h)) = \(a.smod(b).h)")
        }
        check.finish()
    }

    @Test func signedDivisionEdgeCases() {
        let m = Self.minSigned
        #expect(m.sdiv(Self.minusOne) == m)  // overflows back to −2^255
        #expect(m.smod(Self.minusOne) == .zero)
        #expect(UInt256(7).negated.sdiv(2) == UInt256(3).negated)
        #expect(UInt256(7).sdiv(UInt256(2).negated) == UInt256(3).negated)
        #expect(UInt256(7).negated.smod(3) == UInt256(1).negated)
        #expect(UInt256(7).smod(UInt256(3).negated) == 1)
        #expect(UInt256(7).negated.sdiv(.zero) == .zero && UInt256(7).negated.smod(.zero) == .zero)
        #expect(m.absoluteValue == m && Self.minusOne.absoluteValue == 1 && UInt256(5).absoluteValue == 5)
        #expect(UInt256.zero.negated == .zero && UInt256.one.negated == .max)
    }

    @Test func addmodAndMulmodMatchReference() {
        var gen = ValueGenerator(seed: 0x30D)
        var check = PropertyCheck("addmod/mulmod")
        for _ in 0..<propertyCases {
            let a = gen.next(), b = gen.next(), n = gen.next()
            let add = n.isZero ? BigUInt(0) : (a.big + b.big) % n.big
            let mul = n.isZero ? BigUInt(0) : (a.big * b.big) % n.big
            check.expect(UInt256.addmod(a, b, n) == UInt256(reference: add), "addmod(\(a.h), \(b.h), \(n.h))")
            check.expect(UInt256.mulmod(a, b, n) == UInt256(reference: mul), "mulmod(\(a.h), \(b.h), \(n.h))")
        }
        check.finish()
        #expect(UInt256.addmod(.max, .max, .max) == .zero)
        #expect(UInt256.addmod(.max, 2, 2) == 1)
        #expect(UInt256.mulmod(.max, .max, .max - 1) == 1)
        #expect(UInt256.mulmod(5, 6, .zero) == .zero && UInt256.addmod(5, 6, .zero) == .zero)
    }

    /// Products whose reduction takes Algorithm D's "add back" step (found by simulation).
    static let mulmodAddBackCases: [(String, String, String)] = [
        ("0x17fffffffffffffff00000000000000010000000000000000", "0xcddb731926ebad9ffffffffffffffffffffffffffffffff", "0x80000000000000010000000000000002ffffffffffffffff"),
        ("0x80000000000000008000000000000000ffffffffffffffffffffffffffffffff", "0x8000000000000001ffffffffffffffff0553ab0153a5bae4", "0x80000000000000017ffffffffffffffffffffffffffffffeb9a7136be3546847"),
        ("0x1000000000000000000000000000000007fffffffffffffff", "0xffffffffffffffff000000000000000000000000000000018000000000000000", "0xffffffffffffffff0000000000000000ffffffffffffffff7fffffffffffffff"),
        ("0x8000000000000000fffffffffffffffffffffffffffffffe0000000000000002", "0xfffffffffffffffe8000000000000000ffffffffffffffff0000000000000000", "0x7fffffffffffffffffffffffffffffff7fffffffffffffff0000000000000002"),
    ]

    @Test(arguments: mulmodAddBackCases)
    func mulmodAddBackStep(a: String, b: String, n: String) throws {
        let (x, y, m) = (try UInt256(hex: a), try UInt256(hex: b), try UInt256(hex: n))
        #expect(UInt256.mulmod(x, y, m) == UInt256(reference: (x.big * y.big) % m.big), "mulmod(\(a), \(b), \(n))")
    }

    @Test func expMatchesReference() {
        var gen = ValueGenerator(seed: 0xE4)
        var check = PropertyCheck("exp")
        for i in 0..<propertyCases / 3 {
            let base = i % 4 == 0 ? UInt256.one << Int(gen.rng.next() % 256) : gen.next()
            let e = i % 3 == 0 ? UInt256(gen.rng.next() % 300) : gen.next()
            let expected = base.big.power(e.big, modulus: twoTo256)
            check.expect(base.exp(e) == UInt256(reference: expected), "exp(\(base.h), \(e.h)) = \(base.exp(e).h)")
        }
        check.finish()
        #expect(UInt256.zero.exp(.zero) == 1)
        #expect(UInt256.zero.exp(5) == .zero)
        #expect(UInt256(2).exp(255) == Self.minSigned)
        #expect(UInt256(2).exp(256) == .zero)
        #expect(UInt256(2).exp(.max) == .zero)
        #expect(UInt256(4).exp(127) == UInt256.one << 254 && UInt256(4).exp(128) == .zero)
        #expect(UInt256(10).exp(77) == (try? UInt256(decimal: "1" + String(repeating: "0", count: 77))))
        #expect(UInt256.max.exp(2) == 1 && UInt256.max.exp(3) == .max)
    }

    @Test func signExtendMatchesReference() {
        var gen = ValueGenerator(seed: 0x51E)
        var check = PropertyCheck("signExtend")
        for _ in 0..<propertyCases {
            let x = gen.next()
            let b = gen.smallOrHuge(below: 32)
            let expected: UInt256
            if b >= 31 {
                expected = x
            } else {
                let bits = 8 * (Int(b.low64) + 1)
                let low = x.big % (BigUInt(1) << bits)
                let signed = low >= (BigUInt(1) << (bits - 1)) ? BigInt(low) - (BigInt(1) << bits) : BigInt(low)
                expected = UInt256(reference: signed)
            }
            check.expect(x.signExtend(byteIndex: b) == expected, "signExtend(\(x.h), byteIndex: \(b.h))")
        }
        check.finish()
        #expect(UInt256(0xff).signExtend(byteIndex: 0) == .max)
        #expect(UInt256(0x7f).signExtend(byteIndex: 0) == 0x7f)
        #expect(UInt256(0x1_80).signExtend(byteIndex: 0) == UInt256(0x80).negated)
        #expect(UInt256(0x80_00).signExtend(byteIndex: 1) == UInt256(0x80_00).negated)
    }

    @Test func byteMatchesReference() {
        var gen = ValueGenerator(seed: 0xB7)
        var check = PropertyCheck("byte")
        for _ in 0..<propertyCases {
            let x = gen.next()
            let i = gen.smallOrHuge(below: 32)
            let expected = i >= 32 ? UInt256.zero : UInt256(reference: (x.big >> (8 * (31 - Int(i.low64)))) & 0xff)
            check.expect(x.byte(i) == expected, "byte(\(x.h), \(i.h))")
        }
        check.finish()
        let x: UInt256 = 0x0102_0304_0506_0708_090a_0b0c_0d0e_0f10_1112_1314_1516_1718_191a_1b1c_1d1e_1f20
        for i in 0..<32 { #expect(x.byte(UInt256(UInt64(i))) == UInt256(UInt64(i + 1))) }
    }

    @Test func evmShiftsMatchReference() {
        var gen = ValueGenerator(seed: 0x145)
        var check = PropertyCheck("shl/shr/sar")
        for _ in 0..<propertyCases {
            let x = gen.next()
            let s = gen.smallOrHuge(below: 256)
            let n = s >= 256 ? 256 : Int(s.low64)
            let shl = n >= 256 ? UInt256.zero : UInt256(reference: x.big << n)
            let shr = n >= 256 ? UInt256.zero : UInt256(reference: x.big >> n)
            let sar: UInt256
            if !x.isNegative {
                sar = shr
            } else if n >= 256 {
                sar = .max
            } else {
                // floor(x / 2^n) for negative x is −ceil(|x| / 2^n).
                let m = x.absoluteValue.big
                let q = (m + (BigUInt(1) << n) - 1) >> n
                sar = UInt256(reference: -BigInt(q))
            }
            check.expect(x.shl(s) == shl, "shl(\(x.h), \(s.h))")
            check.expect(x.shr(s) == shr, "shr(\(x.h), \(s.h))")
            check.expect(x.sar(s) == sar, "sar(\(x.h), \(s.h)) = \(x.sar(s).h)")
        }
        check.finish()
    }

    /// Vectors from EIP-145's "Test Cases" section: (value, shift, expected).
    @Test func eip145Vectors() throws {
        func u(_ s: String) throws -> UInt256 { try UInt256(hex: s) }
        let top = try u("0x8000000000000000000000000000000000000000000000000000000000000000")
        let all = UInt256.max
        #expect(UInt256(1).shl(0) == 1)
        #expect(UInt256(1).shl(0xff) == top)
        #expect(UInt256(1).shl(0x100) == .zero)
        #expect(all.shl(0xff) == top)
        #expect(all.shl(1) == all - 1)
        #expect(top.shr(1) == (try u("0x4000000000000000000000000000000000000000000000000000000000000000")))
        #expect(top.shr(0xff) == 1)
        #expect(top.shr(0x100) == .zero)
        #expect(all.shr(0xff) == 1)
        #expect(top.sar(1) == (try u("0xc000000000000000000000000000000000000000000000000000000000000000")))
        #expect(top.sar(0xff) == all)
        #expect(top.sar(0x100) == all)
        #expect(all.sar(0x101) == all)
        let positive = try u("0x4000000000000000000000000000000000000000000000000000000000000000")
        #expect(positive.sar(0xfe) == 1)
        #expect(positive.sar(0xff) == .zero)
        #expect(positive.sar(0x100) == .zero)
    }

    @Test func signedComparisonMatchesReference() {
        var gen = ValueGenerator(seed: 0x517)
        var check = PropertyCheck("slt/sgt")
        for i in 0..<propertyCases {
            let a = gen.next()
            let b = i % 7 == 0 ? a : gen.next()
            check.expect(a.slt(b) == (a.signedBig < b.signedBig), "slt(\(a.h), \(b.h))")
            check.expect(a.sgt(b) == (a.signedBig > b.signedBig), "sgt(\(a.h), \(b.h))")
            check.expect(a.isNegative == (a.signedBig < 0), "isNegative \(a.h)")
            check.expect(a.negated == UInt256(reference: -a.signedBig), "negated \(a.h)")
        }
        check.finish()
        #expect(Self.minusOne.slt(.zero) && Self.minSigned.slt(Self.minusOne) && !UInt256.zero.slt(Self.minusOne))
    }
}
