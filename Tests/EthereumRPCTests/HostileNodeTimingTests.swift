import EthereumPrimitives
import EthereumRPC
import EthereumWire
import Foundation
import Testing

/// Answers that never end or claim to be huge (issue 14): the client's size cap and deadline end them with a
/// clear error, promptly. Wall-clock bounds, so a suite of its own (see ClientTimingTests).
@Suite struct HostileNodeTimingTests {
    static func failure(_ client: RPCClient) async -> RPCError? {
        do throws(RPCError) {
            _ = try await client.chainID()
            Issue.record("expected an error")
            return nil
        } catch {
            return error
        }
    }

    @Test func answerClaimingOneGigabyteIsRefusedAtTheCap() async throws {
        let server = try await ScriptedHTTPServer.start { _, _ in
            .endless(Array("[".utf8) + [UInt8](repeating: 0x20, count: 65_535), every: 0.001, declaredLength: 1 << 30)
        }
        defer { Task { await server.stop() } }
        let start = ContinuousClock.now
        let error = await Self.failure(try RPCClient(url: server.url, timeout: 20))
        guard case .transport(.unreachable(let reason), "eth_chainId", _)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(reason == "the answer is larger than \(64 << 20) bytes")
        #expect(ContinuousClock.now - start < .seconds(10))
    }

    @Test func endlessChunkedAnswerIsCutAtTheCap() async throws {
        let server = try await ScriptedHTTPServer.start { _, _ in .endless([UInt8](repeating: 0x20, count: 1 << 16), every: 0.0005) }
        defer { Task { await server.stop() } }
        let transport = try HTTPTransport(url: server.url, timeout: 20, maxResponseBytes: 1 << 20)
        let start = ContinuousClock.now
        let error = await Self.failure(RPCClient(transport: transport, retryPolicy: .none))
        guard case .transport(.unreachable(let reason), "eth_chainId", _)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(reason.hasPrefix("the answer is larger than"))
        #expect(ContinuousClock.now - start < .seconds(10))
    }

    @Test func tricklingAnswerEndsAtTheDeadline() async throws {
        // The head at once, then one byte every 50 ms for ever: only a deadline on the whole answer ends it.
        let server = try await ScriptedHTTPServer.start { _, _ in .endless(Array(" ".utf8), every: 0.05) }
        defer { Task { await server.stop() } }
        let start = ContinuousClock.now
        let error = await Self.failure(try RPCClient(url: server.url, timeout: 0.5))
        guard case .transport(.timeout, "eth_chainId", _)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(ContinuousClock.now - start < .seconds(5))
    }
}
