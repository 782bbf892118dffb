import Chain
import DevNode
import EthereumPrimitives
import Foundation
import Testing

/// `eth_getBlockReceipts`, `eth_baseFee`, `eth_blobBaseFee`, `eth_capabilities`, `txpool_*` and
/// `debug_traceBlockBy*` on a dev chain, against what the single-item methods answer, EIP-1559's formula
/// worked here, EIP-55 checksums of the well-known dev accounts, and geth's error answers.
@Suite struct BlockInfoMethodTests {
    static let target = "0x00000000000000000000000000000000000b10c5"
    /// SSTORE(NUMBER, CALLER-low-byte); MSTORE it; RETURN 32 bytes: each call leaves storage, memory and a return.
    static let code = "0x334355" + "3360005260206000f3"

    /// Automine off; two transactions of account 0 mined together in block 2 (block 1 holds the contract).
    static func twoInOneBlock() async throws -> (HandlerHarness, [String]) {
        let h = try await HandlerHarness.make()
        _ = try await h.result("anvil_setCode", "[\"\(target)\",\"\(code)\"]")
        _ = try await h.result("evm_mine")
        _ = try await h.result("evm_setAutomine", "[false]")
        let first = try await h.send(to: target, gas: "0x30d40")
        let second = try await h.send(to: target, value: "0x5", gas: "0x30d40")
        _ = try await h.result("evm_mine")
        return (h, [first, second])
    }

    @Test func blockReceiptsAreTheTransactionReceiptsInOrder() async throws {
        let (h, hashes) = try await Self.twoInOneBlock()
        var expected: [JSONValue] = []
        for hash in hashes { expected.append(try await h.result("eth_getTransactionReceipt", "[\"\(hash)\"]")) }
        #expect(expected.allSatisfy { $0["blockNumber"] == .string("0x2") })
        #expect(try await h.result("eth_getBlockReceipts", "[\"0x2\"]") == .array(expected))
        #expect(try await h.result("eth_getBlockReceipts", "[\"latest\"]") == .array(expected))
        let blockHash = try #require(expected[0]["blockHash"]?.stringValue)
        #expect(try await h.result("eth_getBlockReceipts", "[\"\(blockHash)\"]") == .array(expected))
        #expect(try await h.result("eth_getBlockReceipts", "[{\"blockHash\":\"\(blockHash)\"}]") == .array(expected))
        #expect(try await h.result("eth_getBlockReceipts", "[\"0x0\"]") == .array([]))
        #expect(try await h.result("eth_getBlockReceipts", "[\"earliest\"]") == .array([]))
        #expect(try await h.result("eth_getBlockReceipts", "[\"0x\(String(repeating: "0", count: 56))deadbeef\"]") == .null)
        #expect(try await h.result("eth_getBlockReceipts", "[\"0x9\"]") == .null)
        #expect(try await h.errorCode("eth_getBlockReceipts", "[]") == -32602)
    }

    /// EIP-1559: the next base fee from the parent's base fee, gas used and target (gas limit / 2, elasticity 2).
    static func nextBaseFee(parent base: UInt64, used: UInt64, limit: UInt64) -> UInt64 {
        let target = limit / 2
        if used == target { return base }
        if used > target { return base + max(1, base * (used - target) / target / 8) }
        return base - base * (target - used) / target / 8
    }

