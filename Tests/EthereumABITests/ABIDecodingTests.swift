import EthereumABI
import EthereumPrimitives
import Foundation
import Testing
import TestSupport

/// The strict decoder: valid data round-trips; hostile data throws quickly, naming where.
@Suite struct ABIDecodingTests {
    @Test func hugeOffsetIsRefused() throws {
        let data = (UInt256.one << 255).bigEndianBytes
        let message = errorMessage { try ABIDecoder.decode([.string], from: data) }
        #expect(message?.contains("points beyond") == true, "\(message ?? "no error")")
        #expect(message?.contains("value 1") == true)
    }

    @Test func offsetOutsideTheData() throws {
        let data = word(0x1000) + word(1)
        #expect(errorMessage { try ABIDecoder.decode([.bytes], from: data, options: .lenient) }?.contains("points beyond") == true)
    }

    @Test func hugeLengthsAreRefusedBeforeAllocating() throws {
        for length in [UInt256.max, UInt256.one << 200, UInt256(UInt64.max), UInt256(1 << 58), UInt256(33)] {
            let data = word(0x20) + length.bigEndianBytes + [UInt8](repeating: 0, count: 32)
            for type in [ABIType.string, .bytes, .array(.uint256, count: nil), .array(.string, count: nil)] {
                let start = Date()
                let message = errorMessage { try ABIDecoder.decode([type], from: data, options: .lenient) }
                #expect(message != nil, "length \(length) as \(type) decoded")
                #expect(Date().timeIntervalSince(start) < 0.1)
            }
        }
    }

    @Test func truncatedData() throws {
        let full = try ABIEncoder.encode([.string("hello"), .array([.unsigned(1), .unsigned(2)])], as: [.string, .array(.uint256, count: nil)])
        for cut in 0..<full.count {
            #expect(throws: ABIError.self, "cut at \(cut)") { try ABIDecoder.decode([.string, .array(.uint256, count: nil)], from: full.prefix(cut)) }
        }
    }

    @Test func invalidScalars() throws {
        #expect(errorMessage { try ABIDecoder.decode([.bool], from: word(2)) }?.contains("not 0 or 1") == true)
        #expect(errorMessage { try ABIDecoder.decode([.uint(8)], from: word(256)) }?.contains("does not fit uint8") == true)
        #expect(errorMessage { try ABIDecoder.decode([.int(8)], from: word(128)) }?.contains("not a sign-extended int8") == true)
        #expect(try ABIDecoder.decode([.int(8)], from: UInt256.max.bigEndianBytes) == [.signed(-1)])
        let dirtyAddress = [UInt8](repeating: 0, count: 11) + [1] + [UInt8](repeating: 0xaa, count: 20)
        #expect(errorMessage { try ABIDecoder.decode([.address], from: dirtyAddress) }?.contains("non-zero high bytes") == true)
        let dirtyBytes3 = [1, 2, 3, 4] + [UInt8](repeating: 0, count: 28)
        #expect(errorMessage { try ABIDecoder.decode([.fixedBytes(3)], from: dirtyBytes3) }?.contains("non-zero bytes after the first 3") == true)
        // Lenient mode checks scalars too (as Solidity's decoder does).
        #expect(throws: ABIError.self) { try ABIDecoder.decode([.bool], from: word(2), options: .lenient) }
    }

    @Test func paddingAndUTF8() throws {
        var data = try ABIEncoder.encode(.string("a"), as: .string)
        data[64 + 5] = 1
        #expect(errorMessage { try ABIDecoder.decode(.string, from: data) }?.contains("padding byte is not zero") == true)
        #expect(try ABIDecoder.decode(.string, from: data, options: .lenient) == .string("a"))
        // Missing padding: strict refuses, lenient accepts the 1 byte that is there.
        let short = Array(data.prefix(65))
        #expect(throws: ABIError.self) { try ABIDecoder.decode(.string, from: short) }
        #expect(try ABIDecoder.decode(.string, from: short, options: .lenient) == .string("a"))
        let invalid = word(0x20) + word(2) + [0xc3, 0x28] + [UInt8](repeating: 0, count: 30)
        #expect(errorMessage { try ABIDecoder.decode(.string, from: invalid) }?.contains("not valid UTF-8") == true)
        #expect(try ABIDecoder.decode(.string, from: invalid, options: .lenient) == .string("\u{FFFD}("))
        #expect(try ABIDecoder.decode(.bytes, from: invalid) == .bytes([0xc3, 0x28]))
    }

    @Test func nonCanonicalOffsets() throws {
        // (string, string) with the tails swapped: valid for Solidity, refused by the strict decoder.
        func text(_ s: String) -> [UInt8] { word(UInt64(s.utf8.count)) + Array(s.utf8) + [UInt8](repeating: 0, count: 32 - s.utf8.count) }
        let swapped = word(0x80) + word(0x40) + text("b") + text("a")
        #expect(errorMessage { try ABIDecoder.decode([.string, .string], from: swapped) }?.contains("not canonical") == true)
        #expect(try ABIDecoder.decode([.string, .string], from: swapped, options: .lenient) == [.string("a"), .string("b")])
        // A gap between head and tail.
        let gap = word(0x40) + word(0) + text("x")
        #expect(throws: ABIError.self) { try ABIDecoder.decode([.string], from: gap) }
        #expect(try ABIDecoder.decode([.string], from: gap, options: .lenient) == [.string("x")])
        // Shared tails.
        let shared = word(0x40) + word(0x40) + text("s")
        #expect(throws: ABIError.self) { try ABIDecoder.decode([.string, .string], from: shared) }
        #expect(try ABIDecoder.decode([.string, .string], from: shared, options: .lenient) == [.string("s"), .string("s")])
    }

