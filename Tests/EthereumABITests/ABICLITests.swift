import EthereumABI
import EthereumPrimitives
import Foundation
import Testing
import TestSupport

/// `carchain abi …` run as a subprocess (the binary built next to the tests).
@Suite struct ABICLITests {
    func run(_ arguments: String...) throws -> ProcessRunner.Output? {
        guard let binary = ProcessRunner.carchainExecutable() else { return nil }
        return try ProcessRunner.run(binary, arguments)
    }

    @Test func selectorAndEncode() throws {
        guard let s = try run("abi", "selector", "rentCar(string,string)") else { return }
        #expect(s.stdout == "0xec73afef\n")
        let e = try #require(try run("abi", "encode", "function rentCar(string plate, string userId)", "6789BBB", "u1"))
        let expected = try ABIFunction(signature: "rentCar(string,string)").encodeCall([.string("6789BBB"), .string("u1")])
        #expect(e.stdout == Hex.encode(expected) + "\n")
        let bare = try #require(try run("abi", "encode", "(int8,bytes,uint256[])", "-1", "0xc0ffee", "[1,2,3]"))
        let want = try ABIEncoder.encode([.signed(-1), .bytes([0xc0, 0xff, 0xee]), .array([.unsigned(1), .unsigned(2), .unsigned(3)])], as: ABIType.parseList("int8,bytes,uint256[]"))
        #expect(bare.stdout == Hex.encode(want) + "\n")
        let event = try #require(try run("abi", "selector", "event CarRented(string plate, string userId)"))
        #expect(event.stdout == Keccak256.hash("CarRented(string,string)").description + "\n")
    }

    @Test func encodeErrorsNameTheArgument() throws {
        guard let out = try run("abi", "encode", "(string,uint8)", "x", "300") else { return }
        #expect(out.status == 1)
        #expect(out.stderr == "carchain: argument 2 (uint8): 300 does not fit\n")
        let nested = try #require(try run("abi", "encode", "f((address,uint8)[])", #"[["0x00000000000000000000000000000000000000aa", 500]]"#))
        #expect(nested.stderr == "carchain: argument 1[0].1 (uint8): 500 does not fit\n")
        let count = try #require(try run("abi", "encode", "f(uint256,bool)", "1"))
        #expect(count.status == 1 && count.stderr.contains("takes 2 arguments, got 1"))
    }

    @Test func decode() throws {
        let data = try ABIEncoder.encode([.bool(true), .string("hello wörld"), .signed(-7)], as: [.bool, .string, .int(16)])
        guard let out = try run("abi", "decode", "(bool,string,int16)", Hex.encode(data)) else { return }
        #expect(out.stdout == #"[true,"hello wörld","-7"]"# + "\n")
        let hostile = try #require(try run("abi", "decode", "string", Hex.encode(word(0x20) + UInt256.max.bigEndianBytes)))
        #expect(hostile.status == 1 && hostile.stderr.hasPrefix("carchain: ABI data does not decode at byte 32 (value 1): string length"))
        let calldata = try #require(try run("abi", "decode", "--calldata", "string,string", Hex.encode(try ABIFunction(signature: "rentCar(string,string)").encodeCall([.string("a"), .string("b")]))))
        #expect(calldata.stdout == #"["a","b"]"# + "\n")
    }

    @Test func decodeError() throws {
        guard let out = try run("abi", "decode-error", Hex.encode(RevertReason.encodeError("car not rented"))) else { return }
        #expect(out.stdout == "reverted: car not rented\n")
        let panic = try #require(try run("abi", "decode-error", "--json", Hex.encode(RevertReason.encodePanic(0x32))))
        #expect(panic.stdout == #"{"kind":"panic","code":"0x32","meaning":"array index out of bounds"}"# + "\n")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("abi-cli-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(#"{"abi":[{"type":"error","name":"NotOwner","inputs":[{"name":"who","type":"address"}]}]}"#.utf8).write(to: dir)
        let err = try ABICustomError(signature: "error NotOwner(address who)")
        let who = try Address("0x00000000000000000000000000000000000000aa")
        let custom = try #require(try run("abi", "decode-error", "--abi", dir.path, Hex.encode(try err.encode([.address(who)]))))
        #expect(custom.stdout == "reverted with NotOwner(who=\(who.checksummed))\n")
    }

    @Test func decodeLog() throws {
        let event = try ABIEvent(signature: "event CarRented(string plate, string userId)")
        let (topics, data) = try event.encodeLog([.string("6789BBB"), .string("u1")])
        guard let out = try run("abi", "decode-log", "--topics", topics[0].description, "--data", Hex.encode(data)) else { return }
        #expect(out.stdout == #"{"event":"CarRented","signature":"CarRented(string,string)","args":{"plate":"6789BBB","userId":"u1"}}"# + "\n")
        let unknown = try #require(try run("abi", "decode-log", "--topics", Bytes32.zero.description, "--data", "0x"))
        #expect(unknown.status == 1 && unknown.stderr.contains("no event in the ABI matches"))
    }
}
