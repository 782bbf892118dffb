import AuthEmulator
import Chain
import DevNode
import EthereumPrimitives
import Foundation
import Hummingbird
import Logging
import Testing

/// The node over real HTTP on a loopback port: CORS on the JSON-RPC and auth routes, the Host allowlist
/// (DNS rebinding), the body limit, and slow clients (half a request) that must not hold the server.
// Named a *TimingTests suite so the Makefile runs it in its own phase: its raw sockets block a thread of Swift's
// cooperative pool while they wait for the server, whose handler needs the other one; beside the CPU-bound suites
// of the main phase a 2-core machine can have none left, and the answer would wait for the socket's timeout.
@Suite(.serialized) struct HTTPAccessTimingTests {
    /// A running node server; `stop()` ends it.
    struct Server {
        let port: Int
        let task: Task<Void, Error>
        func stop() { task.cancel() }

        static func start(
            access: HTTPAccessPolicy? = nil, timeouts: DevNodeServer.Timeouts = .standard
        ) async throws -> Server {
            let chain = try await DevChain(config: .deterministic())
            let handler = NodeRPCHandler(chain: chain)
            let auth = try await AuthEmulator.ephemeral()
            let (urls, continuation) = AsyncStream<String>.makeStream()
            var logger = Logger(label: "test.node")
            logger.logLevel = .critical
            let app = DevNodeServer.application(
                handler: handler, auth: auth, host: "127.0.0.1", port: 0, logger: logger, access: access,
                timeouts: timeouts
            ) { url in continuation.yield(url) }
            let task = Task { try await app.runService(gracefulShutdownSignals: []) }
            var iterator = urls.makeAsyncIterator()
            guard let url = await iterator.next(), let port = Int(url.split(separator: ":").last ?? "") else {
                task.cancel()
                throw RawHTTPError("the server did not start")
            }
            return Server(port: port, task: task)
        }
    }

    static let chainID = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"eth_chainId\"}"
    static let signUp = "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=any"

    @Test func corsAllowsEveryOriginByDefault() async throws {
        let server = try await Server.start()
        defer { server.stop() }
        let post = try RawResponse.send(port: server.port, headers: ["Origin": "http://localhost:3000"], body: Self.chainID)
        #expect(post.status == 200)
        #expect(post.headers["access-control-allow-origin"] == "*")
        #expect(post.body.contains("\"result\":\"0x4\""))
        // Preflights, for JSON-RPC and for the auth routes.
        for path in ["/", Self.signUp] {
            let preflight = try RawResponse.send(
                port: server.port, method: "OPTIONS", path: path,
                headers: [
                    "Origin": "https://app.example", "Access-Control-Request-Method": "POST",
                    "Access-Control-Request-Headers": "content-type",
                ])
            #expect(preflight.status == 204, "\(path)")
            #expect(preflight.headers["access-control-allow-origin"] == "*")
            #expect(preflight.headers["access-control-allow-methods"]?.contains("POST") == true)
            #expect(preflight.headers["access-control-allow-headers"] == "content-type")
        }
        let auth = try RawResponse.send(
            port: server.port, path: Self.signUp, headers: ["Origin": "https://app.example"],
            body: "{\"email\":\"cors@example.com\",\"password\":\"correct horse\",\"returnSecureToken\":true}")
        #expect(auth.status == 200)
        #expect(auth.headers["access-control-allow-origin"] == "*")
    }

    @Test func allowedOriginsRestrictEvenSimpleRequests() async throws {
        let access = HTTPAccessPolicy(boundHost: "127.0.0.1", origins: ["http://localhost:3000"])
        let server = try await Server.start(access: access)
        defer { server.stop() }
        let allowed = try RawResponse.send(port: server.port, headers: ["Origin": "http://localhost:3000"], body: Self.chainID)
        #expect(allowed.status == 200)
        #expect(allowed.headers["access-control-allow-origin"] == "http://localhost:3000")
        #expect(allowed.headers["vary"] == "Origin")
        // A page elsewhere cannot mine, even with a "simple" request that skips the preflight.
        let mine = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"evm_mine\"}"
        let refused = try RawResponse.send(port: server.port, headers: ["Origin": "https://evil.example"], body: mine)
        #expect(refused.status == 403)
        #expect(refused.body.contains("--allow-origin"))
        let auth = try RawResponse.send(
            port: server.port, path: Self.signUp, headers: ["Origin": "https://evil.example"], body: "{}")
        #expect(auth.status == 403)
        let number = try RawResponse.send(port: server.port, body: "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"eth_blockNumber\"}")
        #expect(number.body.contains("\"result\":\"0x0\""))
    }

