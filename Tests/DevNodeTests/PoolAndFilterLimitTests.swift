import Chain
import DevNode
import EthereumPrimitives
import Foundation
import Testing

/// The pool is bounded ("txpool is full", as geth), filters are bounded and expire when idle, and filter
/// ids are 128 random bits (geth's rpc.NewID), so one client cannot read or remove another's filters.
@Suite struct PoolAndFilterLimitTests {
    @Test func aFullPoolRefusesWithGethsError() async throws {
        var config = ChainConfig.deterministic()
        config.maxPendingTransactions = 3
        let chain = try await DevChain(config: config)
        let h = HandlerHarness(chain: chain, handler: NodeRPCHandler(chain: chain))
        _ = try await h.result("evm_setAutomine", "[false]")
        var hashes: [String] = []
        for _ in 0..<3 { hashes.append(try await h.send(to: HandlerHarness.account1, value: "0x1")) }
        let full = try await h.answer(
            "eth_sendTransaction", "[{\"from\":\"\(HandlerHarness.account1)\",\"to\":\"\(HandlerHarness.account0)\"}]")
        #expect(full["error"]?["code"] == .number("-32000"))
        #expect(full["error"]?["message"]?.stringValue?.hasPrefix("txpool is full") == true)
        // Replacing a pooled transaction (same nonce, fees 10% higher) does not grow the pool: accepted.
        let replacement =
            "[{\"from\":\"\(HandlerHarness.account0)\",\"to\":\"\(HandlerHarness.account1)\",\"nonce\":\"0x2\","
            + "\"maxFeePerGas\":\"0x174876e800\",\"maxPriorityFeePerGas\":\"0x3b9aca000\"}]"
        _ = try await h.result("eth_sendTransaction", replacement)
        // Mining empties it; the refused sender can send again.
        _ = try await h.result("evm_mine", "[]")
        #expect(await chain.pendingTransactions().isEmpty)
        _ = try await h.result(
            "eth_sendTransaction", "[{\"from\":\"\(HandlerHarness.account1)\",\"to\":\"\(HandlerHarness.account0)\"}]")
    }

    @Test func filterIDsAreRandom128BitHex() async throws {
        let h = try await HandlerHarness.make()
        var ids: Set<String> = []
        for _ in 0..<20 {
            let id = try #require(try await h.result("eth_newBlockFilter").stringValue)
            #expect(id.hasPrefix("0x") && id.count <= 34 && id.count >= 20)
            #expect(UInt64(id.dropFirst(2).prefix(16), radix: 16) != nil)
            ids.insert(id)
        }
        #expect(ids.count == 20)
        // Small sequential ids name nothing: guessing cannot reach someone else's filter.
        for guess in ["0x1", "0x2", "0x14", "0x15"] {
            #expect(try await h.result("eth_uninstallFilter", "[\"\(guess)\"]") == .bool(false))
            #expect(try await h.errorCode("eth_getFilterChanges", "[\"\(guess)\"]") == -32000)
        }
        #expect(try await h.result("eth_uninstallFilter", "[\"\(ids.first!)\"]") == .bool(true))
    }

    @Test func filtersAreBoundedLeastRecentlyPolledFirst() async throws {
        let h = try await HandlerHarness.make(limits: NodeRPCHandler.Limits(maxFilters: 2))
        let a = try #require(try await h.result("eth_newBlockFilter").stringValue)
        let b = try #require(try await h.result("eth_newFilter", "[{}]").stringValue)
        _ = try await h.result("eth_getFilterChanges", "[\"\(a)\"]")  // a is now the more recently polled
        let c = try #require(try await h.result("eth_newBlockFilter").stringValue)
        #expect(try await h.errorCode("eth_getFilterChanges", "[\"\(b)\"]") == -32000)
        _ = try await h.result("eth_getFilterChanges", "[\"\(a)\"]")
        _ = try await h.result("eth_getFilterChanges", "[\"\(c)\"]")
    }

    @Test func idleFiltersExpire() async throws {
        // Over the handler: a filter left alone past the idle timeout is gone. (Which filters stay is checked
        // with a manual clock in FilterRegistryTests: sleeps are not exact on a loaded machine.)
        let h = try await HandlerHarness.make(limits: NodeRPCHandler.Limits(filterIdleTimeout: .milliseconds(300)))
        let idle = try #require(try await h.result("eth_newBlockFilter").stringValue)
        try await Task.sleep(for: .milliseconds(600))
        let answer = try await h.answer("eth_getFilterChanges", "[\"\(idle)\"]")
        #expect(answer["error"]?["message"] == .string("filter not found"))
        #expect(try await h.result("eth_uninstallFilter", "[\"\(idle)\"]") == .bool(false))
    }
}