    @Test func baseFeeIsTheNextBlocksByEIP1559() async throws {
        let (h, _) = try await Self.twoInOneBlock()
        for _ in 0..<2 {
            let head = try await h.result("eth_getBlockByNumber", "[\"latest\",false]")
            let expected = Self.nextBaseFee(
                parent: try #require(head["baseFeePerGas"]?.quantity), used: try #require(head["gasUsed"]?.quantity),
                limit: try #require(head["gasLimit"]?.quantity))
            #expect(try await h.result("eth_baseFee").quantity == expected)
            _ = try await h.result("evm_mine")  // an empty block: the fee falls by 1/8
        }
        // Before London there is no base fee.
        let old = try await HandlerHarness.make(hardfork: .berlin)
        #expect(try await old.result("eth_baseFee") == .null)
        #expect(try await h.errorCode("eth_baseFee", "[1]") == -32602)
    }

    @Test func blobBaseFeeIsTheHeadsAndNullBeforeCancun() async throws {
        let h = try await HandlerHarness.make()
        // No blob was ever sent: the excess is zero, and e^0 times the minimum (1 wei) is 1.
        #expect(try await h.result("eth_getBlockByNumber", "[\"latest\",false]")["excessBlobGas"] == .string("0x0"))
        #expect(try await h.result("eth_blobBaseFee") == .string("0x1"))
        let shanghai = try await HandlerHarness.make(hardfork: .shanghai)
        #expect(try await shanghai.result("eth_blobBaseFee") == .null)
    }

    @Test func capabilitiesNameTheHeadAndFullHistory() async throws {
        let (h, _) = try await Self.twoInOneBlock()
        let caps = try await h.result("eth_capabilities")
        let head = try await h.result("eth_getBlockByNumber", "[\"latest\",false]")
        #expect(caps["head"] == .object([("number", head["number"] ?? .null), ("hash", head["hash"] ?? .null)]))
        for resource in ["state", "tx", "logs", "receipts", "blocks", "stateproofs"] {
            #expect(caps[resource] == .object([("disabled", .bool(false)), ("oldestBlock", .string("0x0"))]), "\(resource)")
        }
    }

    @Test func txpoolSplitsPendingAndQueuedPerChecksummedSender() async throws {
        let h = try await HandlerHarness.make()
        _ = try await h.result("evm_setAutomine", "[false]")
        let a = try await h.send(to: Self.target, value: "0x1")
        let b = try await h.send(to: Self.target, value: "0x2")
        // Account 1 skips nonces 0..4: its transaction waits in the queue.
        let gapped = try await h.result(
            "eth_sendTransaction", "[{\"from\":\"\(HandlerHarness.account1)\",\"to\":\"\(Self.target)\",\"nonce\":\"0x5\"}]")
        #expect(try await h.result("txpool_status") == .object([("pending", .string("0x2")), ("queued", .string("0x1"))]))
        let content = try await h.result("txpool_content")
        // EIP-55 spellings of the two dev accounts (the public test mnemonic's first two).
        let sender0 = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
        let sender1 = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
        let pending = try #require(content["pending"]?[sender0])
        #expect(pending["0"]?["hash"] == .string(a))
        #expect(pending["1"]?["hash"] == .string(b))
        #expect(pending["0"]?["blockHash"] == .null && pending["0"]?["transactionIndex"] == .null)
        #expect(pending["0"] == (try await h.result("eth_getTransactionByHash", "[\"\(a)\"]")))
        #expect(content["queued"]?[sender1]?["5"]?["hash"] == gapped)
        #expect(content["pending"]?[sender1] == nil && content["queued"]?[sender0] == nil)
        let from1 = try await h.result("txpool_contentFrom", "[\"\(HandlerHarness.account1)\"]")
        #expect(from1["pending"] == .object([]))
        #expect(from1["queued"]?["5"]?["hash"] == gapped)
        #expect(try await h.result("txpool_contentFrom", "[\"0x0000000000000000000000000000000000000000\"]")
            == .object([("pending", .object([])), ("queued", .object([]))]))
        // Mined, the pending ones leave the pool; the gapped one stays queued.
        _ = try await h.result("evm_mine")
        #expect(try await h.result("txpool_status") == .object([("pending", .string("0x0")), ("queued", .string("0x1"))]))
        #expect(try await h.errorCode("txpool_contentFrom", "[\"0x12\"]") == -32602)
    }

    @Test func traceBlockTracesEachTransactionOnTheStateBeforeIt() async throws {
        let (h, hashes) = try await Self.twoInOneBlock()
        let options = "{\"enableMemory\":true,\"enableReturnData\":true}"
        let byNumber = try #require(try await h.result("debug_traceBlockByNumber", "[\"0x2\",\(options)]").arrayValue)
        #expect(byNumber.map { $0["txHash"] } == hashes.map { .string($0) })
        for (entry, hash) in zip(byNumber, hashes) {
            // The same as tracing the transaction alone, and its gas is the receipt's.
            #expect(entry["result"] == (try await h.result("debug_traceTransaction", "[\"\(hash)\",\(options)]")))
            let receipt = try await h.result("eth_getTransactionReceipt", "[\"\(hash)\"]")
            #expect(entry["result"]?["gas"].flatMap { UInt64($0.description) } == receipt["gasUsed"]?.quantity)
        }
        // The second transaction ran on the first one's state: its SSTORE writes the value already there (slot 2,
        // the block number, holds the caller), which costs less, so the two differ.
        #expect(byNumber[0]["result"]?["gas"] != byNumber[1]["result"]?["gas"])
        let steps = try #require(byNumber[1]["result"]?["structLogs"]?.arrayValue)
        let sstore = try #require(steps.first { $0["op"] == .string("SSTORE") })
        let slot2 = "0x" + String(repeating: "0", count: 63) + "2"
        #expect(sstore["storage"]?[slot2] != nil)
        #expect(byNumber[0]["result"]?["returnValue"]?.stringValue?.hasPrefix("0x") == true)
        let blockHash = try #require(try await h.result("eth_getBlockByNumber", "[\"0x2\",false]")["hash"]?.stringValue)
        #expect(try await h.result("debug_traceBlockByHash", "[\"\(blockHash)\",\(options)]") == .array(byNumber))
        // geth's errors.
        let genesis = try await h.answer("debug_traceBlockByNumber", "[\"0x0\"]")
        #expect(genesis["error"] == .object([("code", .number("-32000")), ("message", .string("genesis is not traceable"))]))
        let missing = "0x" + String(repeating: "0", count: 63) + "1"
        let notFound = try await h.answer("debug_traceBlockByHash", "[\"\(missing)\"]")
        #expect(notFound["error"]?["message"] == .string("block \(missing) not found"))
        #expect(notFound["error"]?["code"] == .number("-32000"))
        #expect(try await h.errorCode("debug_traceBlockByNumber", "[\"3\"]") == -32602)
        #expect(try await h.errorCode("debug_traceBlockByNumber", "[\"\(blockHash)\"]") == -32602)
        #expect(try await h.errorCode("debug_traceBlockByNumber", "[\"0x2\",{\"tracer\":\"jsTracer\"}]") == -32602)
        #expect(try await h.result("debug_traceBlockByNumber", "[\"0x1\"]") == .array([]))
    }
}
