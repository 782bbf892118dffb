import Hummingbird

/// Who may talk to the node over HTTP, checked before any route (JSON-RPC and the auth service alike):
///
/// - **Host allowlist.** A web page the developer opens can point a name it controls at 127.0.0.1 (DNS
///   rebinding) and then reach the node from the browser as "same origin". Its requests carry that name in
///   `Host`, so only the names of this machine (`localhost`, `127.0.0.1`, `[::1]`) and the address the node is
///   bound to are accepted by default, like geth's `--http.vhosts`; others get 403 with a message naming
///   `--allow-host`. `*` allows every host. A request without `Host` (HTTP/1.0 tools) is let through: no
///   browser sends one.
/// - **CORS.** `Access-Control-Allow-Origin: *` by default, as anvil and Hardhat answer, so browser dapps
///   work; preflights (`OPTIONS`) are answered here. With allowed origins given (`--allow-origin`), a request
///   from any other origin is refused with 403 before it runs: a browser sends "simple" POSTs without a
///   preflight, so hiding the answer alone would not stop a page from mining or setting balances. A page the
///   node serves itself (the web app at `/app/`) is same-origin: its `Origin` is `http://` and the allowed
///   `Host` it was requested with, and is let through.
public struct HTTPAccessPolicy: Sendable, Equatable {
    /// Allowed `Host` names (lowercase, without port); contains "*" to allow all.
    public var allowedHosts: Set<String>
    /// Allowed origins (`scheme://host[:port]`, lowercase); nil allows every origin.
    public var allowedOrigins: Set<String>?

    /// The host names always allowed: this machine's.
    public static let loopbackHosts: Set<String> = ["localhost", "127.0.0.1", "::1", "[::1]"]

    /// A policy for a node bound to `boundHost`: loopback names, the bound address and `extraHosts`;
    /// `origins` nil allows every origin.
    public init(boundHost: String, extraHosts: [String] = [], origins: [String]? = nil) {
        var hosts = Self.loopbackHosts
        hosts.insert(Self.normalizedHost(boundHost))
        for host in extraHosts { hosts.insert(Self.normalizedHost(host)) }
        self.allowedHosts = hosts
        self.allowedOrigins = origins.map { Set($0.map { Self.normalizedOrigin($0) }) }
    }

    /// True for hosts that only this machine can reach (the default `--host` values).
    public static func isLoopback(_ host: String) -> Bool {
        let h = normalizedHost(host)
        return loopbackHosts.contains(h) || h.hasPrefix("127.")
    }

    /// The `Host` header's name: lowercase, without the port, IPv6 brackets removed.
    static func normalizedHost(_ value: String) -> String {
        var text = value.lowercased().trimmingBlanks()
        if text.hasPrefix("[") {
            if let close = text.firstIndex(of: "]") { text = String(text[text.index(after: text.startIndex)..<close]) }
            return text
        }
        // One colon: name:port. More than one: a bare IPv6 address.
        if text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":") { text = String(text[..<colon]) }
        return text
    }

    /// An origin as browsers send it, lowercase, without a trailing slash.
    static func normalizedOrigin(_ value: String) -> String {
        var text = value.lowercased().trimmingBlanks()
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }

    /// Nil when a request with this `Host` header may proceed; else why not.
    public func refusal(host: String?) -> String? {
        guard let host, !allowedHosts.contains("*") else { return nil }
        let name = Self.normalizedHost(host)
        if allowedHosts.contains(name) { return nil }
        let shown = String(host.prefix(100))
        return "host \"\(shown)\" is not allowed (DNS rebinding protection): start the node with --allow-host \(name.isEmpty ? "NAME" : name) to allow it"
    }

    /// The `Access-Control-Allow-Origin` value for a request from `origin`, nil when that origin is refused. With
    /// `host` (the request's `Host`, already allowed), an origin naming the node itself is same-origin and allowed.
    public func allowOriginHeader(origin: String, host: String? = nil) -> String? {
        guard let allowedOrigins else { return "*" }
        let normalized = Self.normalizedOrigin(origin)
        if let host, normalized == "http://" + host.lowercased().trimmingBlanks() { return origin }
        return allowedOrigins.contains(normalized) ? origin : nil
    }

    /// What the policy makes of a request, from its `Host` and `Origin` headers.
    public enum Admission: Sendable, Equatable {
        /// Refused (403): the answer's text, naming the option that would allow it.
        case refused(String)
        /// Allowed: the CORS headers its answer carries (none without `Origin`).
        case allowed(cors: HTTPFields)
    }

    /// The policy's decision for a request with these `Host` and `Origin` headers.
    public func admission(host: String?, origin: String?) -> Admission {
        if let why = refusal(host: host) { return .refused("carchain node: \(why)\n") }
        guard let origin else { return .allowed(cors: [:]) }
        guard let allowOrigin = allowOriginHeader(origin: origin, host: host) else {
            return .refused(
                "carchain node: origin \"\(origin.prefix(100))\" is not allowed: start the node with --allow-origin \(origin.prefix(100)) to allow it\n")
        }
        var cors: HTTPFields = [.accessControlAllowOrigin: allowOrigin]
        if allowedOrigins != nil { cors[.vary] = "Origin" }
        return .allowed(cors: cors)
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    fileprivate func trimmingBlanks() -> String {
        var text = Substring(self)
        while text.first == " " || text.first == "\t" { text.removeFirst() }
        while text.last == " " || text.last == "\t" { text.removeLast() }
        return String(text)
    }
}

/// Applies an ``HTTPAccessPolicy`` to every request of the node's router.
struct HTTPAccessMiddleware<Context: RequestContext>: RouterMiddleware {
    let policy: HTTPAccessPolicy

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // HTTP/1.1's Host header (HTTPTypes keeps it as the request's authority).
        switch policy.admission(host: request.head.authority, origin: request.headers[.origin]) {
        case .refused(let text):
            return Self.forbidden(text)
        case .allowed(let cors):
            var response: Response
            if request.method == .options, !cors.isEmpty {
                response = Response(status: .noContent)
                response.headers[.accessControlAllowMethods] = "GET, POST, PATCH, DELETE, OPTIONS"
                response.headers[.accessControlAllowHeaders] =
                    request.headers[.accessControlRequestHeaders] ?? "Content-Type, Authorization, X-Goog-Api-Key"
                response.headers[.accessControlMaxAge] = "3600"
            } else {
                response = try await next(request, context)
            }
            for field in cors { response.headers[field.name] = field.value }
            return response
        }
    }

    static func forbidden(_ text: String) -> Response {
        Response(
            status: .forbidden, headers: [.contentType: "text/plain; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
