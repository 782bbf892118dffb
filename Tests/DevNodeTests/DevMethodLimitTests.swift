import Chain
import DevNode
import EthereumPrimitives
import Foundation
import Testing

/// Issue 14's dev-method crashes, each sent exactly as reported: every one is now an invalid-params error
/// (-32602) with a message naming the limit, and the chain keeps answering afterwards.
@Suite struct DevMethodLimitTests {
    func message(_ answer: JSONValue) -> String { answer["error"]?["message"]?.stringValue ?? "" }
    func code(_ answer: JSONValue) -> Int? { answer["error"]?["code"].flatMap { Int($0.description) } }

    /// The chain still serves: a block can be mined and read back.
    func expectServing(_ h: HandlerHarness, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let before = try #require(try await h.result("eth_blockNumber").quantity)
        _ = try await h.result("evm_mine", "[]", sourceLocation: sourceLocation)
        #expect(try await h.result("eth_blockNumber").quantity == before + 1, sourceLocation: sourceLocation)
    }

    @Test func evmMineObjectFormIsCapped() async throws {
        let h = try await HandlerHarness.make()
        let answer = try await h.answer("evm_mine", "[{\"blocks\":\"0x8000000000000000\"}]")
        #expect(code(answer) == -32602)
        #expect(message(answer).contains("9223372036854775808 blocks is more than the 10000"))
        // The positional forms share the cap; the object form below it works.
        #expect(try await h.errorCode("anvil_mine", "[\"0x2711\"]") == -32602)
        #expect(try await h.errorCode("hardhat_mine", "[\"0xffffffffffffffff\"]") == -32602)
        _ = try await h.result("evm_mine", "[{\"blocks\":3}]")
        #expect(try await h.result("eth_blockNumber").quantity == 3)
        try await expectServing(h)
    }

