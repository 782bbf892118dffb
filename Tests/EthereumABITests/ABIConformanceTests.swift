import EthereumABI
import EthereumPrimitives
import Testing
import TestSupport

/// ethereum/tests ABITests: each case gives types, JSON arguments and the expected encoding.
@Suite struct ABIConformanceTests {
    @Test func abiTests() throws {
        let tally = ConformanceVectors.run(suite: "ABITests", directory: "ABITests") { _, name, value in
            do {
                guard let typeNames = value["types"]?.arrayValue?.compactMap(\.stringValue),
                    let args = value["args"]?.arrayValue, let result = value["result"]?.stringValue
                else { return .fail("case \(name) lacks types, args or result") }
                let types = try typeNames.map { try ABIType(parsing: $0) }
                guard types.count == args.count else { return .fail("\(types.count) types but \(args.count) args") }
                let values = try zip(args, types).map { try ABIConformanceTests.value($0, $1) }
                let encoded = try ABIEncoder.encode(values, as: types)
                let expected = try Hex.decode(result)
                guard encoded == expected else { return .fail("encoding: \(firstDifference(encoded, expected))") }
                let decoded = try ABIDecoder.decode(types, from: expected)
                guard decoded == values else { return .fail("decoding gave \(decoded), expected \(values)") }
                return .pass
            } catch {
                return .fail("\(error)")
            }
        }
        tally.report()
    }

    /// The vectors' argument convention: numbers as JSON numbers, addresses as hex, and bytes/bytesN as
    /// raw text (e.g. "1234567890" for a bytes10 holds the ASCII digits).
    static func value(_ json: JSONValue, _ type: ABIType) throws -> ABIValue {
        switch (type, json) {
        case (.fixedBytes(let n), .string(let s)):
            var bytes = Array(s.utf8)
            if bytes.count < n { bytes += [UInt8](repeating: 0, count: n - bytes.count) }
            return .fixedBytes(bytes)
        case (.bytes, .string(let s)):
            return .bytes(Array(s.utf8))
        case (.array(let element, _), .array(let items)):
            return .array(try items.map { try value($0, element) })
        case (.tuple(let components), .array(let items)):
            return .tuple(try zip(items, components).map { try value($0, $1) })
        default:
            return try ABIValue(json: json, as: type)
        }
    }
}
