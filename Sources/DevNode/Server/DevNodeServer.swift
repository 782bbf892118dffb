import AuthEmulator
import Hummingbird
import Logging
import NIOCore
import NIOPosix

/// The dev node's HTTP server (Hummingbird): JSON-RPC on `POST /` answered by a ``NodeRPCHandler``,
/// and the Firebase Auth emulator's endpoints when an ``AuthEmulator`` is given. Bodies over the
/// handler's limit get a JSON-RPC error with HTTP 413 without being read in full.
public enum DevNodeServer {
    /// Builds the application listening on `host:port` (port 0 picks a free port); `onRunning` gets
    /// the URL actually bound once the server accepts connections.
    public static func application(
        handler: NodeRPCHandler, auth: AuthEmulator?, host: String, port: Int, logger: Logger,
        onRunning: @escaping @Sendable (String) async -> Void
    ) -> some ApplicationProtocol {
        // The auth routes' context carries the client's address, for the auth service's per-address limits.
        let router = Router(context: AuthEmulatorRequestContext.self)
        let limit = handler.limits.maxBodyBytes
        router.post("/") { request, _ -> Response in
            var request = request
            let body: [UInt8]
            do {
                let buffer = try await request.collectBody(upTo: limit)
                body = Array(buffer.readableBytesView)
            } catch {
                let failure = NodeRPCHandler.errorResponse(
                    id: .null, .invalidRequest("body larger than \(limit) bytes"))
                return Self.json(Array(failure.description.utf8), status: .contentTooLarge)
            }
            let answer = await handler.handle(body)
            // Only notifications: nothing to answer (JSON-RPC over HTTP: 204 No Content).
            if answer.isEmpty { return Response(status: .noContent) }
            return Self.json(answer, status: .ok)
        }
        if let auth { addAuthEmulatorRoutes(to: router, emulator: auth) }
        return Application(
            router: router,
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
        onRunning: @escaping @Sendable (String) async -> Void
    ) async throws {
        let app = application(handler: handler, auth: auth, host: host, port: port, logger: logger, onRunning: onRunning)
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

    static func json(_ bytes: [UInt8], status: HTTPResponse.Status) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
