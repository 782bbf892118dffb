import AuthEmulator
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOPosix

/// The dev node's HTTP server (Hummingbird): JSON-RPC on `POST /` answered by a ``NodeRPCHandler`` (in the channel
/// pipeline, ``JSONRPCHTTPEndpoint``), the same
/// over a WebSocket upgrade of `GET /` (with `eth_subscribe`, ``WebSocketRPC``), and the Firebase Auth
/// emulator's endpoints when an ``AuthEmulator`` is given, and the routes of a module above (``DevNodeRoutes``: the
/// CarChain web app) when given. Every request first
/// passes the ``HTTPAccessPolicy`` (Host allowlist, CORS). Bodies over the handler's limit get a JSON-RPC
/// error with HTTP 413 without being read in full; a body not received within the request timeout gets
/// 408, and a connection idle (or stuck in its headers) for the idle timeout is closed, so slow clients
/// cannot hold the server.
public enum DevNodeServer {
    /// Connection timeouts (`--http-timeout`).
    public struct Timeouts: Sendable, Equatable {
        /// A connection with no complete request part for this long is closed (headers included).
        public var idle: Duration
        /// A request body (JSON-RPC or auth) must arrive within this long of its headers.
        public var body: Duration

        /// 30 seconds each.
        public static let standard = Timeouts(idle: .seconds(30), body: .seconds(30))

        /// Creates timeouts.
        public init(idle: Duration, body: Duration) {
            self.idle = idle
            self.body = body
        }
    }

    /// Builds the application listening on `host:port` (port 0 picks a free port); `onRunning` gets
    /// the URL actually bound once the server accepts connections. `access` defaults to the policy of
    /// a node bound to `host` (loopback names and `host`, every origin).
    public static func application(
        handler: NodeRPCHandler, auth: AuthEmulator?, host: String, port: Int, logger: Logger,
        access: HTTPAccessPolicy? = nil, timeouts: Timeouts = .standard, routes: (any DevNodeRoutes)? = nil,
        onRunning: @escaping @Sendable (String) async -> Void
    ) -> some ApplicationProtocol {
        // The auth routes' context carries the client's address, for the auth service's per-address limits.
        let router = Router(context: AuthEmulatorRequestContext.self)
        let policy = access ?? HTTPAccessPolicy(boundHost: host)
        router.add(middleware: HTTPAccessMiddleware(policy: policy))
        let limit = handler.limits.maxBodyBytes
        let bodyTimeout = timeouts.body
        if let auth { addAuthEmulatorRoutes(to: router, emulator: auth, bodyTimeout: bodyTimeout) }
        routes?.addRoutes(to: router, bodyTimeout: bodyTimeout)
        // JSON-RPC on `POST /` is answered in the pipeline (``JSONRPCHTTPEndpoint``), in front of the router. The idle
        // timeout is a connection state handler's in front of both, so that it sees every request; Hummingbird's own,
        // behind the endpoint, sees only the router's requests and keeps no timer.
        let idle = timeouts.idle
        let http1 = HTTP1Channel.Configuration(
            additionalChannelHandlers: [
                HTTPConnectionStateHandler(idleTimeout: idle, logger: logger),
                JSONRPCHTTPEndpoint(handler: handler, policy: policy, bodyTimeout: bodyTimeout),
            ],
            idleTimeout: nil)
        let webSocket = WebSocketServerConfiguration(maxFrameSize: limit, autoPing: .enabled(timePeriod: .seconds(30)))
        let subscriptionLimits = SubscriptionSession.Limits()
        let headTexts = HeadTextCache()
        let headDeadline = TimeAmount(idle)
        let server = HTTPServerBuilder { responder in
            DeadlinedUpgradeChannel(
                inner: HTTP1WebSocketUpgradeChannel(
                    responder: responder, configuration: .init(http1: http1, ws: webSocket),
                    shouldUpgrade: { request, _, _ in
                        WebSocketRPC.shouldUpgrade(request, handler: handler, access: policy, limits: subscriptionLimits, headTexts: headTexts)
                    }),
                headDeadline: headDeadline)
        }
        return Application(
            router: router,
            server: server,
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: nil),
            onServerRunning: { channel in
                let bound = channel.localAddress?.port ?? port
                let shownHost = host.contains(":") ? "[\(host)]" : host
                await onRunning("http://\(shownHost):\(bound)")
            },
            logger: logger)
    }

    /// Serves until SIGINT or SIGTERM (or the task is cancelled), then returns after in-flight
    /// requests finish; the caller closes the chain afterwards.
    public static func run(
        handler: NodeRPCHandler, auth: AuthEmulator?, host: String, port: Int, logger: Logger,
        access: HTTPAccessPolicy? = nil, timeouts: Timeouts = .standard, routes: (any DevNodeRoutes)? = nil,
        onRunning: @escaping @Sendable (String) async -> Void
    ) async throws {
        let app = application(
            handler: handler, auth: auth, host: host, port: port, logger: logger, access: access, timeouts: timeouts,
            routes: routes, onRunning: onRunning)
        try await app.runService(gracefulShutdownSignals: [.sigterm, .sigint])
    }

    /// Makes NIO's event loops Swift Concurrency's global executor, so a request's task runs on the
    /// thread that read it instead of hopping to the cooperative pool and back (two thread wake-ups per
    /// request, most of a loopback round trip). Call once, from the main thread, before any task runs;
    /// returns whether the hook was installed.
    @discardableResult
    public static func adoptEventLoopsAsGlobalExecutor() -> Bool {
        NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
    }
}
