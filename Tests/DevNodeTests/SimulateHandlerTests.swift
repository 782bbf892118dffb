import Chain
import DevNode
import EthereumPrimitives
import EthereumTransactions
import Testing

/// `eth_simulateV1` through the JSON-RPC handler: decoding, the result's members (geth's), and the errors' codes.
@Suite struct SimulateHandlerTests {
    static let sender = "0xc000000000000000000000000000000000000000"
    static let recipient = "0xc100000000000000000000000000000000000000"

    /// A payload with one block: `body` is the block object's members.
    static func params(_ block: String, options: String = "", at tag: String = "\"latest\"") -> String {
        "[{\"blockStateCalls\":[{\(block)}]\(options)},\(tag)]"
    }

    static let transfer =
        "\"stateOverrides\":{\"\(sender)\":{\"balance\":\"0x7d0\"}},\"calls\":[{\"from\":\"\(sender)\",\"to\":\"\(recipient)\",\"value\":\"0x3e8\"}]"

    @Test func decodesEveryMember() throws {
        let json = try JSONValue(
            parsing: Array(
                """
                [{"blockStateCalls":[{"blockOverrides":{"number":"0x10","time":"0x20","gasLimit":"0x30","feeRecipient":"\(Self.recipient)",
                "prevRandao":"0x\(String(repeating: "11", count: 32))","baseFeePerGas":"0x7","blobBaseFee":"0x8",
                "withdrawals":[{"index":"0x1","validatorIndex":"0x2","address":"\(Self.sender)","amount":"0x3"}]},
                "stateOverrides":{"\(Self.sender)":{"nonce":"0x5","balance":"0x9","code":"0x6000",
                "stateDiff":{"0x\(String(repeating: "00", count: 31))01":"0x\(String(repeating: "00", count: 31))02"}},
                "0x0000000000000000000000000000000000000001":{"movePrecompileToAddress":"\(Self.recipient)"}},
                "calls":[{"from":"\(Self.sender)","to":"\(Self.recipient)","value":"0x1","chainId":"0x4","nonce":"0x2"}]}],
                "traceTransfers":true,"validation":true,"returnFullTransactions":true},"0x0"]
                """.utf8))
        let decoded = try RPCRequest.decode(method: "eth_simulateV1", params: json)
        let sender = try Address(Self.sender)
        let recipient = try Address(Self.recipient)
        let overrides = BlockOverrides(
            number: 16, time: 32, gasLimit: 48, feeRecipient: recipient, prevRandao: try Bytes32(hex: String(repeating: "11", count: 32)),
            baseFeePerGas: UInt256(7), blobBaseFee: UInt256(8),
            withdrawals: [Withdrawal(index: 1, validatorIndex: 2, address: sender, amount: 3)])
        let state: StateOverrides = [
            sender: AccountOverride(nonce: 5, code: [0x60, 0x00], balance: UInt256(9), stateDiff: [.one: UInt256(2)]),
            try Address("0x0000000000000000000000000000000000000001"): AccountOverride(movePrecompileToAddress: recipient),
        ]
        let call = SimulatedCall(
            CallRequest(from: sender, to: recipient, value: .one, nonce: 2), chainID: UInt256(4))
        let expected = SimulationRequest(
            blocks: [SimulatedBlockRequest(overrides: overrides, stateOverrides: state, calls: [call])], traceTransfers: true,
            validation: true)
        #expect(decoded == .simulate(expected, .number(0), fullTransactions: true))
    }

    @Test func badParametersAreRefusedWithInvalidParams() async throws {
        let node = try await HandlerHarness.make()
        #expect(try await node.errorCode("eth_simulateV1", "[]") == -32602)
        #expect(try await node.errorCode("eth_simulateV1", "[[]]") == -32602)
        #expect(try await node.errorCode("eth_simulateV1", "[{}]") == -32602)  // no blocks: geth's "empty input"
        #expect(try await node.errorCode("eth_simulateV1", "[{\"blockStateCalls\":{}}]") == -32602)
        #expect(try await node.errorCode("eth_simulateV1", Self.params("\"stateOverrides\":{\"0x12\":{}}")) == -32602)
        #expect(try await node.errorCode("eth_simulateV1", Self.params("\"blockOverrides\":{\"number\":\"0xx\"}")) == -32602)
        #expect(try await node.errorCode("eth_simulateV1", Self.params("", options: ",\"validation\":1")) == -32602)
    }

