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
@Suite(.serialized) struct HTTPAccessTests {
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
}
