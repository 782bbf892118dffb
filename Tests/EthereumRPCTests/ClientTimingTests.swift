import EthereumABI
import EthereumPrimitives
import EthereumRPC
import EthereumWire
import Foundation
import Testing
import TestSupport

/// Client time limits against a scripted server, in a suite of its own: `make test` runs the *TimingTests
/// suites in a separate, quiet run, because on a 2-core machine the main run's CPU-bound suites keep async
/// tasks waiting for a thread and wall-clock bounds measured there are noise.
@Suite struct ClientTimingTests {
    @Test func hangingNodeTimesOutOnceWithinTheTimeout() async throws {
        let server = try await ScriptedHTTPServer.start { _, _ in .hang(seconds: 5) }
        defer { Task { await server.stop() } }
        let client = try RPCClient(url: server.url, timeout: 0.4)
        let start = ContinuousClock.now
        do {
            _ = try await client.chainID()
            Issue.record("expected a timeout")
        } catch {
            guard case .transport(.timeout, "eth_chainId", _) = error else { Issue.record("got \(error)"); return }
            #expect(error.description.contains("did not answer eth_chainId"))
        }
        let elapsed = ContinuousClock.now - start
        #expect(elapsed < .seconds(2), "took \(elapsed)")
        #expect(server.requests.count == 1)  // timeouts are not retried by default
    }

    @Test func deadNodeFailsFastWithConnectionRefused() async throws {
        // A port bound by nobody's server: connections are refused while `refusing` lives.
        let refusing = try #require(RefusingPort())
        let port = refusing.port
        defer { withExtendedLifetime(refusing) {} }
        let client = try RPCClient(url: "http://127.0.0.1:\(port)", timeout: 5, retryPolicy: RetryPolicy(maxAttempts: 2, initialDelay: 0.01))
        let start = ContinuousClock.now
        do {
            _ = try await client.chainID()
            Issue.record("expected a transport error")
        } catch {
            guard case .transport(.unreachable(let reason), _, _) = error else { Issue.record("got \(error)"); return }
            #expect(reason == "connection refused")
            #expect(error.description.hasPrefix("cannot reach the node at http://127.0.0.1:\(port)"))
        }
        #expect(ContinuousClock.now - start < .seconds(3))
    }

    @Test func rateLimitedNodeIsAskedAgainNoSoonerThanItsRetryAfter() async throws {
        let server = try await ScriptedHTTPServer.start { index, _ in
            index == 0
                ? ScriptedHTTPServer.Reply(status: 429, body: Array("busy".utf8), headers: [("Retry-After", "1")])
                : .json(Wire.result(id: 1, #""0x2a""#))
        }
        defer { Task { await server.stop() } }
        let client = try RPCClient(url: server.url, timeout: 5, retryPolicy: RetryTests.fast)
        let start = ContinuousClock.now
        #expect(try await client.blockNumber() == 42)
        #expect(ContinuousClock.now - start >= .seconds(1))
        #expect(server.requests.count == 2)
    }
}