    @Test func resultHasGethsMembers() async throws {
        let node = try await HandlerHarness.make()
        let result = try await node.result(
            "eth_simulateV1", Self.params(Self.transfer, options: ",\"traceTransfers\":true,\"returnFullTransactions\":true"))
        guard case .array(let blocks) = result, case .object(let members)? = blocks.first else {
            Issue.record("expected an array of blocks, got \(result)")
            return
        }
        // geth's members of a post-Prague simulated block (rpc-compat's eth_simulateV1 answers).
        let expected: Set<String> = [
            "baseFeePerGas", "blobGasUsed", "calls", "difficulty", "excessBlobGas", "extraData", "gasLimit", "gasUsed",
            "hash", "logsBloom", "miner", "mixHash", "nonce", "number", "parentBeaconBlockRoot", "parentHash",
            "receiptsRoot", "requestsHash", "sha3Uncles", "size", "stateRoot", "timestamp", "transactions",
            "transactionsRoot", "uncles", "withdrawals", "withdrawalsRoot",
        ]
        #expect(Set(members.map(\.key)) == expected)
        let block = try #require(blocks.first)
        let call = try #require(block["calls"]?.arrayValue?.first)
        #expect(call["status"] == .string("0x1"))
        #expect(call["gasUsed"] == .string("0x5208") && call["maxUsedGas"] == .string("0x5208"))
        #expect(call["returnData"] == .string("0x"))
        #expect(call["error"] == nil)
        let log = try #require(call["logs"]?.arrayValue?.first)
        #expect(log["address"] == .string("0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee"))
        #expect(log["data"] == .string("0x" + String(repeating: "0", count: 61) + "3e8"))
        #expect(log["blockHash"] == block["hash"] && log["blockTimestamp"] == block["timestamp"])
        let tx = try #require(block["transactions"]?.arrayValue?.first)
        #expect(tx["from"] == .string(Self.sender))
        #expect(tx["type"] == .string("0x2") && tx["v"] == .string("0x0") && tx["yParity"] == .string("0x0"))
        #expect(tx["blockHash"] == block["hash"] && tx["blockTimestamp"] == block["timestamp"])
        // Nothing was mined.
        #expect(try await node.result("eth_blockNumber") == .string("0x0"))
    }

    @Test func failedCallsCarryTheirErrorObject() async throws {
        let node = try await HandlerHarness.make()
        // REVERT(0, 4) with the bytes 0xdeadbeef stored first, and INVALID.
        let reverts = "0x63deadbeef60e01b60005260046000fd"
        let result = try await node.result(
            "eth_simulateV1",
            Self.params(
                "\"stateOverrides\":{\"\(Self.recipient)\":{\"code\":\"\(reverts)\"},\"\(Self.sender)\":{\"code\":\"0xfe\"}},"
                    + "\"calls\":[{\"to\":\"\(Self.recipient)\"},{\"to\":\"\(Self.sender)\",\"gas\":\"0x7530\"}]"))
        let calls = try #require(result.arrayValue?.first?["calls"]?.arrayValue)
        #expect(calls.count == 2)
        #expect(calls[0]["status"] == .string("0x0"))
        #expect(calls[0]["returnData"] == .string("0x"))
        #expect(calls[0]["error"]?["code"] == .number("3"))
        #expect(calls[0]["error"]?["data"] == .string("0xdeadbeef"))
        #expect(calls[1]["error"]?["code"] == .number("-32015"))
        #expect(calls[1]["error"]?["data"] == nil)
        #expect(calls[1]["gasUsed"] == .string("0x7530"))  // a halt uses all its gas
    }

    @Test func invalidRequestsGetTheSpecsCodes() async throws {
        let node = try await HandlerHarness.make()
        let order = "[{\"blockStateCalls\":[{\"blockOverrides\":{\"number\":\"0x5\"}},{\"blockOverrides\":{\"number\":\"0x4\"}}]},\"latest\"]"
        #expect(try await node.errorCode("eth_simulateV1", order) == -38020)
        let time = "[{\"blockStateCalls\":[{\"blockOverrides\":{\"time\":\"0x0\"}}]},\"latest\"]"
        #expect(try await node.errorCode("eth_simulateV1", time) == -38021)
        let many = "[{\"blockStateCalls\":[" + Array(repeating: "{}", count: 257).joined(separator: ",") + "]},\"latest\"]"
        #expect(try await node.errorCode("eth_simulateV1", many) == -38026)
        let far = "[{\"blockStateCalls\":[{\"blockOverrides\":{\"number\":\"0x10000000000000000\"}}]},\"latest\"]"
        #expect(try await node.errorCode("eth_simulateV1", far) == -38026)
        let poor = Self.params("\"calls\":[{\"from\":\"\(Self.sender)\",\"to\":\"\(Self.recipient)\",\"value\":\"0x1\"}]")
        #expect(try await node.errorCode("eth_simulateV1", poor) == -38014)
        let unknown = try await node.answer("eth_simulateV1", Self.params(Self.transfer, at: "\"0x99\""))
        #expect(unknown["error"]?["code"] == .number("-32000"))
        #expect(unknown["error"]?["message"] == .string("header not found"))
    }
}
