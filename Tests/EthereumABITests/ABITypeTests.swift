import EthereumABI
import EthereumPrimitives
import Testing

@Suite struct ABITypeTests {
    @Test(arguments: [
        "uint8", "uint256", "int8", "int256", "address", "bool", "bytes1", "bytes32", "bytes", "string",
        "uint256[]", "uint8[3]", "string[2][]", "(uint256,string)", "(uint256,string)[2][]", "()",
        "((address,bytes)[],bool)[1]", "(((int64)))", "function", "function[2]", "(function,uint8)",
    ])
    func canonicalRoundTrip(_ text: String) throws {
        let type = try ABIType(parsing: text)
        #expect(type.description == text)
    }

    @Test func aliasesAndSpaces() throws {
        #expect(try ABIType(parsing: "uint") == .uint(256))
        #expect(try ABIType(parsing: "int[]") == .array(.int(256), count: nil))
        #expect(try ABIType(parsing: "tuple(uint, string)[2]") == .array(.tuple([.uint256, .string]), count: 2))
        #expect(try ABIType(parsing: " ( bool , bytes ) ") == .tuple([.bool, .bytes]))
    }

    /// `function` (an address and a selector) encodes exactly as `bytes24` (the ABI specification, "Types").
    @Test func functionIsBytes24() throws {
        let reference = Array(0..<24).map { UInt8($0 + 1) }
        let value = ABIValue.fixedBytes(reference)
        let asFunction = try ABIEncoder.encode([value, .uint(UInt256(7))], as: [.function, .uint(8)])
        #expect(asFunction == (try ABIEncoder.encode([value, .uint(UInt256(7))], as: [.fixedBytes(24), .uint(8)])))
        #expect(try ABIDecoder.decode([.function, .uint(8)], from: asFunction) == [value, .uint(UInt256(7))])
        #expect(throws: ABIError.self) { try ABIEncoder.encode(.fixedBytes([1, 2]), as: .function) }
        #expect(try ABIFunction(signature: "function f(function cb)").signature == "f(function)")
        #expect(try ABIValue(parsing: "0x" + String(repeating: "ab", count: 24), as: .function) == .fixedBytes(Array(repeating: 0xab, count: 24)))
    }

    @Test func lists() throws {
        #expect(try ABIType.parseList("uint256,string") == [.uint256, .string])
        #expect(try ABIType.parseList("(uint256,string)") == [.uint256, .string])
        #expect(try ABIType.parseList("(uint256,string)[]") == [.array(.tuple([.uint256, .string]), count: nil)])
        #expect(try ABIType.parseList("(uint8),bool") == [.tuple([.uint(8)]), .bool])
        #expect(try ABIType.parseList("") == [])
        #expect(try ABIType.parseList("()") == [])
    }

    @Test(arguments: [
        "uint7", "uint264", "uint0", "bytes0", "bytes33", "uint08", "strin", "uint256[0]", "uint256[01]",
        "(uint256", "uint256)", "uint256[", "uint256[x]", "()[]", "()[2]", "fixed128x18", "functions", "uint256 x", "",
        "uint256[99999999999999999999]", "uint256[4294967296][4294967296]",
    ])
    func invalidTypes(_ text: String) throws {
        #expect(throws: ABIError.self) { try ABIType(parsing: text) }
    }

    @Test func deepNestingIsRefusedQuickly() throws {
        let deep = String(repeating: "(", count: 100_000) + "uint8" + String(repeating: ")", count: 100_000)
        let message = errorMessage { try ABIType(parsing: deep) }
        #expect(message?.contains("nested more than 64") == true)
        let arrays = "uint8" + String(repeating: "[]", count: 100_000)
        #expect(errorMessage { try ABIType(parsing: arrays) }?.contains("nested more than 64") == true)
        // Built in code, the same depth is refused by validate().
        var t = ABIType.bool
        for _ in 0..<100 { t = .array(t, count: nil) }
        #expect(throws: ABIError.self) { try t.validate() }
    }

    @Test func sizes() throws {
        #expect(ABIType.uint256.headSize == 32)
        #expect(try ABIType(parsing: "uint8[3]").headSize == 96)
        #expect(try ABIType(parsing: "(uint8,bool[2])[2]").headSize == 192)
        #expect(try ABIType(parsing: "string[2]").isDynamic)
        #expect(try ABIType(parsing: "string[2]").headSize == 32)
        #expect(try !ABIType(parsing: "(bytes32,address)[4]").isDynamic)
        #expect(try ABIType(parsing: "()").headSize == 0)
    }

    @Test func invalidTypesBuiltInCode() throws {
        #expect(throws: ABIError.self) { try ABIType.uint(7).validate() }
        #expect(throws: ABIError.self) { try ABIType.fixedBytes(0).validate() }
        #expect(throws: ABIError.self) { try ABIType.array(.bool, count: 0).validate() }
        #expect(throws: ABIError.self) { try ABIType.array(.tuple([]), count: nil).validate() }
        #expect(throws: ABIError.self) { try ABIType.array(.array(.uint256, count: 1 << 30), count: 1 << 30).validate() }
    }
}
