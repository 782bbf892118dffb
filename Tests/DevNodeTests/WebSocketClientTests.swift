import EthereumPrimitives
import Foundation
import Testing
import TestSupport

/// Real WebSocket clients against `carchain node` (issue 18): web3.py's AsyncWeb3 + WebSocketProvider watching
/// CarChain rentals (tools/xcheck/web3_ws_rentals.py), and 100 `websockets` subscribers next to one that never
/// reads (tools/xcheck/ws_fanout.py).
@Suite(.serialized) struct WebSocketClientTests {
    /// 50 rentals, each in its own block, while web3.py is subscribed to newHeads and the contract's logs: exactly
    /// the 50 heads and the 50 CarRented logs arrive, in order, decoded by web3.py's ABI as the rentals sent.
    @Test func web3PyWatchesFiftyRentals() async throws {
        guard let python = PythonVenv.python(for: "web3.py watching CarChain rentals over WebSocket") else { return }
        guard let node = try NodeProcess.start(["--ephemeral"]) else { return }
        defer { node.stop() }
        let contract = try #require(
            node.output.split(separator: "\n").first { $0.hasPrefix("CarChain: ") }.map { String($0.dropFirst("CarChain: ".count)) },
            "no CarChain line in the banner: \(node.output)")
        let artifact = TestPaths.packageRoot.appendingPathComponent("contracts/CarChain.json").path
        let counts = try await XCheckScript.run(
            "web3_ws_rentals.py", python: python,
            request: ["url": node.url, "contract": contract, "artifact": artifact, "rentals": "50"], suite: "Web3RentalWatchTests")
        #expect(counts.total >= 8)
    }

    /// 100 subscribers and one that stalls while 1,000 blocks are mined: the stalled one is closed with 1008, the
    /// 100 get every head, and the node's RSS stays bounded.
    @Test func hundredSubscribersAndAStalledOne() async throws {
        guard let python = PythonVenv.python(for: "websockets fan-out against carchain node") else { return }
        guard let node = try NodeProcess.start(["--ephemeral"]) else { return }
        defer { node.stop() }
        let counts = try await XCheckScript.run(
            "ws_fanout.py", python: python,
            request: ["url": node.url, "pid": String(node.process.processIdentifier), "subscribers": "100", "blocks": "500"],
            suite: "WebSocketFanOutTests")
        #expect(counts.total >= 5)
    }
}
