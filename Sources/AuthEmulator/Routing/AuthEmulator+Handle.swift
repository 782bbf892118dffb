import Foundation

/// Who is calling and from where: what the operations need to know beyond the body.
public struct AuthCallContext: Sendable, Equatable {
    /// The caller presented the emulator's administrator credential (`Authorization: Bearer owner`).
    public var privileged: Bool
    /// The client's IP address (per-address limits); nil in process, where no limit by address applies.
    public var clientAddress: String?
    /// The scheme and authority links are built on (`http://127.0.0.1:8545`), from the request's `Host`.
    public var baseURL: String

    /// An unprivileged call made in this process.
    public static let inProcess = AuthCallContext(privileged: false, clientAddress: nil, baseURL: "http://localhost")
    /// A privileged call made in this process.
    public static let administrator = AuthCallContext(privileged: true, clientAddress: nil, baseURL: "http://localhost")

    /// Creates a context.
    public init(privileged: Bool, clientAddress: String?, baseURL: String) {
        self.privileged = privileged
        self.clientAddress = clientAddress
        self.baseURL = baseURL
    }
}

extension AuthEmulator {
    /// Answers one HTTP request: routes by method and path, checks the caller (API key, `Bearer owner`), decodes
    /// the body, runs the operation, and encodes the result or the error in Google's JSON. Answers CORS preflights;
    /// the CORS headers themselves (which origins, `Access-Control-Allow-Origin`) are the node's HTTP access policy,
    /// one place for the JSON-RPC and the auth routes (DevNode's `HTTPAccessPolicy`, `--allow-origin`).
    public func handle(_ request: AuthHTTPRequest) async -> AuthHTTPResponse {
        var response: AuthHTTPResponse
        if request.method.uppercased() == "OPTIONS" {
            response = AuthHTTPResponse(status: 204, headers: [:], body: [])
            response.headers["access-control-allow-methods"] = "GET, POST, PATCH, DELETE, OPTIONS"
            response.headers["access-control-allow-headers"] =
                request.headers["access-control-request-headers"] ?? "content-type, authorization, x-goog-api-key"
            response.headers["access-control-max-age"] = "3600"
        } else {
            do throws(AuthServiceError) {
                response = try await dispatch(request)
            } catch {
                response = Self.failure(error)
            }
        }
        return response
    }

    private func dispatch(_ request: AuthHTTPRequest) async throws(AuthServiceError) -> AuthHTTPResponse {
        guard let route = AuthRoute(method: request.method, path: request.path) else { throw .notFound }
        let context = try callContext(for: request, route: route)
        if let project = route.project, project != projectId {
            throw .badRequest(
                .projectNotFound,
                "this auth emulator serves project \(projectId), not \(project): set the Admin SDK's project id "
                    + "(GOOGLE_CLOUD_PROJECT or the app's projectId option) to \(projectId)")
        }
        let body = request.body
        switch route.operation {
        case .signUp:
            let request = try Self.decode(AuthWire.SignUpRequest.self, from: body)
            if context.privileged { return try Self.ok(await createAccount(request)) }
            return try Self.ok(await signUp(request, context: context))
        case .signInWithPassword:
            return try Self.ok(
                await signInWithPassword(
                    Self.decode(AuthWire.SignInWithPasswordRequest.self, from: body), context: context))
        case .lookup:
            return try Self.ok(await lookup(Self.decode(AuthWire.LookupRequest.self, from: body), context: context))
        case .update:
            return try Self.ok(await update(Self.decode(AuthWire.UpdateRequest.self, from: body), context: context))
        case .delete:
            return try Self.ok(await delete(Self.decode(AuthWire.DeleteRequest.self, from: body), context: context))
        case .sendOobCode:
            return try Self.ok(
                await sendOobCode(Self.decode(AuthWire.SendOobCodeRequest.self, from: body), context: context))
        case .resetPassword:
            return try Self.ok(await resetPassword(Self.decode(AuthWire.ResetPasswordRequest.self, from: body)))
        case .signInWithEmailLink:
            return try Self.ok(
                await signInWithEmailLink(Self.decode(AuthWire.SignInWithEmailLinkRequest.self, from: body)))
        case .signInWithCustomToken:
            return try Self.ok(
                await signInWithCustomToken(Self.decode(AuthWire.SignInWithCustomTokenRequest.self, from: body)))
        case .revokeToken:
            return try Self.ok(await revokeToken(Self.decode(AuthWire.RevokeTokenRequest.self, from: body)))
        case .token:
            return try Self.ok(await refresh(Self.decodeTokenRequest(request)))
        case .batchGet:
            return try Self.ok(await batchGet(maxResults: request.query["maxResults"], pageToken: request.query["nextPageToken"]))
        case .batchDelete:
            return try Self.ok(await batchDelete(Self.decode(AuthWire.BatchDeleteRequest.self, from: body)))
        case .createSessionCookie:
            return try Self.ok(
                await createSessionCookie(Self.decode(AuthWire.CreateSessionCookieRequest.self, from: body)))
        case .clearAccounts:
            try await storeCall { try await self.store.deleteAllUsers() }
            return try Self.ok(AuthWire.Empty())
        case .listOobCodes:
            return try Self.ok(await listOobCodes())
        case .getConfig:
            return try Self.ok(await emulatorConfig())
        case .updateConfig:
            return try Self.ok(await updateEmulatorConfig(Self.decode(AuthWire.EmulatorConfig.self, from: body)))
        case .emailAction:
            return await emailAction(query: request.query)
        case .x509Certificates, .sessionCookieCertificates:
            var response = try Self.ok([signer.keyID: signer.certificatePEM])
            response.headers["cache-control"] = "public, max-age=3600"
            return response
        case .jwks:
            var response = try Self.ok(AuthWire.JSONWebKeySet(keys: [signer.jwk]))
            response.headers["cache-control"] = "public, max-age=3600"
            return response
        }
    }

