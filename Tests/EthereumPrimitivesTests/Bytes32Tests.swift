import Testing
import EthereumPrimitives

@Suite struct Bytes32Tests {
    @Test func bytesRoundTrip() throws {
        let bytes = (0..<32).map { UInt8($0 * 7 + 1) }
        let v = try #require(Bytes32(bytes))
        #expect(v.bytes == bytes)
        #expect(v.words.0 == 0x01_08_0f_16_1d_24_2b_32)
        #expect(Bytes32(bytes.dropLast()) == nil)
        #expect(try Bytes32(hex: v.hexString) == v)
        #expect(v.description == v.hexString)
    }

    @Test func parsingErrors() {
        #expect(throws: Bytes32.Error.wrongLength(2)) { try Bytes32(hex: "0x1234") }
        #expect(throws: Bytes32.Error.hex(.oddLength(3))) { try Bytes32(hex: "0x123") }
    }

    @Test func orderIsLexicographic() throws {
        let a = try #require(Bytes32([UInt8](repeating: 0, count: 31) + [1]))
        let b = try #require(Bytes32([1] + [UInt8](repeating: 0, count: 31)))
        #expect(a < b && !(b < a) && Bytes32.zero < a)
        #expect(Set([a, b, a]).count == 2)
    }
}