    @Test func foreignHostsAreRefused() async throws {
        let server = try await Server.start()
        defer { server.stop() }
        for host in ["127.0.0.1:\(server.port)", "localhost:\(server.port)", "[::1]:\(server.port)", "LOCALHOST"] {
            #expect(try RawResponse.send(port: server.port, host: host, body: Self.chainID).status == 200, "\(host)")
        }
        // DNS rebinding: a name the attacker controls, resolving to 127.0.0.1.
        let rebound = try RawResponse.send(port: server.port, host: "attacker.example:\(server.port)", body: Self.chainID)
        #expect(rebound.status == 403)
        #expect(rebound.body.contains("host \"attacker.example:\(server.port)\" is not allowed"))
        #expect(rebound.body.contains("--allow-host attacker.example"))
        let auth = try RawResponse.send(port: server.port, path: Self.signUp, host: "attacker.example", body: "{}")
        #expect(auth.status == 403)
        // --allow-host adds a name; * allows all.
        let named = try await Server.start(access: HTTPAccessPolicy(boundHost: "127.0.0.1", extraHosts: ["devbox.local"]))
        defer { named.stop() }
        #expect(try RawResponse.send(port: named.port, host: "devbox.local:8545", body: Self.chainID).status == 200)
        #expect(try RawResponse.send(port: named.port, host: "other.local", body: Self.chainID).status == 403)
        let any = try await Server.start(access: HTTPAccessPolicy(boundHost: "127.0.0.1", extraHosts: ["*"]))
        defer { any.stop() }
        #expect(try RawResponse.send(port: any.port, host: "anything.example", body: Self.chainID).status == 200)
    }

    @Test func bodiesOverTheLimitGet413() async throws {
        let server = try await Server.start()
        defer { server.stop() }
        let connection = try RawConnection(port: server.port, readTimeout: 10)
        try connection.send(
            "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(6 << 20)\r\n\r\n")
        try? connection.send(String(repeating: " ", count: 6 << 20))
        let response = RawResponse(connection.readAll().bytes)
        #expect(response?.status == 413)
        // The auth routes' 413 says `Connection: close`, and the connection is closed: the rest is not read.
        let auth = try RawConnection(port: server.port, readTimeout: 10)
        try auth.send(
            "POST \(Self.signUp) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(2 << 20)\r\n\r\n")
        try? auth.send(String(repeating: " ", count: (1 << 20) + 4096))
        let clock = ContinuousClock()
        let start = clock.now
        let (answer, closed) = auth.readAll()
        #expect(RawResponse(answer)?.status == 413)
        #expect(RawResponse(answer)?.headers["connection"] == "close")
        #expect(closed)
        #expect(clock.now - start < .seconds(5))
    }

