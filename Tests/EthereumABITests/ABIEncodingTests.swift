import EthereumABI
import EthereumPrimitives
import Testing
import TestSupport

/// Known encodings: the examples of the Solidity ABI specification (checked against eth-abi) and edge cases.
@Suite struct ABIEncodingTests {
    @Test func solidityDocsBaz() throws {
        let f = try ABIFunction(signature: "function baz(uint32 x, bool y) returns (bool r)")
        #expect(f.selector.description == "0xcdcd77c0")
        let data = try f.encodeCall([.unsigned(69), .bool(true)])
        #expect(data == hexBytes("cdcd77c0") + word(69) + word(1))
    }

    @Test func solidityDocsBar() throws {
        let f = try ABIFunction(signature: "bar(bytes3[2])")
        #expect(f.selector.description == "0xfce353f6")
        let data = try f.encodeCall([.array([.fixedBytes(Array("abc".utf8)), .fixedBytes(Array("def".utf8))])])
        #expect(Hex.encode(data) == "0xfce353f6" + "616263" + String(repeating: "0", count: 58) + "646566" + String(repeating: "0", count: 58))
    }

    @Test func solidityDocsSam() throws {
        let f = try ABIFunction(signature: "sam(bytes,bool,uint256[])")
        #expect(f.selector.description == "0xa5643bf2")
        let args: [ABIValue] = [.bytes(Array("dave".utf8)), .bool(true), .array([.unsigned(1), .unsigned(2), .unsigned(3)])]
        let data = try f.encodeCall(args)
        let expected = hexBytes("a5643bf2") + word(0x60) + word(1) + word(0xa0) + word(4)
            + hexBytes("6461766500000000000000000000000000000000000000000000000000000000")
            + word(3) + word(1) + word(2) + word(3)
        #expect(data == expected, "\(firstDifference(data, expected))")
        #expect(try f.decodeCall(data) == args)
    }

    @Test func solidityDocsG() throws {
        let f = try ABIFunction(signature: "function g(uint256[][] a, string[] b)")
        #expect(f.selector.description == "0x2289b18c")
        let args: [ABIValue] = [
            .array([.array([.unsigned(1), .unsigned(2)]), .array([.unsigned(3)])]),
            .array([.string("one"), .string("two"), .string("three")]),
        ]
        let data = try f.encodeCall(args)
        func text(_ s: String) -> [UInt8] { Array(s.utf8) + [UInt8](repeating: 0, count: 32 - s.utf8.count) }
        let expected = hexBytes("2289b18c") + word(0x40) + word(0x140)
            + word(2) + word(0x40) + word(0xa0) + word(2) + word(1) + word(2) + word(1) + word(3)
            + word(3) + word(0x60) + word(0xa0) + word(0xe0)
            + word(3) + text("one") + word(3) + text("two") + word(5) + text("three")
        #expect(data == expected, "\(firstDifference(data, expected))")
        #expect(try f.decodeCall(data) == args)
    }

    @Test func signedAndNestedTuples() throws {
        // eth_abi.encode(['int8','int256','(uint8,string)[2]'], [-1, -2**255, [(1,'a'),(2,'')]])
        let types = try ABIType.parseList("int8,int256,(uint8,string)[2]")
        let values: [ABIValue] = [
            .signed(-1), .int(UInt256.one << 255),
            .array([.tuple([.unsigned(1), .string("a")]), .tuple([.unsigned(2), .string("")])]),
        ]
        let expected = hexBytes(
            "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
            "8000000000000000000000000000000000000000000000000000000000000000",
            "0000000000000000000000000000000000000000000000000000000000000060",
            "0000000000000000000000000000000000000000000000000000000000000040",
            "00000000000000000000000000000000000000000000000000000000000000c0",
            "0000000000000000000000000000000000000000000000000000000000000001",
            "0000000000000000000000000000000000000000000000000000000000000040",
            "0000000000000000000000000000000000000000000000000000000000000001",
            "6100000000000000000000000000000000000000000000000000000000000000",
            "0000000000000000000000000000000000000000000000000000000000000002",
            "0000000000000000000000000000000000000000000000000000000000000040",
            "0000000000000000000000000000000000000000000000000000000000000000")
        let data = try ABIEncoder.encode(values, as: types)
        #expect(data == expected, "\(firstDifference(data, expected))")
        #expect(try ABIDecoder.decode(types, from: data) == values)
    }

