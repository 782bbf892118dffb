import EthereumPrimitives
import Foundation
import Testing
import TestSupport

/// EIP-7702 (type 4), EIP-7825 and EIP-7910 through `carchain node` processes, driven by web3.py with every
/// transaction and authorization signed by eth-account (tools/xcheck/web3_setcode.py): an Osaka node next to a
/// Cancun one (which must refuse type 4), and a Prague node (no EIP-7825 cap, no P256VERIFY).
@Suite(.serialized) struct NodeSetCodeTests {
    /// Runs the script against `url` (and `cancunURL`), records each failed check, returns the counts.
    func drive(url: String, fork: String, cancunURL: String?) throws -> (passed: Int, total: Int) {
        guard let python = PythonVenv.python(for: "web3.py set-code checks against carchain node") else { return (0, 0) }
        let script = TestPaths.packageRoot.appendingPathComponent("tools/xcheck/web3_setcode.py")
        var request = ["url": url, "fork": fork]
        if let cancunURL { request["cancun_url"] = cancunURL }
        let output = try ProcessRunner.run(python, [script.path], stdin: try JSONSerialization.data(withJSONObject: request))
        #expect(output.status == 0, "web3_setcode.py failed: \(output.stderr)")
        let result = try JSONValue(parsing: output.stdout)
        let checks = try #require(result["checks"]?.arrayValue)
        var passed = 0
        for check in checks {
            if check["ok"] == .bool(true) {
                passed += 1
            } else {
                Issue.record("web3.py check failed (\(fork)): \(check["name"]?.stringValue ?? "?"): \(check["detail"]?.stringValue ?? "")")
            }
        }
        print("Web3SetCodeTests (\(fork)): \(passed) passed, \(checks.count - passed) failed, 0 skipped")
        return (passed, checks.count)
    }

    @Test func osakaNodeAndCancunRefusal() throws {
        guard let node = try NodeProcess.start(["--ephemeral", "--hardfork", "osaka"]) else { return }
        defer { node.stop() }
        guard let cancun = try NodeProcess.start(["--ephemeral", "--hardfork", "cancun"]) else { return }
        defer { cancun.stop() }
        let (_, total) = try drive(url: node.url, fork: "osaka", cancunURL: cancun.url)
        #expect(total == 0 || total >= 36)
    }

    @Test func pragueNode() throws {
        guard let node = try NodeProcess.start(["--ephemeral", "--hardfork", "prague"]) else { return }
        defer { node.stop() }
        let (_, total) = try drive(url: node.url, fork: "prague", cancunURL: nil)
        #expect(total == 0 || total >= 32)
    }
}
