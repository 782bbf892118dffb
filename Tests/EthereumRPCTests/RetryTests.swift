import EthereumPrimitives
import EthereumRPC
import EthereumWire
import Foundation
import Testing

/// The retry policy: its delays, which failures it repeats, and the one safe re-send of a raw transaction.
@Suite struct RetryTests {
    static let fast = RetryPolicy(maxAttempts: 3, initialDelay: 0.01, multiplier: 2, maxDelay: 0.05, jitter: 0)

    @Test func delaysGrowExponentiallyUpToTheCap() {
        let policy = RetryPolicy(maxAttempts: 10, initialDelay: 0.1, multiplier: 2, maxDelay: 1, jitter: 0)
        let delays = (1...6).map { policy.delay(beforeRetry: $0, random: 0.7) }
        #expect(delays == [0.1, 0.2, 0.4, 0.8, 1, 1])
    }

    @Test func jitterShortensDelaysWithinItsFraction() {
        let policy = RetryPolicy(initialDelay: 1, multiplier: 2, maxDelay: 10, jitter: 0.5)
        #expect(policy.delay(beforeRetry: 2, random: 0) == 2)
        #expect(policy.delay(beforeRetry: 2, random: 1) == 1)
        #expect(policy.delay(beforeRetry: 2, random: 0.5) == 1.5)
        let full = RetryPolicy(initialDelay: 1, jitter: 1)
        #expect(full.delay(beforeRetry: 1, random: 0.999) < 0.01)
    }

    @Test func onlyTransportFailuresOfReadsAreRetried() {
        let policy = RetryPolicy.default
        let refused = RPCError.transport(.unreachable("connection refused"), method: "eth_call", endpoint: "x")
        #expect(policy.shouldRetry(refused, idempotent: true))
        #expect(!policy.shouldRetry(refused, idempotent: false))
        #expect(policy.shouldRetry(.transport(.http(status: 503, body: ""), method: "m", endpoint: "x"), idempotent: true))
        #expect(policy.shouldRetry(.transport(.http(status: 429, body: ""), method: "m", endpoint: "x"), idempotent: true))
        #expect(!policy.shouldRetry(.transport(.http(status: 400, body: ""), method: "m", endpoint: "x"), idempotent: true))
        #expect(!policy.shouldRetry(.transport(.timeout(seconds: 1), method: "m", endpoint: "x"), idempotent: true))
        #expect(RetryPolicy(retryOnTimeout: true).shouldRetry(.transport(.timeout(seconds: 1), method: "m", endpoint: "x"), idempotent: true))
        #expect(!policy.shouldRetry(.jsonRPC(code: -32000, message: "header not found", data: nil, method: "m"), idempotent: true))
        #expect(!policy.shouldRetry(.decoding(method: "m", what: "x"), idempotent: true))
        #expect(!policy.shouldRetry(.transport(.cancelled, method: "m", endpoint: "x"), idempotent: true))
    }