    @Test func typeCheckMessages() throws {
        let types: [ABIType] = [.string, .uint(8)]
        #expect(errorMessage { try ABIEncoder.encode([.string("x"), .unsigned(300)], as: types) } == "argument 2 (uint8): 300 does not fit")
        #expect(errorMessage { try ABIEncoder.encode([.string("x"), .signed(-1)], as: [.string, .int(8)]) } == nil)
        #expect(errorMessage { try ABIEncoder.encode([.signed(-129)], as: [.int(8)]) } == "argument 1 (int8): -129 does not fit")
        #expect(errorMessage { try ABIEncoder.encode([.signed(128)], as: [.int(8)]) } == "argument 1 (int8): 128 does not fit")
        #expect(errorMessage { try ABIEncoder.encode([.bool(true)], as: [.string]) } == "argument 1 (string): expected a string, got a bool")
        #expect(errorMessage { try ABIEncoder.encode([.fixedBytes([1, 2])], as: [.fixedBytes(3)]) } == "argument 1 (bytes3): expected 3 bytes, got 2")
        let nested = ABIType.array(.tuple([.uint(8), .bool]), count: nil)
        #expect(
            errorMessage { try ABIEncoder.encode([.array([.tuple([.unsigned(1), .bool(true)]), .tuple([.unsigned(256), .bool(false)])])], as: [nested]) }
                == "argument 1[1].0 (uint8): 256 does not fit")
        #expect(errorMessage { try ABIEncoder.encode([.array([.bool(true)])], as: [.array(.bool, count: 2)]) } == "argument 1 (bool[2]): expected 2 elements, got 1")
        #expect(errorMessage { try ABIEncoder.encode([], as: [.bool]) } == "arguments ((bool)): expected 1 value, got 0")
    }

    @Test func extremes() throws {
        let types: [ABIType] = [.uint256, .int256, .int(8), .uint(8), .address, .fixedBytes(32), .bytes, .string]
        let values: [ABIValue] = [
            .uint(.max), .int(UInt256.one << 255), .signed(-128), .unsigned(255),
            .address(try Address("0xffffffffffffffffffffffffffffffffffffffff")), .fixedBytes([UInt8](repeating: 0xff, count: 32)),
            .bytes([UInt8](repeating: 7, count: 33)), .string("héllo ✓ 𝄞"),
        ]
        let data = try ABIEncoder.encode(values, as: types)
        #expect(try ABIDecoder.decode(types, from: data) == values)
    }

    @Test func stringsCompareByBytes() throws {
        // "é" precomposed and decomposed are canonically equivalent in Swift but encode differently.
        #expect(ABIValue.string("\u{e9}") != ABIValue.string("e\u{301}"))
    }

    /// JSON numbers in array and tuple arguments are exact: 2^70 and 2^256 - 1 arrive as written (a parser
    /// going through Double would turn them into 1180591620717411303424 ± 2^18 and refuse the second).
    @Test func bigJSONNumbersInArgumentsAreExact() throws {
        let value = try ABIValue(
            parsing: "[1180591620717411303424, 115792089237316195423570985008687907853269984665640564039457584007913129639935]",
            as: .array(.uint256, count: nil))
        #expect(value == .array([.uint(UInt256.one << 70), .uint(.max)]))
        let tuple = try ABIValue(parsing: "[-1180591620717411303424, 1180591620717411303424]", as: .tuple([.int256, .uint(128)]))
        #expect(tuple == .tuple([.int(UInt256.zero &- (UInt256.one << 70)), .uint(UInt256.one << 70)]))
    }
}
