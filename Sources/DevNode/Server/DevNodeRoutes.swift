import AuthEmulator
import Hummingbird

/// Routes a module above DevNode serves on the node's port — the CarChain web app at `/app/` — without DevNode
/// depending on it: `carchain node` passes them to ``DevNodeServer/application(handler:auth:host:port:logger:access:timeouts:routes:onRunning:)``.
/// They sit behind the same ``HTTPAccessPolicy`` (Host allowlist, CORS) as JSON-RPC and the auth routes, and their
/// context carries the client's address.
public protocol DevNodeRoutes: Sendable {
    /// Adds the routes to the node's router. A request body must arrive within `bodyTimeout` of its headers (the
    /// node's `--http-timeout`), as the node's own routes require.
    func addRoutes(to router: Router<AuthEmulatorRequestContext>, bodyTimeout: Duration)
}
