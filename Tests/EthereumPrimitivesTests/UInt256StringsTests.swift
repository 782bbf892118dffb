// Decimal and hex printing and parsing of UInt256.

import BigInt
import EthereumPrimitives
import Testing

@Suite struct UInt256StringsTests {
    @Test func printingMatchesReference() {
        var gen = ValueGenerator(seed: 0x57)
        var check = PropertyCheck("printing")
        for _ in 0..<propertyCases {
            let x = gen.next()
            check.expect(x.description == String(x.big), "decimal of \(x.h): \(x.description)")
            check.expect(x.hexString == "0x" + String(x.big, radix: 16), "hex of \(x.h)")
            let padded = String(x.big, radix: 16)
            check.expect(x.paddedHexString == "0x" + String(repeating: "0", count: 64 - padded.count) + padded, "padded hex of \(x.h)")
        }
        check.finish()
    }

    @Test func parsingRoundTrips() throws {
        var gen = ValueGenerator(seed: 0x58)
        var check = PropertyCheck("parsing")
        for _ in 0..<propertyCases {
            let x = gen.next()
            check.expect((try? UInt256(decimal: x.description)) == x, "decimal \(x.description)")
            check.expect((try? UInt256(hex: x.hexString)) == x, "hex \(x.hexString)")
            check.expect((try? UInt256(hex: x.paddedHexString)) == x, "padded hex \(x.paddedHexString)")
            check.expect((try? UInt256(hex: String(x.hexString.dropFirst(2)).uppercased())) == x, "upper hex of \(x.h)")
            check.expect((try? UInt256(parsing: x.description)) == x && (try? UInt256(parsing: x.hexString)) == x, "parsing \(x.h)")
            check.expect(UInt256(x.description) == x, "LosslessStringConvertible-style \(x.description)")
        }
        check.finish()
    }

    @Test func fixedValues() throws {
        #expect(UInt256.zero.description == "0")
        #expect(UInt256.zero.hexString == "0x0")
        #expect(UInt256.zero.paddedHexString == "0x" + String(repeating: "0", count: 64))
        #expect(UInt256.max.description == "115792089237316195423570985008687907853269984665640564039457584007913129639935")
        #expect(UInt256.max.hexString == "0x" + String(repeating: "f", count: 64))
        #expect((UInt256.one << 64).description == "18446744073709551616")
        #expect(UInt256(10_000_000_000_000_000_000).description == "10000000000000000000")
        #expect(try UInt256(decimal: "10000000000000000000000000000000000000") == UInt256(10).exp(37))
        #expect(try UInt256(decimal: "0000000000000000000000000000000000000000000000000000000000000000000000000000000000042") == 42)
        #expect(try UInt256(hex: "0x" + String(repeating: "0", count: 100) + "ff") == 255)
        #expect(try UInt256(hex: "0X0aBc") == 0xabc)
        #expect(try UInt256(hex: "abc") == 0xabc)
        #expect(try UInt256(decimal: "115792089237316195423570985008687907853269984665640564039457584007913129639935") == .max)
        #expect("\(UInt256(12345))" == "12345")
    }

    @Test func parseErrors() {
        #expect(throws: UInt256.ParseError.empty) { try UInt256(decimal: "") }
        #expect(throws: UInt256.ParseError.empty) { try UInt256(hex: "") }
        #expect(throws: UInt256.ParseError.empty) { try UInt256(parsing: "") }
        #expect(throws: UInt256.ParseError.noDigitsAfterPrefix) { try UInt256(hex: "0x") }
        #expect(throws: UInt256.ParseError.invalidDigit("x", offset: 1, radix: 10)) { try UInt256(decimal: "0x10") }
        #expect(throws: UInt256.ParseError.invalidDigit("-", offset: 0, radix: 10)) { try UInt256(decimal: "-1") }
        #expect(throws: UInt256.ParseError.invalidDigit(" ", offset: 3, radix: 10)) { try UInt256(decimal: "123 ") }
        #expect(throws: UInt256.ParseError.invalidDigit("é", offset: 2, radix: 10)) { try UInt256(decimal: "12é") }
        #expect(throws: UInt256.ParseError.invalidDigit("g", offset: 4, radix: 16)) { try UInt256(hex: "0xffg") }
        #expect(throws: UInt256.ParseError.invalidDigit("x", offset: 1, radix: 16)) { try UInt256(hex: "1x") }
        #expect(throws: UInt256.ParseError.overflow) {
            try UInt256(decimal: "115792089237316195423570985008687907853269984665640564039457584007913129639936")
        }
        #expect(throws: UInt256.ParseError.overflow) { try UInt256(decimal: String(repeating: "9", count: 200)) }
        #expect(throws: UInt256.ParseError.overflow) { try UInt256(hex: "0x1" + String(repeating: "0", count: 64)) }
        // A bad digit is reported even after the value has overflowed.
        #expect(throws: UInt256.ParseError.invalidDigit("z", offset: 100, radix: 10)) {
            try UInt256(decimal: String(repeating: "9", count: 100) + "z")
        }
        #expect(UInt256.ParseError.invalidDigit("g", offset: 4, radix: 16).description == "invalid hex digit \"g\" at offset 4")
        #expect(UInt256.ParseError.overflow.description.contains("256 bits"))
        #expect(UInt256.ParseError.empty.description.contains("empty"))
    }
}
