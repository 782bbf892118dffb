import BigInt
import EthereumPrimitives
import Testing

@Suite struct UnitsTests {
    static let oneEther = UInt256(1_000_000_000_000_000_000)

    @Test func unitDecimals() {
        #expect(EtherUnit.allCases.map(\.decimals) == [0, 3, 6, 9, 12, 15, 18])
        #expect(EtherUnit.ether.weiPerUnit == Self.oneEther)
        #expect(EtherUnit.wei.weiPerUnit == 1)
        #expect(EtherUnit(rawValue: "gwei") == .gwei)
    }

    @Test func parsesTheIssueExamples() throws {
        #expect(try Units.parse("1.5 ether") == 1_500_000_000_000_000_000)
        #expect(try Units.parse("30 gwei") == 30_000_000_000)
        #expect(try Units.parse("1ether") == Self.oneEther)
        #expect(try Units.parse("100") == 100)
        #expect(try Units.parse("  2 GWEI ") == 2_000_000_000)
        #expect(try Units.parse("0.000000001 Ether") == 1_000_000_000)
        #expect(try Units.parse(".5 finney") == 500_000_000_000_000)
        #expect(try Units.parse("5. szabo") == 5_000_000_000_000)
        #expect(try Units.parse("1.000 wei") == 1)
        #expect(try Units.parse("3 kwei") == 3000 && Units.parse("3 mwei") == 3_000_000)
        #expect(try Units.parse("1.5", unit: .ether) == 1_500_000_000_000_000_000)
        #expect(try Units.parse("0.000000000000000001", unit: .ether) == 1)
        #expect(try Units.parse(" 42 ", unit: .wei) == 42)
        // The largest amount: 2^256 − 1 wei, written in ether.
        let maxEther = "115792089237316195423570985008687907853269984665640564039457.584007913129639935"
        #expect(try Units.parse(maxEther + " ether") == .max)
    }

    @Test func formatsExactly() {
        #expect(Units.format(1_500_000_000_000_000_000, as: .ether) == "1.5")
        #expect(Units.format(1_000_000_000, as: .ether) == "0.000000001")
        #expect(Units.format(1, as: .ether) == "0.000000000000000001")
        #expect(Units.format(Self.oneEther, as: .ether) == "1")
        #expect(Units.format(.zero, as: .gwei) == "0")
        #expect(Units.format(30_000_000_000, as: .gwei) == "30")
        #expect(Units.format(123, as: .wei) == "123")
        #expect(Units.format(.max, as: .ether) == "115792089237316195423570985008687907853269984665640564039457.584007913129639935")
    }

    @Test func roundTrips() throws {
        var gen = ValueGenerator(seed: 0x0E7)
        var check = PropertyCheck("units")
        for i in 0..<1000 {
            let wei = gen.next()
            let unit = EtherUnit.allCases[i % EtherUnit.allCases.count]
            let text = Units.format(wei, as: unit)
            // Reference: the same digits computed with BigInt.
            let (q, r) = wei.big.quotientAndRemainder(dividingBy: BigUInt(10).power(unit.decimals))
            var frac = r == 0 ? "" : String(r)
            frac = String(repeating: "0", count: unit.decimals - frac.count) + frac
            while frac.last == "0" { frac.removeLast() }
            check.expect(text == String(q) + (frac.isEmpty ? "" : "." + frac), "format(\(wei), \(unit)) = \(text)")
            check.expect((try? Units.parse(text, unit: unit)) == wei, "parse(\(text), \(unit))")
            check.expect((try? Units.parse(text + " " + unit.rawValue.uppercased())) == wei, "parse(\(text) \(unit))")
        }
        check.finish()
    }

    @Test func errors() {
        #expect(throws: Units.Error.empty) { try Units.parse("") }
        #expect(throws: Units.Error.empty) { try Units.parse("   ") }
        #expect(throws: Units.Error.empty) { try Units.parse("", unit: .ether) }
        #expect(throws: Units.Error.negative("-1 ether")) { try Units.parse("-1 ether") }
        #expect(throws: Units.Error.negative(" -0.5")) { try Units.parse(" -0.5", unit: .ether) }
        #expect(throws: Units.Error.noDigits(". ether")) { try Units.parse(". ether") }
        #expect(throws: Units.Error.noDigits("ether")) { try Units.parse("ether") }
        #expect(throws: Units.Error.multipleDecimalPoints("1.2.3 gwei")) { try Units.parse("1.2.3 gwei") }
        #expect(throws: Units.Error.unknownUnit("eth")) { try Units.parse("1 eth") }
        #expect(throws: Units.Error.unknownUnit("Wie")) { try Units.parse("1 Wie") }
        #expect(throws: Units.Error.invalidCharacter(",", offset: 1, input: "1,5 ether")) { try Units.parse("1,5 ether") }
        #expect(throws: Units.Error.invalidCharacter("1", offset: 2, input: "1e18")) { try Units.parse("1e18") }
        #expect(throws: Units.Error.invalidCharacter(" ", offset: 7, input: "1 ether x")) { try Units.parse("1 ether x") }
        #expect(throws: Units.Error.invalidCharacter("+", offset: 0, input: "+1")) { try Units.parse("+1", unit: .wei) }
        #expect(throws: Units.Error.invalidCharacter("e", offset: 1, input: "1e18")) { try Units.parse("1e18", unit: .wei) }
        #expect(throws: Units.Error.tooManyDecimals("1.5", unit: .wei)) { try Units.parse("1.5") }
        #expect(throws: Units.Error.tooManyDecimals("1.50 wei", unit: .wei)) { try Units.parse("1.50 wei") }
        #expect(throws: Units.Error.tooManyDecimals("0.0000000001 gwei", unit: .gwei)) { try Units.parse("0.0000000001 gwei") }
        #expect(throws: Units.Error.tooManyDecimals("0.0000000000000000001", unit: .ether)) {
            try Units.parse("0.0000000000000000001", unit: .ether)
        }
        let tooBig = "115792089237316195423570985008687907853269984665640564039457.584007913129639936 ether"
        #expect(throws: Units.Error.overflow(tooBig)) { try Units.parse(tooBig) }
        #expect(throws: Units.Error.overflow("1" + String(repeating: "0", count: 80))) {
            try Units.parse("1" + String(repeating: "0", count: 80))
        }
        let tenTo60 = "1" + String(repeating: "0", count: 60)
        #expect(throws: Units.Error.overflow(tenTo60)) { try Units.parse(tenTo60, unit: .ether) }
    }

    @Test func errorMessagesNameTheProblem() {
        #expect(Units.Error.unknownUnit("eth").description.contains("\"eth\""))
        #expect(Units.Error.unknownUnit("eth").description.contains("gwei"))
        #expect(Units.Error.tooManyDecimals("1.5", unit: .wei).description.contains("wei allows (0)"))
        #expect(Units.Error.invalidCharacter(",", offset: 1, input: "1,5").description == "invalid character \",\" at offset 1 in \"1,5\"")
        #expect(Units.Error.negative("-1").description.contains("negative"))
        #expect(Units.Error.overflow("9").description.contains("2^256 - 1"))
        #expect(Units.Error.empty.description == "amount is empty")
    }
}
