// Property tests of UInt256's unsigned arithmetic, bit operations and integer-protocol conformance
// against BigInt.

import BigInt
import EthereumPrimitives
import Testing

@Suite struct UInt256ArithmeticTests {
    @Test func additionMatchesReference() {
        var gen = ValueGenerator(seed: 0xADD)
        var check = PropertyCheck("add")
        for _ in 0..<propertyCases {
            let a = gen.next(), b = gen.next()
            let exact = a.big + b.big
            let (sum, overflow) = a.addingReportingOverflow(b)
            check.expect(sum == UInt256(reference: exact), "\(a.h) + \(b.h) = \(sum.h)")
            check.expect(overflow == (exact >= twoTo256), "overflow flag of \(a.h) + \(b.h)")
            check.expect(a &+ b == sum, "&+ of \(a.h), \(b.h)")
            var c = a
            c &+= b
            check.expect(c == sum, "&+= of \(a.h), \(b.h)")
            if !overflow { check.expect(a + b == sum, "+ of \(a.h), \(b.h)") }
        }
        check.finish()
    }

    @Test func subtractionMatchesReference() {
        var gen = ValueGenerator(seed: 0x5B)
        var check = PropertyCheck("sub")
        for _ in 0..<propertyCases {
            let a = gen.next(), b = gen.next()
            let exact = a.signedBigUnsigned - b.signedBigUnsigned
            let (diff, overflow) = a.subtractingReportingOverflow(b)
            check.expect(diff == UInt256(reference: exact), "\(a.h) - \(b.h) = \(diff.h)")
            check.expect(overflow == (b > a) && overflow == (exact < 0), "overflow flag of \(a.h) - \(b.h)")
            check.expect(a &- b == diff, "&- of \(a.h), \(b.h)")
            if !overflow { check.expect(a - b == diff, "- of \(a.h), \(b.h)") }
        }
        check.finish()
    }

    @Test func multiplicationMatchesReference() {
        var gen = ValueGenerator(seed: 0x3117)
        var check = PropertyCheck("mul")
        for _ in 0..<propertyCases {
            let a = gen.next(), b = gen.next()
            let exact = a.big * b.big
            let wrapped = a &* b
            check.expect(wrapped == UInt256(reference: exact), "\(a.h) * \(b.h) = \(wrapped.h)")
            let (partial, overflow) = a.multipliedReportingOverflow(by: b)
            check.expect(partial == wrapped && overflow == (exact >= twoTo256), "reporting \(a.h) * \(b.h)")
            let (high, low) = a.multipliedFullWidth(by: b)
            check.expect(low == wrapped && high == UInt256(reference: exact >> 256), "full width \(a.h) * \(b.h)")
            if !overflow { check.expect(a * b == wrapped, "* of \(a.h), \(b.h)") }
        }
        check.finish()
    }

    @Test func divisionMatchesReference() {
        var gen = ValueGenerator(seed: 0xD1F)
        var check = PropertyCheck("div")
        for i in 0..<propertyCases * 2 {
            let a = gen.next()
            var b = gen.next()
            // Half the cases: a divisor no larger than the dividend, so quotients are non-trivial.
            if i % 2 == 0 && b > a { b = b >> (b.significantBitCount - a.significantBitCount) }
            if b.isZero { continue }
            let (q, r) = a.quotientAndRemainder(dividingBy: b)
            let (eq, er) = a.big.quotientAndRemainder(dividingBy: b.big)
            check.expect(q == UInt256(reference: eq) && r == UInt256(reference: er), "\(a.h) / \(b.h) = \(q.h) rem \(r.h)")
            check.expect(a / b == q && a % b == r, "/ and % of \(a.h), \(b.h)")
            check.expect(a.dividedReportingOverflow(by: b) == (q, false), "dividedReportingOverflow \(a.h), \(b.h)")
            check.expect(a.remainderReportingOverflow(dividingBy: b) == (r, false), "remainderReportingOverflow \(a.h)")
        }
        check.finish()
        #expect(UInt256(7).dividedReportingOverflow(by: .zero) == (7, true))
        #expect(UInt256(7).remainderReportingOverflow(dividingBy: .zero) == (7, true))
    }

    /// Inputs found (by simulating the algorithm) to take Algorithm D's rare "add back" step.
    static let addBackCases: [(String, String)] = [
        ("0x20000000000000002fffffffffffffffe0000000000000000", "0x20000000000000002ffffffffffffffff"),
        ("0x800000000000000100000000000000000000000000000000", "0x100000000000000020000000000000001"),
        ("0x7fffffffffffffff7fffffffffffffff00000000000000000000000000000001", "0xfffffffffffffffefffffffffffffffe0000000000000001"),
        ("0xfffffffffffffffe000000000000000100000000000000000000000000000002", "0x7fffffffffffffff0000000000000000b37eac721c19ad2fffffffffffffffff"),
        ("0xfffffffffffffffefffffffffffffffefffffffffffffffefa73e59d47119a98", "0x7fffffffffffffff7fffffffffffffff7fffffffffffffff7fffffffffffffff"),
        ("0x8000000000000000ffffffffffffffff80000000000000008000000000000000", "0x10000000000000001ffffffffffffffffffffffffffffffff"),
    ]

