import Testing
import EthereumPrimitives

@Suite struct HexTests {
    @Test func encodes() {
        #expect(Hex.encode([0x00, 0xab, 0xff]) == "0x00abff")
        #expect(Hex.encode([0x00, 0xab, 0xff], prefix: false) == "00abff")
        #expect(Hex.encode([UInt8]()) == "0x")
        #expect([UInt8]([1, 2]).hexString == "0x0102")
    }

    @Test func decodes() throws {
        #expect(try Hex.decode("0x00abFF") == [0x00, 0xab, 0xff])
        #expect(try Hex.decode("0X0a") == [0x0a])
        #expect(try Hex.decode("0a0b") == [0x0a, 0x0b])
        #expect(try Hex.decode("") == [])
        #expect(try Hex.decode("0x") == [])
        #expect(try [UInt8](hex: "0xdead") == [0xde, 0xad])
    }

    @Test func rejects() {
        #expect(throws: Hex.Error.oddLength(3)) { try Hex.decode("0xabc") }
        #expect(throws: Hex.Error.invalidCharacter("g", offset: 3)) { try Hex.decode("0xag") }
        #expect(throws: Hex.Error.invalidCharacter("z", offset: 4)) { try Hex.decode("0xabz") }
        #expect(throws: Hex.Error.invalidCharacter("é", offset: 2)) { try Hex.decode("0xé0") }
        let e = #expect(throws: Hex.Error.self) { try Hex.decode("0x123") }
        #expect(e?.description == "hex string has an odd number of digits (3)")
    }

    @Test func prefixHelpers() {
        #expect(Hex.hasPrefix("0x12") && Hex.hasPrefix("0X") && !Hex.hasPrefix("12") && !Hex.hasPrefix("0"))
        #expect(Hex.stripPrefix("0xab") == "ab")
        #expect(Hex.stripPrefix("ab") == "ab")
    }
}