    @Test func anvilMineInterval() async throws {
        let h = try await HandlerHarness.make()
        let head = try #require(try await h.result("eth_getBlockByNumber", "[\"latest\",false]")["timestamp"]?.quantity)
        _ = try await h.result("anvil_mine", "[\"0x3\",\"0x3c\"]")
        var stamps: [UInt64] = []
        for n in 1...3 {
            stamps.append(try #require(try await h.result("eth_getBlockByNumber", "[\"0x\(n)\",false]")["timestamp"]?.quantity))
        }
        // The first block comes from the clock (one second per block here), the next ones 60 s apart.
        #expect(stamps == [head + 1, head + 61, head + 121])
        #expect(try await h.errorCode("anvil_mine", "[\"0x2\",\"0x0\"]") == -32602)
        // Two blocks an interval of 2^63 apart cannot both fit.
        #expect(try await h.errorCode("anvil_mine", "[\"0x2\",\"0x8000000000000000\"]") == -32602)
        // One block with the largest interval: the interval is never used, so the block is mined (found by the
        // fuzzing campaign: the next block's time was computed after the last block and overflowed).
        _ = try await h.result("anvil_mine", "[\"0x1\",\"0xffffffffffffffff\"]")
        #expect(try await h.result("eth_blockNumber").quantity == 4)
        try await expectServing(h)
    }

    @Test func setIntervalMiningIsRangeChecked() async throws {
        let h = try await HandlerHarness.make()
        let answer = try await h.answer("evm_setIntervalMining", "[\"0x2386f26fc10000\"]")
        #expect(code(answer) == -32602)
        #expect(message(answer).contains("31536000"))
        #expect(try await h.errorCode("anvil_setIntervalMining", "[18446744073709551615]") == -32602)
        // Automine is still on: a transaction is mined at once.
        let hash = try await h.send(to: HandlerHarness.account1, value: "0x1")
        #expect(try await h.result("eth_getTransactionReceipt", "[\"\(hash)\"]")["status"] == .string("0x1"))
        // 0 stays "back to automine".
        #expect(try await h.result("evm_setIntervalMining", "[0]") == .bool(true))
    }

    @Test func increaseTimeNearTheMaximum() async throws {
        let h = try await HandlerHarness.make()
        // Once, at 2^64 - 1: refused, nothing changed.
        let huge = try await h.answer("evm_increaseTime", "[\"0xffffffffffffffff\"]")
        #expect(code(huge) == -32602)
        #expect(message(huge).contains("largest timestamp 9223372036854775807"))
        try await expectServing(h)
        // Twice near 2^62 + 2^62: the first is accepted, the second would pass 2^63 - 1.
        let first = try await h.result("evm_increaseTime", "[\"0x4000000000000000\"]")
        #expect(first == .number(String(UInt64(1) << 62)))
        #expect(try await h.errorCode("evm_increaseTime", "[\"0x4000000000000000\"]") == -32602)
        // The next block carries the jump; eth_call at pending and latest still run.
        let parent = try #require(try await h.result("eth_getBlockByNumber", "[\"latest\",false]")["timestamp"]?.quantity)
        _ = try await h.result("eth_call", "[{\"to\":\"\(HandlerHarness.account1)\"},\"pending\"]")
        _ = try await h.result("evm_mine", "[]")
        let block = try #require(try await h.result("eth_getBlockByNumber", "[\"latest\",false]")["timestamp"]?.quantity)
        #expect(block == parent + 1 + (1 << 62))
        _ = try await h.result("eth_call", "[{\"to\":\"\(HandlerHarness.account1)\"},\"latest\"]")
        try await expectServing(h)
    }

    @Test func increaseTimeThenMineAndCall() async throws {
        let h = try await HandlerHarness.make()
        #expect(try await h.errorCode("evm_increaseTime", "[\"0x7fffffffffffffff\"]") == -32602)
        _ = try await h.result("eth_call", "[{\"to\":\"\(HandlerHarness.account1)\"},\"pending\"]")
        let hash = try await h.send(to: HandlerHarness.account1, value: "0x1")
        #expect(try await h.result("eth_getTransactionReceipt", "[\"\(hash)\"]")["status"] == .string("0x1"))
    }

    @Test func setNextBlockTimestampAtTheEndOfTime() async throws {
        let h = try await HandlerHarness.make()
        let answer = try await h.answer("evm_setNextBlockTimestamp", "[\"0xffffffffffffffff\"]")
        #expect(code(answer) == -32602)
        #expect(message(answer).contains("past the largest timestamp"))
        #expect(try await h.errorCode("evm_mine", "[\"0x8000000000000000\"]") == -32602)
        try await expectServing(h)

        // The largest timestamp itself is accepted; a block after it cannot be made, and says why.
        let snapshot = try await h.result("evm_snapshot")
        _ = try await h.result("evm_setNextBlockTimestamp", "[\"0x7fffffffffffffff\"]")
        _ = try await h.result("evm_mine", "[]")
        let last = try #require(try await h.result("eth_getBlockByNumber", "[\"latest\",false]")["timestamp"]?.quantity)
        #expect(last == UInt64(Int64.max))
        let stuck = try await h.answer("evm_mine", "[]")
        #expect(code(stuck) == -32602)
        #expect(message(stuck).contains("revert to a snapshot"))
        let send = try await h.answer(
            "eth_sendTransaction", "[{\"from\":\"\(HandlerHarness.account0)\",\"to\":\"\(HandlerHarness.account1)\"}]")
        #expect(send["error"] != nil)
        #expect(try await h.errorCode("eth_call", "[{\"to\":\"\(HandlerHarness.account1)\"},\"pending\"]") == -32602)
        _ = try await h.result("eth_call", "[{\"to\":\"\(HandlerHarness.account1)\"},\"latest\"]")
        // A snapshot from before brings time back.
        #expect(try await h.result("evm_revert", "[\(snapshot)]") == .bool(true))
        try await expectServing(h)
    }

    @Test func theReportedBatchesAnswerEveryRequest() async throws {
        // The bodies of Fuzz/regressions/jsonrpc, as sent: each request gets an answer, nothing traps.
        let bodies = [
            #"[{"jsonrpc":"2.0","id":1,"method":"evm_increaseTime","params":["0xffffffffffffffff"]},{"jsonrpc":"2.0","id":2,"method":"evm_mine","params":[]}]"#,
            #"[{"jsonrpc":"2.0","id":1,"method":"evm_increaseTime","params":["0xffffffffffffffff"]},{"jsonrpc":"2.0","id":2,"method":"evm_increaseTime","params":["0xffffffffffffffff"]}]"#,
            #"[{"jsonrpc":"2.0","id":1,"method":"evm_setNextBlockTimestamp","params":["0xffffffffffffffff"]},{"jsonrpc":"2.0","id":2,"method":"evm_mine","params":[]},{"jsonrpc":"2.0","id":3,"method":"evm_mine","params":[]}]"#,
        ]
        for body in bodies {
            let h = try await HandlerHarness.make()
            let answers = try #require(try await h.raw(body).arrayValue)
            #expect(answers.count == body.components(separatedBy: "\"id\"").count - 1)
            #expect(code(answers[0]) == -32602)
            try await expectServing(h)
        }
    }

    @Test func chainLevelChecks() async throws {
        let chain = try await DevChain(config: .deterministic())
        await #expect(throws: ChainError.self) { try await chain.mine(blocks: -1) }
        await #expect(throws: ChainError.self) { try await chain.mine(blocks: DevChain.maxBlocksPerMine + 1) }
        await #expect(throws: ChainError.self) { try await chain.mine(timestamp: DevChain.maxTimestamp + 1) }
        await #expect(throws: ChainError.self) { try await chain.setIntervalMining(.nan) }
        await #expect(throws: ChainError.self) { try await chain.setIntervalMining(1e16) }
        await #expect(throws: ChainError.self) { try await chain.setIntervalMining(-1) }
        #expect(try await chain.increaseTime(10) == 10)
        await #expect(throws: ChainError.self) { try await chain.increaseTime(.max) }
        #expect(try await chain.increaseTime(0) == 10)
    }
}
