// Big-endian byte conversions of UInt256.

import BigInt
import EthereumPrimitives
import Testing

@Suite struct UInt256BytesTests {
    /// The reference big-endian encoding, 32 bytes.
    static func referenceBytes(_ x: UInt256) -> [UInt8] {
        let minimal = [UInt8](x.big.serialize())  // big-endian, no leading zeros
        return [UInt8](repeating: 0, count: 32 - minimal.count) + minimal
    }

    @Test func bytesRoundTrip() {
        var gen = ValueGenerator(seed: 0xB8)
        var check = PropertyCheck("bytes")
        for _ in 0..<propertyCases {
            let x = gen.next()
            let bytes = Self.referenceBytes(x)
            check.expect(x.bigEndianBytes == bytes, "bigEndianBytes of \(x.h)")
            check.expect(x.minimalBigEndianBytes == Array(bytes.drop { $0 == 0 }), "minimal bytes of \(x.h)")
            check.expect(UInt256(bigEndianBytes: bytes) == x, "from 32 bytes \(x.h)")
            check.expect(UInt256(bigEndianBytes: x.minimalBigEndianBytes) == x, "from minimal bytes \(x.h)")
            check.expect(UInt256(bigEndianBytes: bytes[...]) == x, "from a slice, \(x.h)")
            check.expect(UInt256(bigEndianBytes: AnyCollection(bytes)) == x, "from a non-contiguous collection, \(x.h)")
            check.expect(x.bytes32.bytes == bytes && UInt256(x.bytes32) == x, "Bytes32 of \(x.h)")
            check.expect(x.withBigEndianBytes { Array($0) } == bytes, "withBigEndianBytes of \(x.h)")
            check.expect(UInt256(truncatingBigEndian: [0xAA, 0xBB] + bytes) == x, "truncating \(x.h)")
            check.expect(UInt256(truncatingBigEndian: x.minimalBigEndianBytes) == x, "truncating short \(x.h)")
        }
        check.finish()
    }

    @Test func byteEdgeCases() throws {
        #expect(UInt256.zero.minimalBigEndianBytes.isEmpty)
        #expect(UInt256(bigEndianBytes: [UInt8]()) == .zero)
        #expect(UInt256(bigEndianBytes: [UInt8](repeating: 0, count: 33)) == nil)
        #expect(UInt256(bigEndianBytes: [0x01, 0x00]) == 256)
        #expect(UInt256(1).minimalBigEndianBytes == [1])
        #expect(UInt256(256).minimalBigEndianBytes == [1, 0])
        #expect(UInt256.max.bigEndianBytes == [UInt8](repeating: 0xff, count: 32))
        #expect(UInt256(truncatingBigEndian: [UInt8](repeating: 0xff, count: 40) + [0x12]) == (UInt256.max >> 8) << 8 | 0x12)
        let b = try Bytes32(hex: "0x0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20")
        let v = UInt256(b)
        #expect(v.limbs.3 == 0x0102_0304_0506_0708 && v.limbs.0 == 0x191a_1b1c_1d1e_1f20)
        #expect(v.bytes32 == b)
        #expect(v.paddedHexString == b.hexString)
    }

    @Test func rawPointerLoadAndStore() {
        var gen = ValueGenerator(seed: 0x9)
        var buffer = [UInt8](repeating: 0, count: 64)
        for offset in [0, 1, 3, 7, 8, 31, 32] {
            let x = gen.next()
            buffer.withUnsafeMutableBytes { raw in
                x.storeBigEndian(to: raw.baseAddress! + offset)
            }
            #expect(Array(buffer[offset..<offset + 32]) == Self.referenceBytes(x), "store at offset \(offset)")
            let back = buffer.withUnsafeBytes { UInt256(bigEndianAt: $0.baseAddress! + offset) }
            #expect(back == x, "load at offset \(offset)")
        }
    }
}