    /// Checks the caller against the operation's access rules, the way the Firebase emulator does: an
    /// `Authorization` header must be `Bearer owner` (or a Google OAuth access token, `ya29.…`, taken as the
    /// project's owner); without it a client operation needs an API key (403 otherwise) and an administrator
    /// operation fails with 401.
    private func callContext(for request: AuthHTTPRequest, route: AuthRoute) throws(AuthServiceError)
        -> AuthCallContext
    {
        var privileged = false
        if let authorization = request.headers["authorization"], route.operation.access != .open {
            let prefix = "bearer "
            guard authorization.lowercased().hasPrefix(prefix) else { throw .invalidCredentials }
            let token = authorization.dropFirst(prefix.count)
            guard token.lowercased() == "owner" || token.hasPrefix("ya29.") else { throw .invalidCredentials }
            privileged = true
        }
        switch route.operation.access {
        case .clientOrAdministrator:
            guard privileged || request.apiKey != nil else { throw .missingAPIKey }
        case .client:
            guard request.apiKey != nil else { throw .missingAPIKey }
        case .administrator:
            guard privileged else { throw .missingCredentials }
        case .open:
            break
        }
        return AuthCallContext(
            privileged: privileged, clientAddress: request.clientAddress, baseURL: Self.baseURL(host: request.headers["host"]))
    }

    /// `http://<Host>` when the Host header is a plain host[:port], else `http://localhost`.
    static func baseURL(host: String?) -> String {
        guard let host, !host.isEmpty, host.count <= 255,
            host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-.:[]".contains($0)) })
        else { return "http://localhost" }
        return "http://\(host)"
    }

    // MARK: Bodies

    static func decode<T: Decodable>(_ type: T.Type, from body: [UInt8]) throws(AuthServiceError) -> T {
        do {
            return try AuthWire.decodeRequest(T.self, from: body)
        } catch {
            throw .invalidJSON(describeDecodingError(error))
        }
    }

    /// The token endpoint takes `application/x-www-form-urlencoded` (what Firebase's SDKs send) or JSON.
    static func decodeTokenRequest(_ request: AuthHTTPRequest) throws(AuthServiceError) -> AuthWire.TokenRequest {
        let contentType = request.headers["content-type"]?.lowercased() ?? ""
        let looksLikeJSON = request.body.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "{")
        if contentType.hasPrefix("application/json") || (!contentType.contains("form") && looksLikeJSON) {
            return try decode(AuthWire.TokenRequest.self, from: request.body)
        }
        let fields = FormEncoding.decode(String(decoding: request.body, as: UTF8.self))
        return AuthWire.TokenRequest(
            grantType: fields["grant_type"] ?? fields["grantType"],
            refreshToken: fields["refresh_token"] ?? fields["refreshToken"])
    }

    static func ok(_ value: some Encodable) throws(AuthServiceError) -> AuthHTTPResponse {
        do {
            return AuthHTTPResponse(status: 200, body: try AuthWire.encode(value))
        } catch {
            throw .internalFailure("response encoding failed")
        }
    }

    static func failure(_ error: AuthServiceError) -> AuthHTTPResponse {
        let body = (try? AuthWire.encode(AuthWire.errorResponse(for: error))) ?? Array(#"{"error":{}}"#.utf8)
        return AuthHTTPResponse(status: error.httpStatus, body: body)
    }
}

private func describeDecodingError(_ error: any Error) -> String {
    switch error {
    case DecodingError.typeMismatch(let type, let context):
        return "Invalid value at '\(codingPath(context))' (\(type))"
    case DecodingError.valueNotFound(_, let context):
        return "Missing value at '\(codingPath(context))'"
    case DecodingError.keyNotFound(let key, _):
        return "Missing field '\(key.stringValue)'"
    case DecodingError.dataCorrupted(let context):
        return context.codingPath.isEmpty ? "The body is not valid JSON." : "Invalid value at '\(codingPath(context))'"
    default:
        return "The body is not valid JSON."
    }
}

private func codingPath(_ context: DecodingError.Context) -> String {
    context.codingPath.map(\.stringValue).joined(separator: ".")
}
