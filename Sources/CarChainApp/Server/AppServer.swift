import AuthEmulator
import DevNode
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// The web app served on its own, for a real network (`carchain app --rpc URL …`): the pages at `/app/` and the API at
/// `/app/api/v1/`, nothing else — no JSON-RPC, no auth routes, no WebSocket (the page polls `GET /app/api/v1/head`).
/// `/` redirects to `/app/`. Requests must name an allowed host (``HTTPAccessPolicy``, so a web page elsewhere cannot
/// reach it by DNS rebinding); answers carry no CORS headers, so only the app's own page reads them.
public enum AppServer {
    /// Serves `app` on `host:port` (0 picks a free port) until SIGINT or SIGTERM; `onRunning` gets the URL bound.
    public static func run(
        app: CarChainWebApp, host: String, port: Int, logger: Logger, access: HTTPAccessPolicy, timeout: Duration,
        onRunning: @escaping @Sendable (String) async -> Void
    ) async throws {
        let router = Router(context: AuthEmulatorRequestContext.self)
        router.add(middleware: HostCheck(policy: access))
        router.get("/") { _, _ in
            Response(status: .seeOther, headers: [.location: CarChainWebApp.path])
        }
        app.addRoutes(to: router, bodyTimeout: timeout * 0.9)
        let http1 = HTTP1Channel.Configuration(idleTimeout: TimeAmount(timeout))
        let application = Application(
            router: router, server: .http1(configuration: http1),
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: nil),
            onServerRunning: { channel in
                let bound = channel.localAddress?.port ?? port
                let shownHost = host.contains(":") ? "[\(host)]" : host
                await onRunning("http://\(shownHost):\(bound)")
            },
            logger: logger)
        try await application.runService(gracefulShutdownSignals: [.sigterm, .sigint])
    }

    /// Refuses a request whose Host the policy does not allow.
    struct HostCheck<Context: RequestContext>: RouterMiddleware {
        let policy: HTTPAccessPolicy

        func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
            if let why = policy.refusal(host: request.head.authority) {
                return Response(
                    status: .forbidden, headers: [.contentType: "text/plain; charset=utf-8"],
                    body: ResponseBody(byteBuffer: ByteBuffer(string: "carchain app: \(why)\n")))
            }
            return try await next(request, context)
        }
    }
}
