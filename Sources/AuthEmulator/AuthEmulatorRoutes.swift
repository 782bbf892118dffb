import Hummingbird

/// The largest request body the auth routes read (Firebase's requests are a few hundred bytes).
public let authEmulatorMaxBodySize = 1 << 20

/// Mounts the Firebase Auth emulator endpoints on a Hummingbird router (or router group): `POST` on each
/// `FirebaseAuthEndpoint.path`, answered by `emulator.handle(_:)`. Other paths are left to the router, so the
/// routes can share a server with JSON-RPC on `/`.
///
/// ```swift
/// let router = Router()
/// addAuthEmulatorRoutes(to: router, emulator: emulator)
/// ```
public func addAuthEmulatorRoutes<Context: RequestContext>(
    to router: some RouterMethods<Context>, emulator: AuthEmulator
) {
    for endpoint in FirebaseAuthEndpoint.allCases {
        router.post(RouterPath(endpoint.path)) { request, _ -> Response in
            var request = request
            let body: [UInt8]
            do {
                let buffer = try await request.collectBody(upTo: authEmulatorMaxBodySize)
                body = Array(buffer.readableBytesView)
            } catch {
                let tooLarge = AuthServiceError(
                    httpStatus: 413, code: .invalidArgument, message: "Request body too large.",
                    reason: "badRequest", status: "INVALID_ARGUMENT")
                return makeResponse(
                    AuthHTTPResponse(
                        status: 413, body: (try? AuthWire.encode(AuthWire.errorResponse(for: tooLarge))) ?? []))
            }
            var headers: [String: String] = [:]
            for field in request.headers {
                let name = field.name.canonicalName
                if name == "content-type" || name == "x-goog-api-key" { headers[name] = field.value }
            }
            let authRequest = AuthHTTPRequest(
                method: request.method.rawValue, path: request.uri.path,
                query: request.uri.query.map(FormEncoding.decode) ?? [:], headers: headers, body: body)
            return makeResponse(await emulator.handle(authRequest))
        }
    }
}

private func makeResponse(_ response: AuthHTTPResponse) -> Response {
    Response(
        status: HTTPResponse.Status(code: response.status),
        headers: [.contentType: response.headers["content-type"] ?? AuthHTTPResponse.jsonContentType],
        body: ResponseBody(byteBuffer: ByteBuffer(bytes: response.body)))
}
