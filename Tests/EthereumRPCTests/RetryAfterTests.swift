import EthereumPrimitives
import EthereumRPC
import EthereumWire
import Foundation
import Testing

/// HTTP 429 and `Retry-After` (RFC 9110 §10.2.3): the header read in both of its forms, the wait it asks for used
/// when it is longer than the backoff and within the policy's bound, a longer one not waited for, and a 429 retried
/// even when its body is a JSON-RPC error.
@Suite struct RetryAfterTests {
    /// Sun, 06 Nov 1994 08:49:37 GMT, RFC 9110's example, as Unix time.
    static let example = 784_111_777.0

    @Test func secondsAndAllThreeDateFormsAreRead() {
        #expect(RetryAfter.seconds("120", now: 0) == 120)
        #expect(RetryAfter.seconds(" 0 ", now: 0) == 0)
        #expect(RetryAfter.httpDate("Sun, 06 Nov 1994 08:49:37 GMT") == Self.example)
        #expect(RetryAfter.httpDate("Sunday, 06-Nov-94 08:49:37 GMT") == Self.example)
        #expect(RetryAfter.httpDate("Sun Nov  6 08:49:37 1994") == Self.example)
        #expect(RetryAfter.seconds("Sun, 06 Nov 1994 08:49:37 GMT", now: Self.example - 30) == 30)
        #expect(RetryAfter.seconds("Sun, 06 Nov 1994 08:49:37 GMT", now: Self.example - 29.5) == 30)  // whole seconds, up
        #expect(RetryAfter.seconds("Sun, 06 Nov 1994 08:49:37 GMT", now: Self.example + 60) == 0)  // in the past
        #expect(RetryAfter.httpDate("Thu, 01 Jan 1970 00:00:00 GMT") == 0)
        #expect(RetryAfter.httpDate("Mon, 29 Feb 2016 23:59:59 GMT") == 1_456_790_399)
    }

    @Test func whatIsNotAWaitIsIgnored() {
        for text in ["", "-5", "1.5", "soon", "Sun, 06 Nov 94 08:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 25:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 PST"]
        {
            #expect(RetryAfter.seconds(text, now: 0) == nil, "\(text)")
        }
        #expect(RetryAfter.seconds("99999999999999999999", now: 0) == Double(Int64.max))  // saturates, never traps
    }

    @Test func theWaitIsTheLongerOfTheBackoffAndRetryAfterWithinTheBound() {
        let policy = RetryPolicy(maxAttempts: 5, initialDelay: 0.25, multiplier: 2, maxDelay: 4, jitter: 0, maxRetryAfter: 30)
        func limited(_ seconds: Double?) -> RPCError {
            .transport(.http(status: 429, body: "", retryAfter: seconds), method: "m", endpoint: "x")
        }
        #expect(policy.delay(after: limited(nil), retry: 1, random: 0) == 0.25)
        #expect(policy.delay(after: limited(3), retry: 1, random: 0) == 3)
        #expect(policy.delay(after: limited(0), retry: 3, random: 0) == 1)  // backoff is longer
        #expect(policy.delay(after: limited(30), retry: 1, random: 0) == 30)
        #expect(policy.delay(after: limited(31), retry: 1, random: 0) == nil)  // asks too much: no retry
        #expect(policy.delay(after: .transport(.unreachable("x"), method: "m", endpoint: "x"), retry: 2, random: 0) == 0.5)
        #expect(TransportError.http(status: 429, body: "", retryAfter: 3).description == "HTTP 429 (retry after 3 s)")
    }

    @Test func a429WithAJSONBodyIsRetriedAfterTheWaitItAsks() async throws {
        let server = try await ScriptedHTTPServer.start { index, _ in
            index == 0
                ? .json(Wire.error(id: 1, code: 429, message: "too many requests"), status: 429, headers: [("Retry-After", "0")])
                : .json(Wire.result(id: 1, #""0x2a""#))
        }
        defer { Task { await server.stop() } }
        let client = try RPCClient(url: server.url, timeout: 5, retryPolicy: RetryTests.fast)
        #expect(try await client.blockNumber() == 42)
        #expect(server.requests.count == 2)
    }

    @Test func aWaitPastTheBoundFailsAtOnceNamingIt() async throws {
        let server = try await ScriptedHTTPServer.start { _, _ in
            ScriptedHTTPServer.Reply(status: 429, body: Array("slow down".utf8), headers: [("Retry-After", "3600")])
        }
        defer { Task { await server.stop() } }
        let client = try RPCClient(url: server.url, timeout: 5, retryPolicy: RetryTests.fast)
        do {
            _ = try await client.blockNumber()
            Issue.record("expected an error")
        } catch {
            #expect(error == .transport(.http(status: 429, body: "slow down", retryAfter: 3600), method: "eth_blockNumber", endpoint: server.url))
            #expect(error.description.contains("HTTP 429 (retry after 3600 s): slow down"))
        }
        #expect(server.requests.count == 1)
    }
}