    @Test func halfARequestDoesNotHoldTheServer() async throws {
        let timeouts = DevNodeServer.Timeouts(idle: .milliseconds(1500), body: .milliseconds(700))
        let server = try await Server.start(timeouts: timeouts)
        defer { server.stop() }
        let clock = ContinuousClock()
        let start = clock.now
        // Slowloris: headers that never end, and a body that never comes.
        let headers = try RawConnection(port: server.port)
        try headers.send("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: appl")
        let body = try RawConnection(port: server.port)
        try body.send("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"jsonrpc\"")
        // Meanwhile the node answers others at once.
        let other = try RawResponse.send(port: server.port, body: Self.chainID)
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

    @Test func aStalledAuthBodyGets408() async throws {
        let timeouts = DevNodeServer.Timeouts(idle: .seconds(5), body: .milliseconds(700))
        let server = try await Server.start(timeouts: timeouts)
        defer { server.stop() }
        let clock = ContinuousClock()
        let start = clock.now
        let stalled = try RawConnection(port: server.port)
        try stalled.send(
            "POST \(Self.signUp) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Content-Length: 100\r\n\r\n{\"email\"")
        // Another client signs up meanwhile.
        let other = try RawResponse.send(
            port: server.port, path: Self.signUp,
            body: "{\"email\":\"meanwhile@example.com\",\"password\":\"correct horse\",\"returnSecureToken\":true}")
        #expect(other.status == 200)
        // The stalled one gets Google's error shape with 408, and its connection is closed, well before the
        // idle timeout.
        let (answer, closed) = stalled.readAll()
        let response = try #require(RawResponse(answer))
        #expect(response.status == 408)
        #expect(response.body.contains("\"code\":408"))
        #expect(closed)
        #expect(clock.now - start < .seconds(4))
    }

    /// JSON-RPC is answered in the channel pipeline and everything else by the router behind it: on one keep-alive
    /// connection, requests for both, sent at once (pipelined), get their answers in order, and `Connection: close`
    /// ends the connection after its answer.
    @Test func jsonRPCAndRoutesShareAKeepAliveConnection() async throws {
        let server = try await Server.start()
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)
        let batch = "[\(Self.chainID),{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"eth_blockNumber\"}]"
        let signUp = "{\"email\":\"pipelined@example.com\",\"password\":\"correct horse\",\"returnSecureToken\":true}"
        try connection.send(
            RawResponse.request(body: Self.chainID)
                + RawResponse.request(
                    method: "OPTIONS", headers: ["Origin": "https://app.example", "Access-Control-Request-Method": "POST"])
                + RawResponse.request(path: Self.signUp, body: signUp)
                + RawResponse.request(path: "/?query", headers: ["Origin": "https://app.example"], body: batch)
                + RawResponse.request(body: "{\"jsonrpc\":\"2.0\",\"method\":\"evm_mine\"}")
                + RawResponse.request(method: "GET", path: "/nothing-here")
                + RawResponse.request(body: "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"eth_blockNumber\"}", close: true))
        let responses = connection.readResponses(7)
        #expect(responses.map(\.status) == [200, 204, 200, 200, 204, 404, 200])
        guard responses.count == 7 else { return }
        #expect(responses[0].body == "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":\"0x4\"}")
        #expect(responses[0].headers["content-type"] == "application/json")
        #expect(responses[0].headers["access-control-allow-origin"] == nil)
        #expect(responses[1].headers["access-control-allow-origin"] == "*")
        #expect(responses[2].body.contains("\"idToken\""))
        #expect(responses[3].body.contains("\"id\":2,\"result\":\"0x0\""))
        #expect(responses[3].headers["access-control-allow-origin"] == "*")
        #expect(responses[4].body.isEmpty)
        // The notification mined a block, before the last request asked.
        #expect(responses[6].body == "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":\"0x1\"}")
        #expect(responses[6].headers["connection"] == "close")
        let (rest, closed) = connection.readAll()
        #expect(rest.isEmpty)
        #expect(closed)
    }

    /// A client that half-closes its connection after a request that takes a while (mining 2,000 blocks) still gets
    /// the answer, pipelined requests included.
    @Test func aHalfClosedConnectionGetsItsAnswers() async throws {
        let server = try await Server.start()
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)
        let mine = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"anvil_mine\",\"params\":[\"0x7d0\"]}"
        let number = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"eth_blockNumber\"}"
        try connection.send(
            RawResponse.request(body: mine) + RawResponse.request(body: number))
        connection.shutdownWrite()
        let (bytes, closed) = connection.readAll()
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":\"0x0\"}"), "\(text.prefix(300))")
        #expect(text.contains("{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":\"0x7d0\"}"), "\(text.prefix(300))")
        #expect(closed)
    }

    /// The idle timeout sees JSON-RPC requests too: a connection in use outlives it, and one left idle is closed.
    @Test func aBusyConnectionOutlivesTheIdleTimeout() async throws {
        let timeouts = DevNodeServer.Timeouts(idle: .milliseconds(1000), body: .seconds(5))
        let server = try await Server.start(timeouts: timeouts)
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)
        let post = RawResponse.request(body: Self.chainID)
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<8 {
            try connection.send(post)
            #expect(connection.readResponses(1).first?.status == 200)
            try await Task.sleep(for: .milliseconds(350))
        }
        #expect(clock.now - start > .milliseconds(2500))
        // Idle now: closed after about a second.
        let (nothing, closed) = connection.readAll()
        #expect(nothing.isEmpty)
        #expect(closed)
        #expect(clock.now - start < .seconds(7))
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
