import EthereumPrimitives
import EthereumRPC
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The bug users hit: `anvil_setBalance` on a fresh address, `anvil_impersonateAccount`, `eth_sendTransaction` from it
/// — mined fine, but `debug_traceTransaction` answered "cannot re-execute 0x…: insufficient funds". A block is now
/// replayed on the state it was mined on (its parent's plus the dev changes made before it), over JSON-RPC through the
/// handler and on a `carchain node` process killed with SIGKILL and started again on its data directory. The expected
/// values are the ones set and the receipt's.
@Suite struct DevChangeReplayTests {
    static let stranger = "0x00000000000000000000000000000000005eed01"
    static let loader = "0x00000000000000000000000000000000000c0de1"
    /// Returns slot 7: PUSH1 7 SLOAD PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN.
    static let loaderCode = "0x600754600052602060" + "00f3"
    static let slot7 = "0x" + String(repeating: "0", count: 63) + "7"
    static let slotValue = "0x" + String(repeating: "0", count: 56) + "feedbeef"
    /// Set after a first `anvil_setBalance` of 1 ether: the last one wins.
    static let funded = "0x1bc16d674ec80000"  // 2 ether

    typealias Call = (_ method: String, _ params: String) async throws -> JSONValue

    /// Makes the dev changes and sends the transaction; returns its hash.
    static func mine(_ call: Call) async throws -> String {
        _ = try await call("anvil_setBalance", "[\"\(stranger)\",\"0xde0b6b3a7640000\"]")
        _ = try await call("hardhat_setBalance", "[\"\(stranger)\",\"\(funded)\"]")
        _ = try await call("anvil_setCode", "[\"\(loader)\",\"\(loaderCode)\"]")
        _ = try await call("anvil_setStorageAt", "[\"\(loader)\",\"\(slot7)\",\"\(slotValue)\"]")
        _ = try await call("anvil_impersonateAccount", "[\"\(stranger)\"]")
        let hash = try await call(
            "eth_sendTransaction", "[{\"from\":\"\(stranger)\",\"to\":\"\(loader)\",\"value\":\"0x3039\",\"gas\":\"0x186a0\"}]")
        return try #require(hash.stringValue)
    }

    /// Each tracer on the transaction and on its block.
    static func verify(_ call: Call, _ hash: String, _ label: String) async throws {
        let receipt = try await call("eth_getTransactionReceipt", "[\"\(hash)\"]")
        #expect(receipt["status"] == .string("0x1"), "\(label)")
        let frame = try await call("debug_traceTransaction", "[\"\(hash)\",{\"tracer\":\"callTracer\"}]")
        #expect(frame["from"] == .string(stranger) && frame["to"] == .string(loader), "\(label): \(frame)")
        #expect(frame["value"] == .string("0x3039") && frame["gas"] == .string("0x186a0"), "\(label): \(frame)")
        #expect(frame["gasUsed"] == receipt["gasUsed"] && frame["output"] == .string(slotValue), "\(label): \(frame)")
        #expect(frame["error"] == nil, "\(label): \(frame)")

        let pre = try await call("debug_traceTransaction", "[\"\(hash)\",{\"tracer\":\"prestateTracer\"}]")
        #expect(pre[stranger]?["balance"] == .string(funded), "\(label): \(pre)")
        #expect(pre[loader]?["code"] == .string(loaderCode), "\(label): \(pre)")
        #expect(pre[loader]?["storage"]?[slot7] == .string(slotValue), "\(label): \(pre)")

        let steps = try await call("debug_traceTransaction", "[\"\(hash)\",{}]")
        let sload = steps["structLogs"]?.arrayValue?.first { $0["op"] == .string("SLOAD") }
        #expect(sload?["storage"]?[slot7] == .string(slotValue), "\(label): \(String(describing: sload))")

        let block = try #require(receipt["blockNumber"]?.stringValue)
        for tracer in ["callTracer", "prestateTracer"] {
            let traces = try await call("debug_traceBlockByNumber", "[\"\(block)\",{\"tracer\":\"\(tracer)\"}]")
            let single = try await call("debug_traceTransaction", "[\"\(hash)\",{\"tracer\":\"\(tracer)\"}]")
            #expect(traces.arrayValue?.first?["result"] == single, "\(label): \(tracer)")
        }
    }

    @Test func throughTheHandler() async throws {
        let h = try await HandlerHarness.make()
        let hash = try await Self.mine { try await h.result($0, $1) }
        try await Self.verify({ try await h.result($0, $1) }, hash, "handler")
    }

    /// A node process: traced, killed with SIGKILL, started again on its data directory, traced again.
    @Test func acrossAKilledNode() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("carchain-devreplay-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let arguments = ["--data-dir", directory.path, "--no-app"]
        guard let node = try NodeProcess.start(arguments) else { return }
        let first = RestartPropertyTests.Client(url: node.url)
        let hash = try await Self.mine(first.result)
        try await Self.verify(first.result, hash, "node")
        node.stop(signal: SIGKILL)
        guard let again = try NodeProcess.start(arguments) else { return }
        defer { again.stop() }
        try await Self.verify(RestartPropertyTests.Client(url: again.url).result, hash, "after kill -9")
    }
}
