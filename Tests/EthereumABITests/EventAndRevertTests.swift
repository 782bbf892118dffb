import EthereumABI
import EthereumPrimitives
import Testing

@Suite struct EventAndRevertTests {
    @Test func encodeAndDecodeLog() throws {
        let e = try ABIEvent(signature: "event Rented(string indexed plate, address indexed who, uint256 fee, string note)")
        let who = try Address("0x00000000000000000000000000000000000000aa")
        let (topics, data) = try e.encodeLog([.string("6789BBB"), .address(who), .unsigned(7), .string("ok")])
        #expect(topics.count == 3)
        #expect(topics[0] == Keccak256.hash("Rented(string,address,uint256,string)"))
        #expect(topics[1] == Keccak256.hash("6789BBB"))
        #expect(topics[2] == who.bytes32)
        let log = try e.decodeLog(topics: topics, data: data)
        #expect(log.values == [.hashed(Keccak256.hash("6789BBB")), .value(.address(who)), .value(.unsigned(7)), .value(.string("ok"))])
        #expect(log["fee"] == .value(.unsigned(7)))
        #expect(log.description.hasPrefix("Rented(plate=hash 0x"))
        // Wrong topic count or topic 0.
        #expect(throws: ABIError.self) { try e.decodeLog(topics: Array(topics.prefix(2)), data: data) }
        #expect(throws: ABIError.self) { try e.decodeLog(topics: [Bytes32.zero] + topics.dropFirst(), data: data) }
        // A dirty indexed address topic is refused.
        var dirty = topics
        dirty[2] = Bytes32(words: (1, 0, 0, 0xaa))
        #expect(throws: ABIError.self) { try e.decodeLog(topics: dirty, data: data) }
    }

    @Test func anonymousEventsAndContractLookup() throws {
        let abi = try ContractABI(humanReadable: [
            "event Ping(uint256 indexed n) anonymous",
            "event Pong(uint256 n)",
        ])
        let ping = try #require(abi.event(named: "Ping"))
        let (topics, data) = try ping.encodeLog([.unsigned(9)])
        #expect(topics == [UInt256(9).bytes32])
        let decoded = try abi.decodeLog(topics: topics, data: data)
        #expect(decoded.event.name == "Ping")
        let pong = try #require(abi.event(named: "Pong"))
        let (pt, pd) = try pong.encodeLog([.unsigned(3)])
        #expect(try abi.decodeLog(topics: pt, data: pd).values == [.value(.unsigned(3))])
        #expect(throws: ABIError.self) { try abi.decodeLog(topics: [Bytes32.zero, .zero], data: []) }
    }

    @Test func hashedTopicsUseTheInPlaceEncoding() throws {
        // Solidity ABI spec: array elements are padded to 32 bytes, no length or offsets.
        let topic = try ABIEvent.topic(for: .array([.string("a"), .string("b")]), as: .array(.string, count: nil))
        let preimage = [0x61] + [UInt8](repeating: 0, count: 31) + [0x62] + [UInt8](repeating: 0, count: 31)
        #expect(topic == Keccak256.hash(preimage))
        #expect(try ABIEvent.topic(for: .bytes([1, 2]), as: .bytes) == Keccak256.hash([1, 2] as [UInt8]))
        #expect(try ABIEvent.topic(for: .bool(true), as: .bool) == UInt256.one.bytes32)
        #expect(try ABIEvent.topic(for: .tuple([.unsigned(1), .bool(false)]), as: .tuple([.uint(8), .bool])) == Keccak256.hash(word(1) + word(0)))
    }

    @Test func revertReasons() throws {
        // What CarChain.vy's _fail produces for "car not rented".
        let data = hexBytes(
            "08c379a0", "0000000000000000000000000000000000000000000000000000000000000020",
            "000000000000000000000000000000000000000000000000000000000000000e",
            "636172206e6f742072656e746564000000000000000000000000000000000000")
        #expect(RevertReason(data: data) == .error("car not rented"))
        #expect(RevertReason(data: data).description == "reverted: car not rented")
        #expect(RevertReason.encodeError("car not rented") == data)
        #expect(RevertReason(data: []) == .empty)
        let panic = RevertReason(data: RevertReason.encodePanic(0x11))
        #expect(panic == .panic(PanicCode(0x11)))
        #expect(panic.description == "panic 0x11 (arithmetic overflow or underflow)")
        #expect(PanicCode(0x01).description == "0x01 (assertion failed)")
        #expect(PanicCode(0x99).description == "0x99 (unknown panic code)")
        for (code, meaning) in [(0x12, "division"), (0x21, "enum"), (0x22, "storage"), (0x31, "pop"), (0x32, "out of bounds"), (0x41, "memory"), (0x51, "zero-initialized")] {
            #expect(PanicCode(UInt256(UInt64(code))).meaning?.contains(meaning) == true)
        }
        let custom = try ABICustomError(signature: "error NotOwner(address caller, uint8 code)")
        let who = try Address("0x1111111111111111111111111111111111111111")
        let customData = try custom.encode([.address(who), .unsigned(3)])
        let decoded = RevertReason(data: customData, errors: [custom])
        #expect(decoded == .custom(custom, [.address(who), .unsigned(3)]))
        #expect(decoded.description == "reverted with NotOwner(caller=\(who.checksummed), code=3)")
        #expect(RevertReason(data: customData) == .unrecognized(customData))
        // Truncated Error(string) is unrecognized, not a trap.
        #expect(RevertReason(data: data.prefix(40)) == .unrecognized(Array(data.prefix(40))))
        #expect(RevertReason(data: [0x08, 0xc3]) == .unrecognized([0x08, 0xc3]))
    }
}
