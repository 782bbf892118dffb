import Chain
import DevNode
import EthereumPrimitives
import EthereumTransactions
import Foundation
import Testing

/// `testing_buildBlockV1` on a dev chain. The truth is the chain's block processor (the import path, which
/// shares no code with the builder's assembly): the payload, turned back into a block, must hash to the
/// `blockHash` given and pass every header and body rule and commitment (state root, receipts root, bloom,
/// gas, requests hash) on the head's state. And the chain must not change.
@Suite struct BuildBlockTests {
    static let attributes = """
        {"timestamp":"TS","prevRandao":"0x\(String(repeating: "11", count: 32))",\
        "suggestedFeeRecipient":"0x000000000000000000000000000000000000fee1",\
        "withdrawals":[{"index":"0x0","validatorIndex":"0x7","address":"0x00000000000000000000000000000000000000aa","amount":"0x64"}],\
        "parentBeaconBlockRoot":"0x\(String(repeating: "22", count: 32))"}
        """

    /// Automine off and two transfers of account 0 in the pool.
    static func chainWithPool() async throws -> (HandlerHarness, head: JSONValue, attributes: String) {
        let h = try await HandlerHarness.make()
        _ = try await h.result("evm_mine")
        _ = try await h.result("evm_setAutomine", "[false]")
        _ = try await h.send(to: "0x00000000000000000000000000000000000000bb", value: "0x10")
        _ = try await h.send(to: "0x00000000000000000000000000000000000000cc", value: "0x20")
        let head = try await h.result("eth_getBlockByNumber", "[\"latest\",false]")
        let ts = try #require(head["timestamp"]?.quantity)
        return (h, head, attributes.replacingOccurrences(of: "TS", with: "0x" + String(ts + 12, radix: 16)))
    }