    @Test func readIsRetriedAfter503AndADroppedConnection() async throws {
        let server = try await ScriptedHTTPServer.start { index, _ in
            switch index {
            case 0: return ScriptedHTTPServer.Reply(status: 503, body: Array("busy".utf8))
            case 1: return .dropConnection
            default: return .json(Wire.result(id: 1, #""0x2a""#))
            }
        }
        defer { Task { await server.stop() } }
        let client = try RPCClient(url: server.url, timeout: 5, retryPolicy: Self.fast)
        #expect(try await client.blockNumber() == 42)
        #expect(server.requests.count == 3)
    }

    @Test func retriesStopAtMaxAttempts() async throws {
        let server = try await ScriptedHTTPServer.start { _, _ in ScriptedHTTPServer.Reply(status: 503, body: Array("busy".utf8)) }
        defer { Task { await server.stop() } }
        let client = try RPCClient(url: server.url, timeout: 5, retryPolicy: Self.fast)
        await #expect(throws: RPCError.transport(.http(status: 503, body: "busy"), method: "eth_blockNumber", endpoint: server.url)) {
            _ = try await client.blockNumber()
        }
        #expect(server.requests.count == 3)
    }

    @Test func nonIdempotentRequestIsNotRetried() async throws {
        let server = try await ScriptedHTTPServer.start { _, _ in ScriptedHTTPServer.Reply(status: 503, body: []) }
        defer { Task { await server.stop() } }
        let client = try RPCClient(url: server.url, timeout: 5, retryPolicy: Self.fast)
        await #expect(throws: RPCError.self) { _ = try await client.request("eth_sendTransaction", [], idempotent: false) }
        #expect(server.requests.count == 1)
    }

    @Test func rawTransactionErrorFromTheNodeIsNotRetried() async throws {
        let server = try await ScriptedHTTPServer.start { _, _ in
            .json(Wire.error(id: 1, code: -32000, message: "nonce too low: address 0x00, tx: 0 state: 1"))
        }
        defer { Task { await server.stop() } }
        let client = try RPCClient(url: server.url, timeout: 5, retryPolicy: Self.fast)
        do {
            _ = try await client.sendRawTransaction([0x02, 0x01])
            Issue.record("expected an error")
        } catch {
            guard case .jsonRPC(-32000, let message, _, "eth_sendRawTransaction") = error else { Issue.record("got \(error)"); return }
            #expect(message.hasPrefix("nonce too low"))
        }
        #expect(server.requests.count == 1)
    }

    @Test func rawTransactionIsResentIdenticallyAfterATransportFailure() async throws {
        let raw: [UInt8] = [0x02, 0xf8, 0x01, 0x02, 0x03]
        let hash = Keccak256.hash(raw)
        let server = try await ScriptedHTTPServer.start { index, body in
            switch Wire.method(body) {
            case "eth_sendRawTransaction" where index == 0:
                return .dropConnection  // the node got it, but the answer was lost
            case "eth_sendRawTransaction":
                return .json(Wire.error(id: 1, code: -32000, message: "already known"))
            case "eth_getTransactionByHash":
                return .json(Wire.result(id: 1, Self.transactionJSON(hash: hash)))
            default:
                return ScriptedHTTPServer.Reply(status: 404, body: [])
            }
        }
        defer { Task { await server.stop() } }
        let client = try RPCClient(url: server.url, timeout: 5, retryPolicy: Self.fast)
        #expect(try await client.sendRawTransaction(raw) == hash)
        let sends = server.requests.filter { $0.contains("eth_sendRawTransaction") }
        #expect(sends.count == 2)
        #expect(Set(sends.map { Wire.parse(Array($0.utf8))["params"]?.description ?? "" }).count == 1)  // the same bytes both times
        #expect(server.requests.last?.contains("eth_getTransactionByHash") == true)
    }

    @Test func resendThatTheNodeDoesNotKnowReportsTheFirstFailure() async throws {
        let server = try await ScriptedHTTPServer.start { index, body in
            switch Wire.method(body) {
            case "eth_sendRawTransaction" where index == 0: return .dropConnection
            case "eth_sendRawTransaction": return .json(Wire.error(id: 1, code: -32000, message: "nonce too low"))
            default: return .json(Wire.result(id: 1, "null"))
            }
        }
        defer { Task { await server.stop() } }
        let client = try RPCClient(url: server.url, timeout: 5, retryPolicy: Self.fast)
        do {
            _ = try await client.sendRawTransaction([0x01])
            Issue.record("expected an error")
        } catch {
            #expect(error.isTransportFailure, "got \(error)")
        }
    }

    static func transactionJSON(hash: Bytes32) -> String {
        """
        {"hash":"\(hash.hexString)","type":"0x2","nonce":"0x0","from":"0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",\
        "to":null,"value":"0x0","gas":"0x5208","maxFeePerGas":"0x1","maxPriorityFeePerGas":"0x1","input":"0x",\
        "chainId":"0x4","blockHash":null,"blockNumber":null,"transactionIndex":null,"v":"0x0","r":"0x1","s":"0x2"}
        """
    }
}