    @Test(arguments: addBackCases)
    func divisionAddBackStep(dividend: String, divisor: String) throws {
        let a = try UInt256(hex: dividend), b = try UInt256(hex: divisor)
        let (q, r) = a.quotientAndRemainder(dividingBy: b)
        let (eq, er) = a.big.quotientAndRemainder(dividingBy: b.big)
        #expect(q == UInt256(reference: eq), "quotient of \(dividend) / \(divisor)")
        #expect(r == UInt256(reference: er), "remainder of \(dividend) / \(divisor)")
    }

    @Test func dividingFullWidthMatchesReference() {
        var gen = ValueGenerator(seed: 0xF11)
        var check = PropertyCheck("dividingFullWidth")
        for _ in 0..<propertyCases {
            let d = gen.next()
            if d.isZero { continue }
            let high = gen.next() % d
            let low = gen.next()
            let (q, r) = d.dividingFullWidth((high, low))
            let (eq, er) = ((high.big << 256) + low.big).quotientAndRemainder(dividingBy: d.big)
            check.expect(q == UInt256(reference: eq) && r == UInt256(reference: er), "(\(high.h), \(low.h)) / \(d.h)")
        }
        check.finish()
    }

    @Test func comparisonsMatchReference() {
        var gen = ValueGenerator(seed: 0xC0)
        var check = PropertyCheck("compare")
        for i in 0..<propertyCases {
            let a = gen.next()
            let b = i % 5 == 0 ? a : gen.next()
            let (x, y) = (a.big, b.big)
            check.expect((a < b) == (x < y) && (a <= b) == (x <= y), "\(a.h) < \(b.h)")
            check.expect((a > b) == (x > y) && (a >= b) == (x >= y), "\(a.h) > \(b.h)")
            check.expect((a == b) == (x == y) && (a != b) == (x != y), "\(a.h) == \(b.h)")
            if a == b { check.expect(a.hashValue == b.hashValue, "hash of \(a.h)") }
        }
        check.finish()
    }

    @Test func bitwiseMatchesReference() {
        var gen = ValueGenerator(seed: 0xB17)
        var check = PropertyCheck("bitwise")
        for _ in 0..<propertyCases {
            let a = gen.next(), b = gen.next()
            check.expect(a & b == UInt256(reference: a.big & b.big), "\(a.h) & \(b.h)")
            check.expect(a | b == UInt256(reference: a.big | b.big), "\(a.h) | \(b.h)")
            check.expect(a ^ b == UInt256(reference: a.big ^ b.big), "\(a.h) ^ \(b.h)")
            check.expect(~a == UInt256(reference: twoTo256 - 1 - a.big), "~\(a.h)")
            let bits = a.big.bitWidth
            check.expect(a.leadingZeroBitCount == 256 - bits && a.significantBitCount == bits, "lzc \(a.h)")
            check.expect(a.byteWidth == (bits + 7) / 8, "byteWidth \(a.h)")
            check.expect(a.trailingZeroBitCount == (a.isZero ? 256 : a.big.trailingZeroBitCount), "tzc \(a.h)")
            let ones = a.big.words.reduce(0) { $0 + $1.nonzeroBitCount }
            check.expect(a.nonzeroBitCount == ones, "popcount \(a.h)")
        }
        check.finish()
    }

    static let interestingShifts = [0, 1, 7, 8, 63, 64, 65, 127, 128, 129, 191, 192, 193, 255, 256, 257, 1000, Int.max]

    @Test func shiftsMatchReference() {
        var gen = ValueGenerator(seed: 0x5417)
        var check = PropertyCheck("shifts")
        for i in 0..<propertyCases {
            let a = gen.next()
            let n = i < Self.interestingShifts.count * 20
                ? Self.interestingShifts[i % Self.interestingShifts.count]
                : Int(gen.rng.next() % 300)
            let left = n >= 256 ? UInt256.zero : UInt256(reference: a.big << n)
            let right = n >= 256 ? UInt256.zero : UInt256(reference: a.big >> n)
            check.expect(a << n == left, "\(a.h) << \(n)")
            check.expect(a >> n == right, "\(a.h) >> \(n)")
            check.expect(a << UInt256(UInt64(n)) == left && a >> UInt256(UInt64(n)) == right, "UInt256 count \(n)")
            if n <= Int(UInt16.max) {
                check.expect(a << UInt16(n) == left && a >> UInt16(n) == right, "generic count \(n)")
            }
            if n < 256 {
                check.expect(a >> -n == left && a << -n == right, "negative count \(n)")
                check.expect(a &<< n == left && a &>> n == right, "masking \(n)")
            }
            check.expect(a &<< (n &+ 256) == a &<< (n % 256), "masking wraps \(n)")
            var b = a
            b <<= n
            check.expect(b == left, "<<= \(n)")
            b = a
            b >>= n
            check.expect(b == right, ">>= \(n)")
        }
        check.finish()
        // Shift counts of 2^64 and above are "256 or more".
        let huge = UInt256(limbs: (0, 1, 0, 0))
        #expect(UInt256.max << huge == .zero)
        #expect(UInt256.max >> huge == .zero)
        #expect(UInt256.max >> Int.min == .zero)
    }

