import TestSupport
import Testing
import EthereumPrimitives

/// ethereum/tests RLPTests: every JSON file in the folder (rlptest.json, invalidRLPTest.json and
/// RandomRLPTests/). Cases with `"in": "INVALID"` must be rejected; `"in": "VALID"` must decode and
/// re-encode to the same bytes; any other `in` is encoded and compared with `out`, and `out` is decoded
/// and compared with it.
@Suite struct RLPConformanceTests {
    @Test func rlpTests() {
        let tally = ConformanceVectors.run(suite: "RLPTests", directory: "RLPTests") { _, _, value in
            guard let outHex = value["out"]?.stringValue, let input = value["in"] else {
                return .fail("case has no `in` or `out`")
            }
            let out: [UInt8]
            do { out = try [UInt8](hex: outHex) } catch { return .fail("bad hex in `out`: \(error)") }
            switch input {
            case .string("INVALID"):
                do {
                    let item = try RLP.decode(out)
                    return .fail("decoded to \(item) but must be rejected")
                } catch {
                    return .pass
                }
            case .string("VALID"):
                do {
                    let item = try RLP.decode(out)
                    let again = RLP.encode(item)
                    return again == out ? .pass : .fail("re-encoding differs: \(firstDifference(again, out))")
                } catch {
                    return .fail("rejected valid input: \(error)")
                }
            default:
                let expected: RLPItem
                do { expected = try item(fromVector: input) } catch { return .fail("\(error)") }
                let encoded = RLP.encode(expected)
                guard encoded == out else { return .fail("encoding differs: \(firstDifference(encoded, out))") }
                do {
                    let decoded = try RLP.decode(out)
                    return decoded == expected ? .pass : .fail("decoded \(decoded), expected \(expected)")
                } catch {
                    return .fail("decoding `out` failed: \(error)")
                }
            }
        }
        tally.report()
    }

    /// The tree-free codecs (`RLP.encodeList`, `RLP.encodeString`, `RLP.forEachString`, `RLP.withString`) against the
    /// item codec on every vector's `out`: the same bytes accepted and refused, the same strings read, the same
    /// encoding written.
    @Test func flatCodecsAgreeWithTheItemCodec() {
        let tally = ConformanceVectors.run(suite: "RLPTests (flat codecs)", directory: "RLPTests") { _, _, value in
            guard let outHex = value["out"]?.stringValue, let out = try? [UInt8](hex: outHex) else {
                return .fail("case has no `out` hex")
            }
            var strings: [[UInt8]] = []
            let flat = Result { () throws(RLPError) -> Int in
                try RLP.forEachString(inList: out) { index, bytes in
                    guard index == strings.count else { return }
                    strings.append(Array(bytes))
                }
            }
            let single = Result { () throws(RLPError) -> [UInt8] in try RLP.withString(out) { Array($0) } }
            switch (Result { () throws(RLPError) -> RLPItem in try RLP.decode(out) }) {
            case .failure:
                if case .success = flat { return .fail("forEachString accepted what decode refuses") }
                if case .success = single { return .fail("withString accepted what decode refuses") }
                return .pass
            case .success(.bytes(let bytes)):
                if case .success = flat { return .fail("forEachString accepted a byte string") }
                guard case .success(let read) = single, read == bytes else { return .fail("withString read \(single), decode \(bytes)") }
                let encoded = bytes.withUnsafeBytes(RLP.encodeString)
                return encoded == out ? .pass : .fail("encodeString differs: \(firstDifference(encoded, out))")
            case .success(.list(let items)):
                if case .success = single { return .fail("withString accepted a list") }
                let nested = items.contains { if case .list = $0 { true } else { false } }
                switch flat {
                case .failure where nested: return .pass
                case .failure(let error): return .fail("forEachString refused a flat list: \(error)")
                case .success where nested: return .fail("forEachString accepted a nested list")
                case .success(let count):
                    guard count == items.count, strings.map(RLPItem.bytes) == items else {
                        return .fail("forEachString read \(strings), decode \(items)")
                    }
                    let encoded = RLP.encodeList { add in for string in strings { string.withUnsafeBytes(add) } }
                    return encoded == out ? .pass : .fail("encodeList differs: \(firstDifference(encoded, out))")
                }
            }
        }
        tally.report()
    }
}

struct VectorError: Error, CustomStringConvertible {
    let description: String
}

/// The item a test vector's `in` denotes: strings are UTF-8 bytes, `"#digits"` a big integer, numbers
/// integers (minimal big-endian), arrays lists.
func item(fromVector value: JSONValue) throws -> RLPItem {
    switch value {
    case .string(let s) where s.hasPrefix("#"):
        return .bytes(try bigEndianBytes(decimal: String(s.dropFirst())))
    case .string(let s):
        return .bytes(Array(s.utf8))
    case .number(let n):
        return .bytes(try bigEndianBytes(decimal: n))
    case .array(let elements):
        return .list(try elements.map(item(fromVector:)))
    default:
        throw VectorError(description: "unsupported `in` value \(value)")
    }
}

/// The minimal big-endian bytes of a non-negative decimal integer of any size (empty for zero).
func bigEndianBytes(decimal: String) throws -> [UInt8] {
    var littleEndian: [UInt8] = []
    for c in decimal.utf8 {
        guard c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") else {
            throw VectorError(description: "not a decimal digit in \(decimal)")
        }
        var carry = UInt(c - UInt8(ascii: "0"))
        for i in littleEndian.indices {
            let v = UInt(littleEndian[i]) * 10 + carry
            littleEndian[i] = UInt8(truncatingIfNeeded: v)
            carry = v >> 8
        }
        while carry > 0 {
            littleEndian.append(UInt8(truncatingIfNeeded: carry))
            carry >>= 8
        }
    }
    while littleEndian.last == 0 { littleEndian.removeLast() }
    return littleEndian.reversed()
}
