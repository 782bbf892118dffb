import Chain
import DevNode
import EthereumPrimitives
import Foundation
import Testing

/// `eth_call`, `eth_estimateGas`, `eth_createAccessList` with huge gas and a loop: the gas cap (geth's
/// `--rpc.gascap` semantics: capped, not refused) and the EVM time limit ("execution aborted (timeout = …)").
// Named a *TimingTests suite so the Makefile runs it in its own phase: its limits are wall-clock ones, and beside
// the CPU-bound suites of the main phase (the in-process block and state tests) a 2-core machine's cooperative pool
// can be busy for tens of seconds, which these tests would measure instead of the limits.
@Suite struct CallLimitTimingTests {
    /// JUMPDEST PUSH1 0 JUMP: loops until the gas or the time runs out.
    static let loop = "0x5b600056"
    /// GAS PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN: returns the gas left after GAS (GAS costs 2).
    static let gasReporter = "0x5a60005260206000f3"
    /// PUSH1 1 PUSH5 0x0100000000 MSTORE: writes a byte at 4 GiB.
    static let hugeMemory = "0x6001640100000000" + "52"
    static let loopAddress = "0x00000000000000000000000000000000000100aa"
    static let gasAddress = "0x00000000000000000000000000000000000100bb"
    static let memoryAddress = "0x00000000000000000000000000000000000100cc"

    /// Cancun: the gas figures below are the RPC gas cap's, which Osaka's EIP-7825 cap (2^24) would lower.
    static func make(_ calls: CallLimits) async throws -> HandlerHarness {
        let h = try await HandlerHarness.make(limits: NodeRPCHandler.Limits(calls: calls), hardfork: .cancun)
        _ = try await h.result("anvil_setCode", "[\"\(loopAddress)\",\"\(loop)\"]")
        _ = try await h.result("anvil_setCode", "[\"\(gasAddress)\",\"\(gasReporter)\"]")
        _ = try await h.result("anvil_setCode", "[\"\(memoryAddress)\",\"\(hugeMemory)\"]")
        return h
    }

    func gasSeen(_ h: HandlerHarness, gas: String?) async throws -> UInt64? {
        let gasMember = gas.map { ",\"gas\":\"\($0)\"" } ?? ""
        let result = try await h.result("eth_call", "[{\"to\":\"\(Self.gasAddress)\"\(gasMember)}]")
        return result.stringValue.flatMap { UInt64($0.dropFirst(2), radix: 16) }
    }

    @Test func gasAboveTheCapIsCappedNotRefused() async throws {
        let h = try await Self.make(CallLimits(gasCap: 50_000_000, timeout: .seconds(30)))
        // The message gets the capped gas minus the intrinsic 21000; GAS reports it minus its own 2.
        #expect(try await gasSeen(h, gas: "0xffffffffffffffff") == 50_000_000 - 21_000 - 2)
        #expect(try await gasSeen(h, gas: "0x2faf081") == 50_000_000 - 21_000 - 2)
        #expect(try await gasSeen(h, gas: "0x186a0") == 100_000 - 21_000 - 2)
        // No gas given: the block's gas limit (30M), under the cap.
        #expect(try await gasSeen(h, gas: nil) == 30_000_000 - 21_000 - 2)
        // Without a cap the call gets what it asks for.
        let uncapped = try await Self.make(.unlimited)
        #expect(try await gasSeen(uncapped, gas: "0x77359400") == 2_000_000_000 - 21_000 - 2)
    }

    @Test func aLoopWithCappedGasRunsOutOfGas() async throws {
        let h = try await Self.make(CallLimits(gasCap: 1_000_000, timeout: .seconds(60)))
        let answer = try await h.answer("eth_call", "[{\"to\":\"\(Self.loopAddress)\",\"gas\":\"0xffffffffffffffff\"}]")
        #expect(answer["error"]?["message"] == .string("out of gas"))
        let estimate = try await h.answer("eth_estimateGas", "[{\"to\":\"\(Self.loopAddress)\",\"gas\":\"0xffffffffffffffff\"}]")
        #expect(estimate["error"]?["message"] == .string("gas required exceeds allowance (1000000)"))
        let list = try await h.result("eth_createAccessList", "[{\"to\":\"\(Self.loopAddress)\",\"gas\":\"0xffffffffffffffff\"}]")
        #expect(list["gasUsed"]?.quantity == 1_000_000)
        #expect(list["error"] == .string("out of gas"))
    }

    @Test func memoryIsBoundedByTheCappedGas() async throws {
        // 4 GiB of memory costs about 2^50 gas: out of gas at once, nothing allocated.
        let h = try await Self.make(.standard)
        let clock = ContinuousClock()
        let start = clock.now
        let answer = try await h.answer("eth_call", "[{\"to\":\"\(Self.memoryAddress)\",\"gas\":\"0xffffffffffffffff\"}]")
        #expect(answer["error"]?["message"] == .string("out of gas"))
        #expect(clock.now - start < .seconds(2))
    }