    @Test func integerLiterals() {
        let max: UInt256 = 0xffff_ffff_ffff_ffff_ffff_ffff_ffff_ffff_ffff_ffff_ffff_ffff_ffff_ffff_ffff_ffff
        #expect(max == .max)
        let twoTo64: UInt256 = 18_446_744_073_709_551_616
        #expect(twoTo64 == UInt256(limbs: (0, 1, 0, 0)))
        let mixed: UInt256 = 0x0102_0304_0506_0708_1112_1314_1516_1718_2122_2324_2526_2728_3132_3334_3536_3738
        #expect(mixed.limbs == (0x3132_3334_3536_3738, 0x2122_2324_2526_2728, 0x1112_1314_1516_1718, 0x0102_0304_0506_0708))
        let small: UInt256 = 42
        #expect(small == UInt256(42 as UInt64))
    }

    @Test func integerProtocolConversions() throws {
        #expect(UInt256(truncatingIfNeeded: -1) == .max)
        #expect(UInt256(truncatingIfNeeded: Int8(-2)) == UInt256.max - 1)
        #expect(UInt256(exactly: -1) == nil)
        #expect(UInt256(exactly: UInt64.max) == UInt256(UInt64.max))
        #expect(UInt256(exactly: BigUInt(1) << 256) == nil)
        #expect(UInt256(exactly: (BigUInt(1) << 256) - 1) == .max)
        #expect(UInt256(exactly: BigInt(-5)) == nil)
        #expect(UInt256(truncatingIfNeeded: (BigUInt(1) << 256) + 5) == 5)
        #expect(UInt256(truncatingIfNeeded: BigInt(-1)) == .max)
        #expect(UInt256(clamping: -3) == .zero)
        #expect(UInt256(clamping: BigUInt(1) << 300) == .max)
        #expect(UInt256(clamping: 77) == 77)
        #expect(UInt256(Int(12345)) == 12345)
        #expect(UInt256(2.5e3) == 2500)
        #expect(UInt256(exactly: 0.5) == nil)
        let value = try UInt256(hex: "0x1234567890abcdef1122334455667788")
        #expect(UInt64(exactly: value) == nil)
        #expect(UInt64(truncatingIfNeeded: value) == 0x1122_3344_5566_7788)
        #expect(Int(clamping: value) == Int.max)
        #expect(BigUInt(value) == value.big)
        #expect(value.words.count == 256 / UInt.bitWidth)
        #expect(Array(value.words) == Array(value.big.words) + [0, 0])
        #expect(value.uint64 == nil && UInt256(9).uint64 == 9)
        #expect(value.low64 == 0x1122_3344_5566_7788)
        #expect(value.clampedInt == .max && UInt256(9).clampedInt == 9)
        #expect(UInt256(UInt64(Int.max) + 1).clampedInt == .max)
        #expect(value.byteSwapped.byteSwapped == value)
        #expect(value.bigEndian == value.byteSwapped)  // the test machines are little-endian
        #expect(UInt256(bigEndian: value.bigEndian) == value && UInt256(littleEndian: value) == value)
        #expect(value.isMultiple(of: 2) && !(value + 1).isMultiple(of: 2))
        #expect(value.signum() == 1 && UInt256.zero.signum() == 0)
        #expect(String(value, radix: 16) == "1234567890abcdef1122334455667788")
        #expect(UInt256("340282366920938463463374607431768211456") == UInt256.one << 128)
        #expect(UInt256.bitWidth == 256 && value.bitWidth == 256)
        #expect(UInt256.isSigned == false)
        #expect(value.magnitude == value)
        #expect(UInt256.min == .zero && UInt256.zero.isZero && !UInt256.one.isZero)
        #expect((1 as UInt256).advanced(by: 5) == 6 && UInt256(10).distance(to: 4) == -6)
    }

    @Test func bitAccess() {
        var gen = ValueGenerator(seed: 0xB1)
        for _ in 0..<200 {
            let a = gen.next()
            for i in [0, 1, 63, 64, 127, 128, 200, 255] {
                #expect(a.bit(i) == a.big[bitAt: i], "bit \(i) of \(a.h)")
            }
        }
    }
}

extension UInt256 {
    /// The value as a (non-negative) BigInt, for reference arithmetic that may go negative.
    fileprivate var signedBigUnsigned: BigInt { BigInt(big) }
}
