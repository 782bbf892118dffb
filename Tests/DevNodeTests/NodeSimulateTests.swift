import EthereumPrimitives
import Foundation
import Testing
import TestSupport

/// `eth_simulateV1` through a `carchain node` process, driven by web3.py with transactions signed by eth-account
/// (tools/xcheck/web3_simulate.py): a simulated block equals the block the node mines for the same transaction
/// (state root, receipts root, bloom, gas, base fee), and a simulated call returns eth_call's data with the gas the
/// mined transaction used.
@Suite(.serialized) struct NodeSimulateTests {
    @Test func web3SimulateMatchesMinedBlocks() async throws {
        guard let python = PythonVenv.python(for: "web3.py eth_simulateV1 checks against carchain node") else { return }
        guard let node = try NodeProcess.start(["--ephemeral"]) else { return }
        defer { node.stop() }
        let counts = try await XCheckScript.run(
            "web3_simulate.py", python: python, request: ["url": node.url], suite: "Web3SimulateTests")
        #expect(counts.total >= 16)
    }
}