    @Test func trailingBytesAreAccepted() throws {
        let data = try ABIEncoder.encode(.unsigned(5), as: .uint256) + [1, 2, 3]
        #expect(try ABIDecoder.decode(.uint256, from: data) == .unsigned(5))
    }

    /// Each array level has two elements pointing at the same encoding of the level below: 40 levels
    /// describe 2^40 leaves in 3.9 KB. Strict mode refuses the shared offsets, lenient mode the expansion.
    @Test func exponentialSharingIsRefusedQuickly() throws {
        let depth = 40
        var type = ABIType.uint256
        for _ in 0..<depth { type = .array(type, count: nil) }
        var data: [UInt8] = []
        for _ in 0..<depth - 1 { data += word(2) + word(0x40) + word(0x40) }
        data += word(2) + word(7) + word(9)
        // Top level: one offset to the outermost array.
        data = word(0x20) + data
        let start = Date()
        let strict = errorMessage { try ABIDecoder.decode([type], from: data) }
        let lenient = errorMessage { try ABIDecoder.decode([type], from: data, options: .lenient) }
        #expect(strict?.contains("not canonical") == true, "\(strict ?? "decoded")")
        #expect(lenient?.contains("exceed") == true, "\(lenient ?? "decoded")")
        #expect(Date().timeIntervalSince(start) < 1)
    }

    @Test func errorsNameThePath() throws {
        // (uint8,bool)[] whose second element has a bool of 5.
        let data = word(0x20) + word(2) + word(1) + word(1) + word(2) + word(5)
        let message = errorMessage { try ABIDecoder.decode([.array(.tuple([.uint(8), .bool]), count: nil)], from: data) }
        #expect(message == "ABI data does not decode at byte 160 (value 1[1].1): bool word is 5, not 0 or 1")
    }

    /// Random types and values: encode, decode, compare; and every strict decode of the encoding with
    /// random damage either throws or re-encodes to a prefix of the damaged data.
    @Test func randomRoundTripsAndDamage() throws {
        var random = RandomABI(seed: 0xAB1_0001)
        var roundTrips = 0
        var damagedAccepted = 0
        var damagedRefused = 0
        for _ in 0..<1500 {
            let types = (0..<(1 + random.below(4))).map { _ in random.type() }
            let values = types.map { random.value(for: $0) }
            let data = try ABIEncoder.encode(values, as: types)
            let decoded = try ABIDecoder.decode(types, from: data)
            #expect(decoded == values, "types \(types)")
            #expect(try ABIDecoder.decode(types, from: data, options: .lenient) == values)
            roundTrips += 1
            for _ in 0..<4 {
                var damaged = data
                switch random.below(3) {
                case 0 where !damaged.isEmpty:
                    damaged[random.below(damaged.count)] ^= UInt8(1 + random.below(255))
                case 1:
                    damaged = Array(damaged.prefix(random.below(damaged.count + 1)))
                default:
                    if damaged.count >= 32 {
                        let at = random.below(damaged.count / 32) * 32
                        let noise = random.chance(50) ? UInt256.max : UInt256(UInt64(random.below(1 << 16)))
                        damaged.replaceSubrange(at..<at + 32, with: noise.bigEndianBytes)
                    }
                }
                for options in [ABIDecodingOptions.strict, .lenient] {
                    do {
                        let again = try ABIDecoder.decode(types, from: damaged, options: options)
                        if options == .strict {
                            let reencoded = try ABIEncoder.encode(again, as: types)
                            #expect(Array(damaged.prefix(reencoded.count)) == reencoded, "strict accepted a non-canonical encoding of \(types)")
                            damagedAccepted += 1
                        }
                    } catch {
                        if options == .strict { damagedRefused += 1 }
                    }
                }
            }
        }
        print("ABI random round trips: \(roundTrips) passed; damaged encodings: \(damagedRefused) refused, \(damagedAccepted) accepted (all canonical)")
    }

    @Test func randomGarbageNeverTraps() throws {
        var random = RandomABI(seed: 0xAB1_0002)
        for _ in 0..<3000 {
            let types = (0..<(1 + random.below(3))).map { _ in random.type() }
            var data = random.rng.bytes(random.below(300))
            // Sprinkle small plausible words so offsets and lengths sometimes make sense.
            var i = 0
            while i + 32 <= data.count {
                if random.chance(50) { data.replaceSubrange(i..<i + 32, with: word(UInt64(random.below(200)))) }
                i += 32
            }
            _ = try? ABIDecoder.decode(types, from: data)
            _ = try? ABIDecoder.decode(types, from: data, options: .lenient)
        }
    }
}
