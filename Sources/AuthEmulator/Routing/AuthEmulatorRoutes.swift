import HTTPTypes
import Hummingbird

/// The largest request body the auth routes read (Firebase's requests are a few hundred bytes).
public let authEmulatorMaxBodySize = 1 << 20

/// A request context that knows the client's IP address, so the auth service can apply its per-address limits.
/// Routes mounted on a router with another context still work; the per-address limits then do not apply.
public protocol ClientAddressRequestContext: RequestContext {
    /// The peer's IP address (`127.0.0.1`, `::1`), nil when unknown.
    var clientAddress: String? { get }
}

/// The request context for a server that mounts the auth routes: Hummingbird's basic context plus the peer's IP
/// address (from the socket, never from a forwarded header a client could forge).
public struct AuthEmulatorRequestContext: ClientAddressRequestContext {
    /// Hummingbird's per-request storage.
    public var coreContext: CoreRequestContextStorage
    /// The peer's IP address.
    public let clientAddress: String?

    /// Creates the context for a request arriving on `source.channel`.
    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.clientAddress = source.channel.remoteAddress?.ipAddress
    }
}

/// Mounts the auth service on a Hummingbird router (or router group): every method under the Identity Toolkit,
/// Secure Token, emulator and public-key prefixes (`AuthRoute.mountedPrefixes`), answered by `emulator.handle(_:)`,
/// which routes by method and path and answers 404 itself. Other paths are left to the router, so the routes can
/// share a server with JSON-RPC on `/`.
///
/// ```swift
/// let router = Router(context: AuthEmulatorRequestContext.self)
/// addAuthEmulatorRoutes(to: router, emulator: emulator)
/// ```
///
/// A body must arrive within `bodyTimeout` of its headers (else 408, and the connection is closed), so a client
/// that sends headers and then stalls cannot hold a connection.
public func addAuthEmulatorRoutes<Context: RequestContext>(
    to router: some RouterMethods<Context>, emulator: AuthEmulator, bodyTimeout: Duration = .seconds(30)
) {
    let methods: [HTTPRequest.Method] = [.get, .post, .patch, .delete, .options]
    for prefix in AuthRoute.mountedPrefixes {
        for method in methods {
            router.on(RouterPath(prefix + "/**"), method: method) { request, context -> Response in
                await answer(request, clientAddress: (context as? any ClientAddressRequestContext)?.clientAddress,
                    emulator: emulator, bodyTimeout: bodyTimeout)
            }
        }
    }
}

private func answer(
    _ request: Request, clientAddress: String?, emulator: AuthEmulator, bodyTimeout: Duration
) async -> Response {
    let body: [UInt8]
    do throws(RequestBodyError) {
        body = try await request.collectBody(upTo: authEmulatorMaxBodySize, within: bodyTimeout)
    } catch {
        // The rest of the body is not read, so the connection cannot carry another request.
        let failure: AuthServiceError
        switch error {
        case .tooLarge:
            failure = AuthServiceError(
                httpStatus: 413, code: .invalidArgument, message: "Request body too large.", reason: "badRequest",
                status: "INVALID_ARGUMENT")
        case .timedOut:
            failure = AuthServiceError(
                httpStatus: 408, code: .invalidArgument, message: "Request body not received within \(bodyTimeout).",
                reason: "badRequest", status: "INVALID_ARGUMENT")
        }
        var response = makeResponse(
            AuthHTTPResponse(
                status: failure.httpStatus, body: (try? AuthWire.encode(AuthWire.errorResponse(for: failure))) ?? []))
        response.headers[.connection] = "close"
        return response
    }
    var headers: [String: String] = [:]
    for field in request.headers {
        let name = field.name.canonicalName
        if AuthHTTPRequest.readHeaders.contains(name) { headers[name] = field.value }
    }
    if headers["host"] == nil, let authority = request.head.authority { headers["host"] = authority }
    let authRequest = AuthHTTPRequest(
        method: request.method.rawValue, path: request.uri.path,
        query: request.uri.query.map(FormEncoding.decode) ?? [:], headers: headers, body: body,
        clientAddress: clientAddress)
    return makeResponse(await emulator.handle(authRequest))
}

private func makeResponse(_ response: AuthHTTPResponse) -> Response {
    var fields = HTTPFields()
    for (name, value) in response.headers.sorted(by: { $0.key < $1.key }) {
        if let field = HTTPField.Name(name) { fields[field] = value }
    }
    if fields[.contentType] == nil, !response.body.isEmpty { fields[.contentType] = AuthHTTPResponse.jsonContentType }
    return Response(
        status: HTTPResponse.Status(code: response.status), headers: fields,
        body: ResponseBody(byteBuffer: ByteBuffer(bytes: response.body)))
}
