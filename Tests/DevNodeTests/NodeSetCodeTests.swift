import EthereumPrimitives
import Foundation
import Testing
import TestSupport

/// EIP-7702 (type 4), EIP-7825 and EIP-7910 through `carchain node` processes, driven by web3.py with every
/// transaction and authorization signed by eth-account (tools/xcheck/web3_setcode.py): an Osaka node next to a
/// Cancun one (which must refuse type 4), and a Prague node (no EIP-7825 cap, no P256VERIFY).
@Suite(.serialized) struct NodeSetCodeTests {
    /// Runs the script against `url` (and `cancunURL`), records each failed check, returns the counts.
    func drive(url: String, fork: String, cancunURL: String?) async throws -> (passed: Int, total: Int) {
        guard let python = PythonVenv.python(for: "web3.py set-code checks against carchain node") else { return (0, 0) }
        var request = ["url": url, "fork": fork]
        if let cancunURL { request["cancun_url"] = cancunURL }
        return try await XCheckScript.run("web3_setcode.py", python: python, request: request, suite: "Web3SetCodeTests (\(fork))")
    }

    @Test func osakaNodeAndCancunRefusal() async throws {
        guard let node = try NodeProcess.start(["--ephemeral", "--hardfork", "osaka"]) else { return }
        defer { node.stop() }
        guard let cancun = try NodeProcess.start(["--ephemeral", "--hardfork", "cancun"]) else { return }
        defer { cancun.stop() }
        let (_, total) = try await drive(url: node.url, fork: "osaka", cancunURL: cancun.url)
        #expect(total == 0 || total >= 36)
    }

    @Test func pragueNode() async throws {
        guard let node = try NodeProcess.start(["--ephemeral", "--hardfork", "prague"]) else { return }
        defer { node.stop() }
        let (_, total) = try await drive(url: node.url, fork: "prague", cancunURL: nil)
        #expect(total == 0 || total >= 32)
    }
}