    func hex(_ value: JSONValue?) throws -> [UInt8] { try Hex.decode(try #require(value?.stringValue)) }
    func word(_ value: JSONValue?) throws -> Bytes32 { try #require(Bytes32(try hex(value))) }
    func quantity(_ value: JSONValue?) throws -> UInt64 { try #require(value?.quantity) }

    /// The payload as a block, checked by the block processor on the head's state; returns what it produced.
    func process(_ h: HandlerHarness, _ envelope: JSONValue, beaconRoot: Bytes32) async throws -> ProcessedBlock {
        let p = try #require(envelope["executionPayload"])
        let transactions = try #require(p["transactions"]?.arrayValue).map { try SignedTransaction.decode(try hex($0)) }
        let withdrawals = try #require(p["withdrawals"]?.arrayValue).map { w in
            Withdrawal(
                index: try quantity(w["index"]), validatorIndex: try quantity(w["validatorIndex"]),
                address: try Address(try #require(w["address"]?.stringValue)), amount: try quantity(w["amount"]))
        }
        let requests = try #require(envelope["executionRequests"]?.arrayValue).map { try hex($0) }
        let unsigned = DecodedBlock(
            header: BlockHeader(parentHash: .zero, coinbase: .zero, stateRoot: .zero, number: 0, gasLimit: 0, timestamp: 0),
            transactions: transactions, withdrawals: withdrawals)
        let header = BlockHeader(
            parentHash: try word(p["parentHash"]), coinbase: try Address(try #require(p["feeRecipient"]?.stringValue)),
            stateRoot: try word(p["stateRoot"]), transactionsRoot: unsigned.transactionsRoot,
            receiptsRoot: try word(p["receiptsRoot"]), logsBloom: try #require(Bloom(bytes: try hex(p["logsBloom"]))),
            difficulty: .zero, number: try quantity(p["blockNumber"]), gasLimit: try quantity(p["gasLimit"]),
            gasUsed: try quantity(p["gasUsed"]), timestamp: try quantity(p["timestamp"]), extraData: try hex(p["extraData"]),
            mixHash: try word(p["prevRandao"]), nonce: 0, baseFeePerGas: UInt256(try quantity(p["baseFeePerGas"])),
            withdrawalsRoot: unsigned.withdrawalsRoot, blobGasUsed: try quantity(p["blobGasUsed"]),
            excessBlobGas: try quantity(p["excessBlobGas"]), parentBeaconBlockRoot: beaconRoot,
            requestsHash: ExecutionRequests.hash(requests))
        let block = DecodedBlock(header: header, transactions: transactions, withdrawals: withdrawals)
        #expect(p["blockHash"] == .string(Hex.encode(block.hash.bytes)))
        let parent = await h.chain.latestHeader()
        var hashes: [Bytes32] = []
        for n in 0...parent.number {
            hashes.append(try word(try await h.result("eth_getBlockByNumber", "[\"0x\(String(n, radix: 16))\",false]")["hash"]))
        }
        let known = hashes
        let processor = BlockProcessor(chainID: h.chain.chainId, initialBaseFee: h.chain.config.initialBaseFee)
        let (_, processed) = try processor.process(
            block, parent: parent, parentHash: known[Int(parent.number)], fork: h.chain.hardfork,
            state: await h.chain.currentState(), blockHashes: { n in n < UInt64(known.count) ? known[Int(n)] : .zero })
        return processed
    }

    @Test func aBlockFromThePoolPassesTheBlockProcessorAndChangesNothing() async throws {
        let (h, head, attributes) = try await Self.chainWithPool()
        let parent = try #require(head["hash"]?.stringValue)
        let envelope = try await h.result("testing_buildBlockV1", "[\"\(parent)\",\(attributes),null,\"0x6361726368\"]")
        let payload = try #require(envelope["executionPayload"])
        #expect(payload["transactions"]?.arrayValue?.count == 2)
        #expect(payload["blockNumber"]?.quantity == (try quantity(head["number"])) + 1)
        #expect(payload["extraData"] == .string("0x6361726368"))
        #expect(payload["feeRecipient"] == .string("0x000000000000000000000000000000000000fee1"))
        let processed = try await process(h, envelope, beaconRoot: Bytes32(Array(repeating: 0x22, count: 32))!)
        // The fee recipient's earnings: tip per gas times gas, per transaction (the base fee is burnt).
        let baseFee = UInt256(try quantity(payload["baseFeePerGas"]))
        var value = UInt256.zero
        for outcome in processed.outcomes { value = value &+ (outcome.effectiveGasPrice &- baseFee) &* UInt256(outcome.gasUsed) }
        #expect(envelope["blockValue"] == .string("0x" + String(value.low64, radix: 16)))
        #expect(envelope["shouldOverrideBuilder"] == .bool(false))
        #expect(envelope["blobsBundle"] == .object([("commitments", .array([])), ("proofs", .array([])), ("blobs", .array([]))]))
        // Nothing was inserted and the pool still holds both.
        #expect(try await h.result("eth_blockNumber") == head["number"])
        #expect(try await h.result("txpool_status")["pending"] == .string("0x2"))
    }

    @Test func anEmptyListBuildsAnEmptyBlockAndAGivenListIsUsedInOrder() async throws {
        let (h, head, attributes) = try await Self.chainWithPool()
        let parent = try #require(head["hash"]?.stringValue)
        let empty = try await h.result("testing_buildBlockV1", "[\"\(parent)\",\(attributes),[],null]")
        #expect(empty["executionPayload"]?["transactions"] == .array([]))
        #expect(empty["executionPayload"]?["gasUsed"] == .string("0x0"))
        #expect(empty["blockValue"] == .string("0x0"))
        _ = try await process(h, empty, beaconRoot: Bytes32(Array(repeating: 0x22, count: 32))!)
        let pooled = await h.chain.pendingTransactions().map { Hex.encode($0.0.encoded) }
        let given = try await h.result("testing_buildBlockV1", "[\"\(parent)\",\(attributes),[\"\(pooled[0])\"]]")
        #expect(given["executionPayload"]?["transactions"] == .array([.string(pooled[0])]))
        _ = try await process(h, given, beaconRoot: Bytes32(Array(repeating: 0x22, count: 32))!)
    }

    @Test func anUnapplicableTransactionOrAnotherParentIsRefusedAndChangesNothing() async throws {
        let (h, head, attributes) = try await Self.chainWithPool()
        let parent = try #require(head["hash"]?.stringValue)
        let pooled = await h.chain.pendingTransactions().map { Hex.encode($0.0.encoded) }
        // The second transfer alone: its nonce (1) is ahead of the state's (0).
        let answer = try await h.answer("testing_buildBlockV1", "[\"\(parent)\",\(attributes),[\"\(pooled[1])\"],\"0x\"]")
        #expect(answer["error"]?["code"] == .number("-32000"))
        #expect(answer["error"]?["message"]?.stringValue?.contains("nonce too high") == true)
        #expect(try await h.result("eth_getBlockByNumber", "[\"latest\",false]") == head)
        #expect(try await h.result("txpool_status")["pending"] == .string("0x2"))
        let genesis = try #require(try await h.result("eth_getBlockByNumber", "[\"0x0\",false]")["hash"]?.stringValue)
        let other = try await h.answer("testing_buildBlockV1", "[\"\(genesis)\",\(attributes),[]]")
        #expect(other["error"]?["message"] == .string("parentHash is not current head"))
        #expect(try await h.errorCode("testing_buildBlockV1", "[\"\(parent)\",{\"timestamp\":\"0x1\"},[]]") == -32602)
        #expect(try await h.errorCode("testing_buildBlockV1", "[\"\(parent)\",\(attributes),[\"0x01\"]]") == -32602)
    }
}