    @Test(arguments: ["eth_call", "eth_estimateGas", "eth_createAccessList"])
    func anEndlessCallIsAbortedAndTheChainAnswersRightAfter(_ method: String) async throws {
        let h = try await Self.make(CallLimits(gasCap: 0, timeout: .milliseconds(300)))
        let clock = ContinuousClock()
        let start = clock.now
        let looping = Task {
            try await h.answer(method, "[{\"to\":\"\(Self.loopAddress)\",\"gas\":\"0x7fffffffffffffff\"}]")
        }
        // A request sent meanwhile is answered once the call is stopped.
        try await Task.sleep(for: .milliseconds(50))
        let other = try await h.result("eth_blockNumber")
        #expect(other == .string("0x0"))
        let answer = try await looping.value
        let elapsed = clock.now - start
        #expect(answer["error"]?["code"] == .number("-32000"))
        #expect(answer["error"]?["message"] == .string("execution aborted (timeout = 300ms)"))
        // Bounded by the timeout, not by the gas (2^63 gas of this loop would take days); the margin covers a
        // machine whose two cores run the rest of the suite at the same time.
        #expect(elapsed < .seconds(30), "took \(elapsed)")
        _ = try await h.result("evm_mine", "[]")
        #expect(try await h.result("eth_blockNumber") == .string("0x1"))
    }

    @Test func theTimeoutCoversCallsIntoLoopingContracts() async throws {
        // The outer contract calls the loop with all its gas and then returns normally: the abort must end
        // the whole call, not just the inner frame.
        // PUSH1 0 PUSH1 0 PUSH1 0 PUSH1 0 PUSH1 0 PUSH20 loop GAS CALL STOP
        let outer = "0x6000600060006000600073" + String(Self.loopAddress.dropFirst(2)) + "5af100"
        let h = try await Self.make(CallLimits(gasCap: 0, timeout: .milliseconds(200)))
        let outerAddress = "0x00000000000000000000000000000000000100dd"
        _ = try await h.result("anvil_setCode", "[\"\(outerAddress)\",\"\(outer)\"]")
        let answer = try await h.answer("eth_call", "[{\"to\":\"\(outerAddress)\",\"gas\":\"0x7fffffffffffffff\"}]")
        #expect(answer["error"]?["message"] == .string("execution aborted (timeout = 200ms)"))
    }

    @Test func aBatchIsBoundedAsAWhole() async throws {
        // Ten looping calls of 200 ms each in a batch allowed 500 ms: the first ones are aborted, the rest are
        // not run (-32002, geth's "request timed out"), and a notification among them gets no answer.
        var limits = NodeRPCHandler.Limits(calls: CallLimits(gasCap: 0, timeout: .milliseconds(200)))
        limits.batchTimeout = .milliseconds(500)
        // Cancun, as in make(_:): Osaka's 2^24 transaction gas cap would end each loop out of gas first.
        let h = try await HandlerHarness.make(limits: limits, hardfork: .cancun)
        _ = try await h.result("anvil_setCode", "[\"\(Self.loopAddress)\",\"\(Self.loop)\"]")
        let call = "\"method\":\"eth_call\",\"params\":[{\"to\":\"\(Self.loopAddress)\",\"gas\":\"0x7fffffffffffffff\"}]"
        let requests = (0..<10).map { "{\"jsonrpc\":\"2.0\",\"id\":\($0),\(call)}" } + ["{\"jsonrpc\":\"2.0\",\(call)}"]
        let answers = try #require(try await h.raw("[" + requests.joined(separator: ",") + "]").arrayValue)
        #expect(answers.count == 10)
        #expect(answers.map { $0["id"] } == (0..<10).map { JSONValue.number(String($0)) })
        let codes = answers.compactMap { $0["error"]?["code"]?.description }
        #expect(codes.count == 10)
        #expect(codes.first == "-32000")
        #expect(codes.last == "-32002")
        #expect(answers.last?["error"]?["message"] == .string("request timed out"))

        // Past 2000 bytes of answers, the remaining requests get -32003 "response too large".
        var small = NodeRPCHandler.Limits()
        small.maxBatchResponseBytes = 2000
        let s = try await HandlerHarness.make(limits: small)
        let blocks = (0..<20).map { "{\"jsonrpc\":\"2.0\",\"id\":\($0),\"method\":\"eth_getBlockByNumber\",\"params\":[\"0x0\",true]}" }
        let big = try #require(try await s.raw("[" + blocks.joined(separator: ",") + "]").arrayValue)
        #expect(big.count == 20)
        #expect(big.first?["result"]?["number"] == .string("0x0"))
        #expect(big.last?["error"]?["code"] == .number("-32003"))
        #expect(big.last?["error"]?["message"] == .string("response too large"))
    }

    @Test func durationsAreWrittenLikeGeth() {
        #expect(ChainError.executionTimeout(.seconds(5)).description == "execution aborted (timeout = 5s)")
        #expect(ChainError.executionTimeout(.milliseconds(1500)).description == "execution aborted (timeout = 1.5s)")
        #expect(ChainError.executionTimeout(.milliseconds(250)).description == "execution aborted (timeout = 250ms)")
    }
}
