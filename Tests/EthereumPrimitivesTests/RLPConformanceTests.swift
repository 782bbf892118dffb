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
