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
        if route.operation == .notImplemented {
            throw .notImplemented("\(route.method ?? "this method") is not implemented in this auth service.")
        }
        let context = try callContext(for: request, route: route)
        let fields = request.method.uppercased() == "GET" ? [:] : (AuthJSON.parse(request.body)?.objectValue ?? [:])
        let service = try await self.realm(for: route, fields: fields, context: context)
        return try await service.run(route, request, context: context)
    }

    /// The realm a request is for, as the Firebase emulator decides it: the project in the path, else the body's
    /// `targetProjectId` (administrators only), else the default project; the tenant in the path, else the body's
    /// `tenantId`, else the presented ID token's (`TENANT_ID_MISMATCH` when two of them differ). A tenant is created
    /// with everything enabled when a request first names it, as in the emulator.
    private func realm(for route: AuthRoute, fields: [String: AuthJSON], context: AuthCallContext)
        async throws(AuthServiceError) -> AuthEmulator
    {
        func field(_ name: String, _ snake: String) -> String? {
            (fields[name] ?? fields[snake])?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        }
        var project = route.project
        if project == nil, let target = field("targetProjectId", "target_project_id") {
            guard context.privileged else {
                throw .badRequest(
                    .insufficientPermission, "Only authenticated requests can specify target_project_id.")
            }
            project = target
        } else if project == nil, route.legacy, [.batchGet, .batchCreate].contains(route.operation) {
            throw .badRequest(.insufficientPermission)
        }
        var tenant = route.tenant
        if let bodyTenant = field("tenantId", "tenant_id") {
            if let tenant, tenant != bodyTenant { throw .badRequest(.tenantIDMismatch) }
            tenant = bodyTenant
        }
        if let token = field("idToken", "id_token"), let claims = Self.unverifiedClaims(token) {
            if project == nil, route.project == nil, let audience = claims["aud"]?.stringValue,
                AuthRealm.isValidProjectId(audience)
            {
                project = audience
            }
            if let tokenTenant = claims["firebase"]?.objectValue?["tenant"]?.stringValue {
                if let tenant, tenant != tokenTenant { throw .badRequest(.tenantIDMismatch) }
                tenant = tokenTenant
            }
        }
        let projectId = project ?? self.projectId
        guard AuthRealm.isValidProjectId(projectId) else {
            throw .badRequest(.projectNotFound, "project ids are 1-128 letters, digits and -_.:")
        }
        if let tenant, !AuthRealm.isValidTenantId(tenant) {
            throw .badRequest(.tenantNotFound, "tenant ids are 1-128 letters, digits and hyphens")
        }
        let service = self.realm(AuthRealm(projectId: projectId, tenantId: tenant))
        if tenant != nil, route.operation != .deleteTenant { try await service.ensureTenant() }
        return service
    }

    /// A JWT's payload read without checking it: only to choose the realm, where it is then verified.
    static func unverifiedClaims(_ token: String) -> [String: AuthJSON]? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        return Base64URL.decode(parts[1]).flatMap(AuthJSON.parse)?.objectValue
    }

    /// Runs the route's operation in this realm.
    private func run(_ route: AuthRoute, _ request: AuthHTTPRequest, context: AuthCallContext)
        async throws(AuthServiceError) -> AuthHTTPResponse
    {
        let body = request.body
        switch route.operation {
        case .signUp:
            let request = try Self.decode(AuthWire.SignUpRequest.self, from: body)
            if context.privileged, request.idToken == nil { return try Self.ok(await createAccount(request)) }
            if request.email == nil, request.password == nil, request.idToken == nil {
                return try Self.ok(await signUpAnonymously(context: context))
            }
            return try Self.ok(await signUp(request, context: context))
        case .signInWithPassword:
            let request = try Self.decode(AuthWire.SignInWithPasswordRequest.self, from: body)
            switch try await passwordSignIn(request, context: context) {
            case .signedIn(let response): return try Self.ok(response)
            case .secondFactorRequired(let response): return try Self.ok(response)
            }
        case .lookup:
            return try Self.ok(await lookup(Self.decode(AuthWire.LookupRequest.self, from: body), context: context))
        case .update:
            return try Self.ok(await update(Self.decode(AuthWire.UpdateRequest.self, from: body), context: context))
        case .delete:
            return try Self.ok(await delete(Self.decode(AuthWire.DeleteRequest.self, from: body), context: context))
        case .sendOobCode:
            return try Self.ok(
                await sendOobCode(
                    Self.decode(AuthWire.SendOobCodeRequest.self, from: Self.namingRequestType(body)), context: context))
        case .resetPassword:
            return try Self.ok(await resetPassword(Self.decode(AuthWire.ResetPasswordRequest.self, from: body)))
        case .signInWithEmailLink:
            switch try await emailLinkSignIn(Self.decode(AuthWire.SignInWithEmailLinkRequest.self, from: body)) {
            case .signedIn(let response): return try Self.ok(response)
            case .secondFactorRequired(let response): return try Self.ok(response)
            }
        case .signInWithCustomToken:
            return try Self.ok(
                await signInWithCustomToken(Self.decode(AuthWire.SignInWithCustomTokenRequest.self, from: body)))
        case .revokeToken:
            return try Self.ok(await revokeToken(Self.decode(AuthWire.RevokeTokenRequest.self, from: body)))
        case .createAuthUri:
            return try Self.ok(await createAuthUri(Self.decode(AuthWire.CreateAuthUriRequest.self, from: body)))
        case .sendVerificationCode:
            return try Self.ok(
                await sendVerificationCode(Self.decode(AuthWire.SendVerificationCodeRequest.self, from: body)))
        case .signInWithPhoneNumber:
            return try Self.ok(
                await signInWithPhoneNumber(Self.decode(AuthWire.SignInWithPhoneNumberRequest.self, from: body)))
        case .signInWithIdp:
            return try Self.ok(await signInWithIdp(Self.decode(AuthWire.SignInWithIdpRequest.self, from: body)))
        case .getProjects:
            return try Self.ok(try projectInfo())
        case .getRecaptchaParams:
            return try Self.ok(AuthWire.RecaptchaParams())
        case .token:
            return try Self.ok(await refresh(Self.decodeTokenRequest(request)))
        case .batchGet:
            var query = request.query
            if route.legacy, let fields = AuthJSON.parse(body)?.objectValue {
                for (name, value) in fields {
                    if let text = value.stringValue { query[name] = text } else if case .integer(let number) = value {
                        query[name] = String(number)
                    }
                }
            }
            return try Self.ok(await batchGet(maxResults: query["maxResults"], pageToken: query["nextPageToken"]))
        case .batchDelete:
            return try Self.ok(await batchDelete(Self.decode(AuthWire.BatchDeleteRequest.self, from: body)))
        case .batchCreate:
            return try Self.ok(await batchCreate(Self.decode(AuthWire.BatchCreateRequest.self, from: body)))
        case .query:
            return try Self.ok(await query(Self.decode(AuthWire.QueryRequest.self, from: body)))
        case .createSessionCookie:
            return try Self.ok(
                await createSessionCookie(Self.decode(AuthWire.CreateSessionCookieRequest.self, from: body)))
        case .mfaEnrollmentStart:
            return try Self.ok(await mfaEnrollmentStart(Self.decode(AuthWire.MFAEnrollmentStartRequest.self, from: body)))
        case .mfaEnrollmentFinalize:
            return try Self.ok(
                await mfaEnrollmentFinalize(Self.decode(AuthWire.MFAEnrollmentFinalizeRequest.self, from: body)))
        case .mfaEnrollmentWithdraw:
            return try Self.ok(
                await mfaEnrollmentWithdraw(Self.decode(AuthWire.MFAWithdrawRequest.self, from: body)))
        case .mfaSignInStart:
            return try Self.ok(await mfaSignInStart(Self.decode(AuthWire.MFASignInStartRequest.self, from: body)))
        case .mfaSignInFinalize:
            return try Self.ok(
                await mfaSignInFinalize(Self.decode(AuthWire.MFASignInFinalizeRequest.self, from: body)))
        case .passkeyEnrollmentStart, .passkeyEnrollmentFinalize, .passkeySignInStart, .passkeySignInFinalize:
            throw .notImplemented(
                "\(route.operation.rawValue): passkeys (WebAuthn) are not implemented in this auth service; the "
                    + "Firebase emulator accepts any credential id without checking a signature.")
        case .getConfig:
            return try Self.ok(await projectConfig())
        case .updateConfig:
            return try Self.ok(
                await updateProjectConfig(Self.object(body), updateMask: request.query["updateMask"]))
        case .createTenant:
            return try Self.ok(AuthJSON.object(await createTenant(Self.object(body))))
        case .listTenants:
            return try Self.ok(await listTenants(pageSize: request.query["pageSize"], pageToken: request.query["pageToken"]))
        case .getTenant:
            return try Self.ok(AuthJSON.object(await tenantConfig()))
        case .updateTenant:
            return try Self.ok(
                AuthJSON.object(await updateTenant(Self.object(body), updateMask: request.query["updateMask"])))
        case .deleteTenant:
            try await deleteTenant()
            return try Self.ok(AuthWire.Empty())
        case .createOAuthIdpConfig, .createSAMLConfig:
            let kind: ProviderConfigKind = route.operation == .createOAuthIdpConfig ? .oidc : .saml
            let id = request.query[kind.idQueryName] ?? request.query[kind.idQueryName.snakeCased]
            return try Self.ok(AuthJSON.object(await createProviderConfig(kind, id: id, Self.object(body))))
        case .listOAuthIdpConfigs, .listSAMLConfigs:
            let kind: ProviderConfigKind = route.operation == .listOAuthIdpConfigs ? .oidc : .saml
            return try Self.ok(
                await listProviderConfigs(kind, pageSize: request.query["pageSize"], pageToken: request.query["pageToken"]))
        case .getOAuthIdpConfig, .getSAMLConfig:
            let kind: ProviderConfigKind = route.operation == .getOAuthIdpConfig ? .oidc : .saml
            return try Self.ok(AuthJSON.object(await providerConfig(kind, id: route.resource ?? "")))
        case .updateOAuthIdpConfig, .updateSAMLConfig:
            let kind: ProviderConfigKind = route.operation == .updateOAuthIdpConfig ? .oidc : .saml
            return try Self.ok(
                AuthJSON.object(
                    await updateProviderConfig(
                        kind, id: route.resource ?? "", Self.object(body), updateMask: request.query["updateMask"])))
        case .deleteOAuthIdpConfig, .deleteSAMLConfig:
            let kind: ProviderConfigKind = route.operation == .deleteOAuthIdpConfig ? .oidc : .saml
            try await deleteProviderConfig(kind, id: route.resource ?? "")
            return try Self.ok(AuthWire.Empty())
        case .clearAccounts:
            try await storeCall { try await self.store.deleteAllUsers() }
            return try Self.ok(AuthWire.Empty())
        case .listOobCodes:
            return try Self.ok(await listOobCodes())
        case .listVerificationCodes:
            return try Self.ok(await listVerificationCodes())
        case .getEmulatorConfig:
            return try Self.ok(await emulatorConfig())
        case .updateEmulatorConfig:
            return try Self.ok(await updateEmulatorConfig(Self.decode(AuthWire.EmulatorConfig.self, from: body)))
        case .emailAction:
            // Links of another project or a tenant name it (`projectId`, `tenantId`); the default project's do not.
            let project = request.query["projectId"] ?? projectId
            let tenant = request.query["tenantId"].flatMap { $0.isEmpty ? nil : $0 }
            guard AuthRealm.isValidProjectId(project), tenant.map(AuthRealm.isValidTenantId) ?? true else {
                return await emailAction(query: [:])
            }
            return await self.realm(AuthRealm(projectId: project, tenantId: tenant)).emailAction(query: request.query)
        case .idpSignInPage, .idpHelperFrame:
            throw .notImplemented(
                "\(request.path): the identity provider pop-up and redirect pages are not served; sign in with "
                    + "accounts:signInWithIdp and a fake id_token (JSON or JWT claims) instead")
        case .x509Certificates, .sessionCookieCertificates:
            var response = try Self.ok([signer.keyID: signer.certificatePEM])
            response.headers["cache-control"] = "public, max-age=3600"
            return response
        case .jwks, .getSessionCookiePublicKeys:
            var response = try Self.ok(AuthWire.JSONWebKeySet(keys: [signer.jwk]))
            response.headers["cache-control"] = "public, max-age=3600"
            return response
        case .notImplemented:
            throw .notImplemented(route.method ?? "this method")
        }
    }

    /// The names of `GetOobCodeRequest.requestType`'s values, by number: Google's protobuf JSON mapping takes either,
    /// and the Android SDK sends the number.
    static let requestTypeNames = [
        "OOB_REQ_TYPE_UNSPECIFIED", "PASSWORD_RESET", "OLD_EMAIL_AGREE", "NEW_EMAIL_ACCEPT", "VERIFY_EMAIL",
        "RECOVER_EMAIL", "EMAIL_SIGNIN", "VERIFY_AND_CHANGE_EMAIL", "REVERT_SECOND_FACTOR_ADDITION",
    ]

    /// The body with a numeric `requestType` replaced by its name.
    static func namingRequestType(_ body: [UInt8]) -> [UInt8] {
        guard var object = AuthJSON.parse(body)?.objectValue else { return body }
        for key in ["requestType", "request_type"] {
            if case .integer(let number) = object[key], requestTypeNames.indices.contains(Int(clamping: number)) {
                object[key] = .string(requestTypeNames[Int(number)])
                return Array(AuthJSON.object(object).description.utf8)
            }
        }
        return body
    }

    /// A JSON object body (an empty body is `{}`).
    static func object(_ body: [UInt8]) throws(AuthServiceError) -> [String: AuthJSON] {
        if body.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) { return [:] }
        guard let value = AuthJSON.parse(body) else { throw .invalidJSON("The body is not valid JSON.") }
        guard let object = value.objectValue else { throw .invalidJSON("The body is not a JSON object.") }
        return object
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
