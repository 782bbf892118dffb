import EthereumPrimitives
import Foundation
import Testing
import TestSupport

/// `eth_simulateV1` through a `carchain node` process, driven by web3.py with transactions signed by eth-account
/// (tools/xcheck/web3_simulate.py): a simulated block equals the block the node mines for the same transaction
/// (state root, receipts root, bloom, gas, base fee), and a simulated call returns eth_call's data with the gas the
/// mined transaction used.
@Suite(.serialized) struct NodeSimulateTests {
    @Test func web3SimulateMatchesMinedBlocks() throws {
        guard let python = PythonVenv.python(for: "web3.py eth_simulateV1 checks against carchain node") else { return }
        guard let node = try NodeProcess.start(["--ephemeral"]) else { return }
        defer { node.stop() }
        let script = TestPaths.packageRoot.appendingPathComponent("tools/xcheck/web3_simulate.py")
        let output = try ProcessRunner.run(python, [script.path], stdin: try JSONSerialization.data(withJSONObject: ["url": node.url]))
        #expect(output.status == 0, "web3_simulate.py failed: \(output.stderr)")
        let result = try JSONValue(parsing: output.stdout)
        let checks = try #require(result["checks"]?.arrayValue)
        var passed = 0
        for check in checks {
            if check["ok"] == .bool(true) {
                passed += 1
            } else {
                Issue.record("web3.py check failed: \(check["name"]?.stringValue ?? "?"): \(check["detail"]?.stringValue ?? "")")
            }
        }
        print("Web3SimulateTests: \(passed) passed, \(checks.count - passed) failed, 0 skipped")
        #expect(checks.count >= 16)
    }
}
