import EthereumABI
import EthereumPrimitives
import Foundation
import Testing
import TestSupport

/// Cross-implementation tests against eth-abi (PyPI) through tools/xcheck/eth_abi_xcheck.py: identical
/// encodings for random values of random nested types, each side decodes the other's encoding, and on
/// damaged and hostile data whatever the strict Swift decoder accepts eth-abi accepts with the same value.
@Suite struct EthABICrossTests {
    static let caseCount = 1000
    static let hostileCount = 2000

    @Test func randomValuesAgreeWithEthABI() throws {
        var random = RandomABI(seed: 0xE7_AB1)
        var cases: [(types: [ABIType], values: [ABIValue], encoding: [UInt8])] = []
        for _ in 0..<Self.caseCount {
            let types = (0..<(1 + random.below(4))).map { _ in random.type(depth: 4) }
            let values = types.map { random.value(for: $0) }
            cases.append((types, values, try ABIEncoder.encode(values, as: types)))
        }
        var hostile: [(types: [ABIType], data: [UInt8])] = []
        for i in 0..<Self.hostileCount {
            let c = cases[i % cases.count]
            hostile.append((c.types, Self.damage(c.encoding, &random)))
        }
        hostile += Self.handcraftedHostile()

        let request = JSONValue.object([
            ("cases", .array(cases.map { c in
                .object([
                    ("types", .array(c.types.map { .string($0.description) })),
                    ("values", .array(c.values.map(\.jsonValue))),
                    ("encoding", .string(Hex.encode(c.encoding))),
                ])
            })),
            ("hostile", .array(hostile.map { h in
                .object([("types", .array(h.types.map { .string($0.description) })), ("data", .string(Hex.encode(h.data)))])
            })),
        ])
        guard let output = try PythonVenv.run(script: "xcheck/eth_abi_xcheck.py", input: Data(request.description.utf8), what: "eth-abi cross test")
        else { return }
        let response = try JSONValue(parsing: [UInt8](output))
        let results = try #require(response["cases"]?.arrayValue)
        let hostileResults = try #require(response["hostile"]?.arrayValue)
        try #require(results.count == cases.count && hostileResults.count == hostile.count)

        var tally = ConformanceTally(suite: "eth-abi cross (encode/decode)")
        for (i, (c, r)) in zip(cases, results).enumerated() {
            let name = "#\(i) \(c.types.map(\.description).joined(separator: ","))"
            guard let encoding = r["encoding"]?.stringValue else {
                tally.record(.fail("eth-abi could not encode: \(r["error"]?.description ?? "?")"), case: name)
                continue
            }
            let theirs = try Hex.decode(encoding)
            guard theirs == c.encoding else {
                tally.record(.fail("encodings differ: \(firstDifference(c.encoding, theirs))"), case: name)
                continue
            }
            guard let decoded = r["decoded"]?.arrayValue else {
                tally.record(.fail("eth-abi could not decode Swift's encoding: \(r["decodeError"]?.description ?? "?")"), case: name)
                continue
            }
            let theirValues = try zip(decoded, c.types).map { try ABIValue(json: $0, as: $1) }
            let ourDecode = try ABIDecoder.decode(c.types, from: theirs)
            tally.check(theirValues == c.values && ourDecode == c.values, name, "decoded values differ: eth-abi \(theirValues), Swift \(ourDecode), original \(c.values)")
        }
        tally.report()

        var hostileTally = ConformanceTally(suite: "eth-abi cross (damaged/hostile data)")
        var bothRefuse = 0, bothAccept = 0, onlyEthABIAccepts = 0
        for (i, (h, r)) in zip(hostile, hostileResults).enumerated() {
            let name = "hostile #\(i) \(h.types.map(\.description).joined(separator: ","))"
            let ours = try? ABIDecoder.decode(h.types, from: h.data)
            let theirsOK = r["ok"]?.boolValue == true
            switch (ours, theirsOK) {
            case (let ours?, true):
                let theirs = try #require(r["decoded"]?.arrayValue)
                let theirValues = try zip(theirs, h.types).map { try ABIValue(json: $0, as: $1) }
                hostileTally.check(theirValues == ours, name, "both accept but values differ: Swift \(ours), eth-abi \(theirValues)")
                bothAccept += 1
            case (_?, false):
                hostileTally.record(.fail("Swift (strict) accepts data eth-abi refuses (\(r["error"]?.description ?? "")): \(Hex.encode(h.data))"), case: name)
            case (nil, true):
                // Expected where eth-abi is laxer: non-canonical offsets (gaps, out-of-order or shared tails).
                hostileTally.record(.pass, case: name)
                onlyEthABIAccepts += 1
            case (nil, false):
                hostileTally.record(.pass, case: name)
                bothRefuse += 1
            }
        }
        hostileTally.report()
        print("eth-abi hostile breakdown: both refuse \(bothRefuse), both accept (same values) \(bothAccept), only eth-abi accepts (non-canonical) \(onlyEthABIAccepts)")
    }

    /// Flips a byte, truncates, or overwrites a word with a large or small number.
    static func damage(_ data: [UInt8], _ random: inout RandomABI) -> [UInt8] {
        var d = data
        switch random.below(4) {
        case 0 where !d.isEmpty:
            d[random.below(d.count)] ^= UInt8(1 + random.below(255))
        case 1:
            d = Array(d.prefix(random.below(d.count + 1)))
        case 2 where d.count >= 32:
            let at = random.below(d.count / 32) * 32
            let noise: [UInt256] = [.max, UInt256.one << 255, UInt256(UInt64.max), UInt256(UInt64(random.below(512)))]
            d.replaceSubrange(at..<at + 32, with: noise[random.below(noise.count)].bigEndianBytes)
        default:
            if d.count >= 32 {
                let at = random.below(d.count / 32) * 32
                d.replaceSubrange(at..<at + 32, with: UInt256(UInt64(32 * random.below(12))).bigEndianBytes)
            }
        }
        return d
    }

    static func handcraftedHostile() -> [(types: [ABIType], data: [UInt8])] {
        let huge = UInt256.one << 255
        var out: [(types: [ABIType], data: [UInt8])] = [
            ([.string], huge.bigEndianBytes),
            ([.bytes], word(0x20) + huge.bigEndianBytes),
            ([.array(.uint256, count: nil)], word(0x20) + UInt256(UInt64.max).bigEndianBytes),
            ([.array(.string, count: nil)], word(0x20) + word(1 << 40) + word(0x20)),
            ([.string], word(0x20) + word(5)),
            ([.string], word(0x1000)),
            ([.uint256, .string], word(1)),
            ([.array(.array(.uint(8), count: nil), count: nil)], word(0x20) + word(1) + word(0x20) + word(1) + word(300)),
        ]
        var deep = ABIType.uint(8)
        for _ in 0..<30 { deep = .array(deep, count: nil) }
        var deepData = word(0x20)
        for _ in 0..<29 { deepData += word(1) + word(0x20) }
        deepData += word(1) + word(7)
        out.append(([deep], deepData))
        return out
    }
}
