import DevNode
import Foundation
import Testing

/// The node's limits on slow and oversized clients, over real HTTP with raw sockets. Wall-clock bounds, so the suite
/// runs in the Makefile's timing phase (a `*TimingTests` suite runs alone, not beside the CPU-bound suites).
@Suite(.serialized) struct HTTPAccessTimingTests {
    @Test func bodiesOverTheLimitGet413() async throws {
        let server = try await HTTPAccessTests.Server.start()
        defer { server.stop() }
        let connection = try RawConnection(port: server.port, readTimeout: 10)
        try connection.send(
            "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(6 << 20)\r\n\r\n")
        try? connection.send(String(repeating: " ", count: 6 << 20))
        let response = RawResponse(connection.readAll().bytes)
        #expect(response?.status == 413)
    }

    @Test func halfARequestDoesNotHoldTheServer() async throws {
        let timeouts = DevNodeServer.Timeouts(idle: .milliseconds(1500), body: .milliseconds(700))
        let server = try await HTTPAccessTests.Server.start(timeouts: timeouts)
        defer { server.stop() }
        let clock = ContinuousClock()
        let start = clock.now
        // Slowloris: headers that never end, and a body that never comes.
        let headers = try RawConnection(port: server.port)
        try headers.send("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: appl")
        let body = try RawConnection(port: server.port)
        try body.send("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"jsonrpc\"")
        // Meanwhile the node answers others at once.
        let other = try RawResponse.send(port: server.port, body: HTTPAccessTests.chainID)
        #expect(other.status == 200)
        #expect(clock.now - start < .milliseconds(600))
        // The stuck body gets 408 and the connection is closed; the stuck headers are closed.
        let (answer, bodyClosed) = body.readAll()
        #expect(RawResponse(answer)?.status == 408)
        #expect(bodyClosed)
        let (nothing, headersClosed) = headers.readAll()
        #expect(headersClosed)
        #expect(nothing.isEmpty || RawResponse(nothing)?.status == 408 || RawResponse(nothing)?.status == 400)
        #expect(clock.now - start < .seconds(5))
    }

    @Test func policyParsing() {
        let policy = HTTPAccessPolicy(boundHost: "0.0.0.0", extraHosts: ["Dev.Example"])
        #expect(policy.refusal(host: nil) == nil)
        #expect(policy.refusal(host: "dev.example:80") == nil)
        #expect(policy.refusal(host: "0.0.0.0:8545") == nil)
        #expect(policy.refusal(host: "127.0.0.1.nip.io") != nil)
        #expect(HTTPAccessPolicy.isLoopback("127.0.0.1") && HTTPAccessPolicy.isLoopback("::1") && HTTPAccessPolicy.isLoopback("localhost"))
        #expect(!HTTPAccessPolicy.isLoopback("0.0.0.0") && !HTTPAccessPolicy.isLoopback("192.168.1.2"))
    }
}
