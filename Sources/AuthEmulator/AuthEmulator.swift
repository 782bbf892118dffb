import Crypto
import Dispatch
import EthereumPrimitives
import Foundation

/// A Firebase-Auth-compatible service: email/password accounts, RS256 ID tokens and refresh tokens, answering the
/// Firebase Auth REST v1 API (`accounts:signUp`, `accounts:signInWithPassword`, `accounts:lookup`, and the Secure
/// Token API's `token`) with Firebase's JSON shapes and error codes.
///
/// `handle(_:)` is the wire entry point shared by the HTTP routes (`addAuthEmulatorRoutes`) and the in-process
/// client transport; the typed operations beneath it can be called directly.
///
/// Security properties: passwords are stored only as scrypt hashes; refresh tokens only as SHA-256 digests;
/// hashes and tokens are compared in constant time; an unknown email and a wrong password produce the same
/// response after the same scrypt work; failed sign-ins are limited per email whether or not the account exists.
public final class AuthEmulator: Sendable {
    /// The project id used when none is configured. Firebase treats `demo-` project ids as emulator-only.
    public static let defaultProjectId = "demo-carchain"

    /// The Firebase project id (`aud` of the ID tokens).
    public let projectId: String
    /// The account store.
    public let store: AuthStore
    /// The ID token signer.
    public let signer: TokenSigner
    /// The clock for token times and rate-limit windows.
    public let clock: any AuthClock
    /// Costs and lifetimes.
    public let policy: AuthPolicy
    private let hasher: PasswordHasher
    /// scrypt runs here, one hash at a time, off Swift's cooperative thread pool: a burst of sign-ins neither
    /// stalls the other tasks of the process (the dev node's JSON-RPC) nor holds more than one scrypt's memory.
    private let passwordQueue = DispatchQueue(label: "carchain.auth.scrypt")

    /// Creates the service over a store and a signing key.
    public init(
        store: AuthStore, signer: TokenSigner, clock: any AuthClock = SystemAuthClock(), projectId: String,
        policy: AuthPolicy = AuthPolicy()
    ) throws(PasswordHasherError) {
        self.store = store
        self.signer = signer
        self.clock = clock
        self.projectId = projectId
        self.policy = policy
        self.hasher = try PasswordHasher(parameters: policy.scrypt)
    }

    /// Opens the service on a data directory: accounts in `<dataDirectory>/auth.sqlite`, the signing key in
    /// `<dataDirectory>/auth-signing-key.pem` (generated on first use, mode 0600).
    public static func open(
        dataDirectory: String, projectId: String = defaultProjectId, clock: any AuthClock = SystemAuthClock(),
        policy: AuthPolicy = AuthPolicy()
    ) async throws -> AuthEmulator {
        try SecureFile.createDirectory(dataDirectory)
        let store = try AuthStore.open(path: (dataDirectory as NSString).appendingPathComponent(AuthStore.fileName))
        let signer = try await TokenSigner.loadOrCreate(
            keyFile: (dataDirectory as NSString).appendingPathComponent(TokenSigner.keyFileName))
        return try AuthEmulator(store: store, signer: signer, clock: clock, projectId: projectId, policy: policy)
    }

    /// A service that keeps nothing on disk: an in-memory store and a fresh signing key.
    public static func ephemeral(
        projectId: String = defaultProjectId, clock: any AuthClock = SystemAuthClock(), policy: AuthPolicy = AuthPolicy()
    ) async throws -> AuthEmulator {
        let store = try AuthStore.inMemory()
        let signer = try await TokenSigner.generate().signer
        return try AuthEmulator(store: store, signer: signer, clock: clock, projectId: projectId, policy: policy)
    }

    // MARK: Wire entry point

    /// Answers one HTTP request: routes by path, requires an API key (`key` query parameter or
    /// `x-goog-api-key` header), decodes the body, runs the operation, and encodes the result or the error in
    /// Firebase's JSON.
    public func handle(_ request: AuthHTTPRequest) async -> AuthHTTPResponse {
        do throws(AuthServiceError) {
            guard request.method.uppercased() == "POST", let endpoint = FirebaseAuthEndpoint(path: request.path) else {
                throw .notFound
            }
            guard request.apiKey != nil else { throw .missingAPIKey }
            switch endpoint {
            case .signUp:
                return try Self.ok(await signUp(Self.decode(AuthWire.SignUpRequest.self, from: request.body)))
            case .signInWithPassword:
                return try Self.ok(
                    await signInWithPassword(Self.decode(AuthWire.SignInWithPasswordRequest.self, from: request.body)))
            case .lookup:
                return try Self.ok(await lookup(Self.decode(AuthWire.LookupRequest.self, from: request.body)))
            case .token:
                return try Self.ok(await refresh(Self.decodeTokenRequest(request)))
            }
        } catch {
            return Self.failure(error)
        }
    }

    // MARK: Operations

    /// `accounts:signUp`: creates an email/password account and signs it in. Checks in Firebase's order:
    /// `MISSING_EMAIL`, `MISSING_PASSWORD`, `INVALID_EMAIL`, `EMAIL_EXISTS`, `WEAK_PASSWORD`.
    public func signUp(_ request: AuthWire.SignUpRequest) async throws(AuthServiceError) -> AuthWire.SignUpResponse {
        guard let rawEmail = request.email, !rawEmail.isEmpty else { throw .badRequest(.missingEmail) }
        guard let password = request.password, !password.isEmpty else { throw .badRequest(.missingPassword) }
        guard EmailAddress.isValid(rawEmail) else { throw .badRequest(.invalidEmail) }
        let email = EmailAddress.normalize(rawEmail)
        if try await storeCall({ try await self.store.user(email: email) }) != nil { throw .badRequest(.emailExists) }
        guard password.count >= AuthPolicy.minimumPasswordLength else {
            throw .badRequest(
                .weakPassword, "Password should be at least \(AuthPolicy.minimumPasswordLength) characters")
        }

        let hasher = self.hasher
        let hash = try await passwordWork("password hashing failed") { () throws(PasswordHasherError) in try hasher.hash(password) }
        let now = clock.now()
        let displayName = request.displayName.flatMap { $0.isEmpty ? nil : $0 }
        var user = AuthUserRecord(
            uid: SecureRandom.uid(), email: email, displayName: displayName, passwordHash: hash, createdAt: now,
            lastLoginAt: now, passwordUpdatedAt: now,
            validSince: Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down)))
        for attempt in 0..<3 {
            do throws(AuthStoreError) {
                try await store.insertUser(user)
                break
            } catch .emailTaken {
                throw .badRequest(.emailExists)
            } catch .uidTaken where attempt < 2 {
                // 62^28 ids make a collision practically impossible; retry rather than fail if one happens.
                user.uid = SecureRandom.uid()
            } catch {
                throw .internalFailure("account storage failed")
            }
        }
        let tokens = try await issueTokens(for: user, authTime: now)
        return AuthWire.SignUpResponse(
            idToken: tokens.idToken, displayName: user.displayName, email: user.email,
            refreshToken: tokens.refreshToken, expiresIn: String(policy.idTokenLifetime), localId: user.uid)
    }

    /// `accounts:signInWithPassword`. An unknown email and a wrong password both answer
    /// `INVALID_LOGIN_CREDENTIALS` with the same body, after the same scrypt work; after
    /// `policy.rateLimit.maxFailures` failures within the window, the email gets `TOO_MANY_ATTEMPTS_TRY_LATER`
    /// whether or not it has an account.
    public func signInWithPassword(_ request: AuthWire.SignInWithPasswordRequest) async throws(AuthServiceError)
        -> AuthWire.SignInWithPasswordResponse
    {
        guard let rawEmail = request.email, !rawEmail.isEmpty else { throw .badRequest(.missingEmail) }
        guard EmailAddress.isValid(rawEmail) else { throw .badRequest(.invalidEmail) }
        guard let password = request.password, !password.isEmpty else { throw .badRequest(.missingPassword) }
        let email = EmailAddress.normalize(rawEmail)
        let now = clock.now()

        let decision = try await storeCall {
            try await self.store.beginLoginAttempt(email: email, at: now, policy: self.policy.rateLimit)
        }
        guard decision == .allowed else {
            throw .badRequest(.tooManyAttempts, "Too many unsuccessful login attempts. Please try again later.")
        }

        let user = try await storeCall { try await self.store.user(email: email) }
        let hasher = self.hasher
        let stored = user?.passwordHash ?? hasher.unmatchableHash()
        let matches = try await passwordWork("password verification failed") { () throws(PasswordHasherError) in
            try hasher.verify(password, against: stored)
        }
        guard let user, matches else { throw .badRequest(.invalidLoginCredentials) }
        guard !user.disabled else { throw .badRequest(.userDisabled) }

        try await storeCall { try await self.store.clearLoginFailures(email: email) }
        try await storeCall { try await self.store.recordLogin(uid: user.uid, at: now) }
        let tokens = try await issueTokens(for: user, authTime: now)
        return AuthWire.SignInWithPasswordResponse(
            localId: user.uid, email: user.email, displayName: user.displayName ?? "", idToken: tokens.idToken,
            refreshToken: tokens.refreshToken, expiresIn: String(policy.idTokenLifetime))
    }

    /// `accounts:lookup` with an ID token: the token's account. `MISSING_ID_TOKEN`, `INVALID_ID_TOKEN` (bad
    /// signature, wrong project, malformed), `TOKEN_EXPIRED` (expired or revoked), `USER_NOT_FOUND`.
    public func lookup(_ request: AuthWire.LookupRequest) async throws(AuthServiceError) -> AuthWire.LookupResponse {
        guard let idToken = request.idToken, !idToken.isEmpty else { throw .badRequest(.missingIDToken) }
        let claims = try await verifyIDToken(idToken)
        guard let user = try await storeCall({ try await self.store.user(uid: claims.userId) }) else {
            throw .badRequest(.userNotFound)
        }
        guard claims.issuedAt >= Int64(user.validSince.timeIntervalSince1970) else { throw .badRequest(.tokenExpired) }
        guard !user.disabled else { throw .badRequest(.userDisabled) }
        return AuthWire.LookupResponse(users: [Self.accountInfo(user)])
    }

    /// Secure Token API `token` with `grant_type=refresh_token`: a new ID token for the refresh token's account.
    /// `MISSING_GRANT_TYPE`, `INVALID_GRANT_TYPE`, `MISSING_REFRESH_TOKEN`, `INVALID_REFRESH_TOKEN`,
    /// `USER_NOT_FOUND`, `USER_DISABLED`. The refresh token stays valid (Firebase refresh tokens are long-lived
    /// and revoked explicitly) and is returned unchanged.
    public func refresh(_ request: AuthWire.TokenRequest) async throws(AuthServiceError) -> AuthWire.TokenResponse {
        guard let grantType = request.grantType, !grantType.isEmpty else { throw .badRequest(.missingGrantType) }
        guard grantType == "refresh_token" else { throw .badRequest(.invalidGrantType) }
        guard let refreshToken = request.refreshToken, !refreshToken.isEmpty else {
            throw .badRequest(.missingRefreshToken)
        }
        let digest = Array(SHA256.hash(data: Array(refreshToken.utf8)))
        guard let uid = try await storeCall({ try await self.store.refreshTokenOwner(sha256: digest) }) else {
            throw .badRequest(.invalidRefreshToken)
        }
        guard let user = try await storeCall({ try await self.store.user(uid: uid) }) else {
            throw .badRequest(.userNotFound)
        }
        guard !user.disabled else { throw .badRequest(.userDisabled) }
        let now = clock.now()
        let idToken = try await signIDToken(for: user, authTime: user.lastLoginAt, now: now)
        try await storeCall { try await self.store.recordRefresh(uid: user.uid, at: now) }
        return AuthWire.TokenResponse(
            accessToken: idToken, expiresIn: String(policy.idTokenLifetime), refreshToken: refreshToken,
            idToken: idToken, userId: user.uid, projectId: policy.projectNumber)
    }

    /// Verifies an ID token issued by this service (signature, issuer, audience, expiry against `clock`);
    /// `INVALID_ID_TOKEN` or `TOKEN_EXPIRED` otherwise.
    public func verifyIDToken(_ idToken: String) async throws(AuthServiceError) -> IDTokenClaims {
        do {
            return try await signer.verifyIDToken(idToken, projectId: projectId, now: clock.now())
        } catch {
            throw .badRequest(error.isExpiry ? .tokenExpired : .invalidIDToken)
        }
    }

    /// Revokes all of an account's tokens: ID tokens issued before now fail `lookup` with `TOKEN_EXPIRED`, and its
    /// refresh tokens stop working.
    public func revokeTokens(uid: String) async throws(AuthServiceError) {
        let now = clock.now()
        try await storeCall { try await self.store.revokeTokens(uid: uid, at: now) }
    }

    // MARK: Internals

    private func issueTokens(for user: AuthUserRecord, authTime: Date) async throws(AuthServiceError)
        -> (idToken: String, refreshToken: String)
    {
        let now = clock.now()
        let idToken = try await signIDToken(for: user, authTime: authTime, now: now)
        let refreshToken = SecureRandom.refreshToken()
        let digest = Array(SHA256.hash(data: Array(refreshToken.utf8)))
        try await storeCall { try await self.store.insertRefreshToken(sha256: digest, uid: user.uid, at: now) }
        try await storeCall { try await self.store.recordRefresh(uid: user.uid, at: now) }
        return (idToken, refreshToken)
    }

    private func signIDToken(for user: AuthUserRecord, authTime: Date, now: Date) async throws(AuthServiceError)
        -> String
    {
        let claims = IDTokenClaims.passwordSignIn(
            uid: user.uid, email: user.email, projectId: projectId, authTime: authTime, now: now,
            lifetime: policy.idTokenLifetime)
        do {
            return try await signer.sign(claims)
        } catch {
            throw .internalFailure("token signing failed")
        }
    }

    private func passwordWork<T: Sendable>(
        _ failure: String, _ work: @escaping @Sendable () throws(PasswordHasherError) -> T
    ) async throws(AuthServiceError) -> T {
        let result: Result<T, PasswordHasherError> = await withCheckedContinuation { continuation in
            passwordQueue.async { continuation.resume(returning: Result { () throws(PasswordHasherError) in try work() }) }
        }
        do {
            return try result.get()
        } catch {
            throw .internalFailure(failure)
        }
    }

    private func storeCall<T>(_ body: () async throws -> T) async throws(AuthServiceError) -> T {
        do {
            return try await body()
        } catch {
            // The store's description names the database file; the caller only learns that storage failed.
            throw .internalFailure("account storage failed")
        }
    }

    private static func accountInfo(_ user: AuthUserRecord) -> AuthWire.AccountInfo {
        AuthWire.AccountInfo(
            localId: user.uid, email: user.email, displayName: user.displayName, passwordHash: "UkVEQUNURUQ=",
            emailVerified: user.emailVerified,
            passwordUpdatedAt: Int64((user.passwordUpdatedAt.timeIntervalSince1970 * 1000).rounded(.down)),
            providerUserInfo: [
                AuthWire.ProviderUserInfo(
                    providerId: "password", federatedId: user.email, email: user.email, rawId: user.email,
                    displayName: user.displayName)
            ],
            validSince: String(Int64(user.validSince.timeIntervalSince1970.rounded(.down))),
            lastLoginAt: String(Int64((user.lastLoginAt.timeIntervalSince1970 * 1000).rounded(.down))),
            createdAt: String(Int64((user.createdAt.timeIntervalSince1970 * 1000).rounded(.down))),
            lastRefreshAt: user.lastRefreshAt.map(rfc3339))
    }

    private static func decode<T: Decodable>(_ type: T.Type, from body: [UInt8]) throws(AuthServiceError) -> T {
        do {
            return try AuthWire.decodeRequest(T.self, from: body)
        } catch {
            throw .invalidJSON(describeDecodingError(error))
        }
    }

    /// The token endpoint takes `application/x-www-form-urlencoded` (what Firebase's SDKs send) or JSON.
    private static func decodeTokenRequest(_ request: AuthHTTPRequest) throws(AuthServiceError) -> AuthWire.TokenRequest {
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

    private static func ok(_ value: some Encodable) throws(AuthServiceError) -> AuthHTTPResponse {
        do {
            return AuthHTTPResponse(status: 200, body: try AuthWire.encode(value))
        } catch {
            throw .internalFailure("response encoding failed")
        }
    }

    private static func failure(_ error: AuthServiceError) -> AuthHTTPResponse {
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

private func rfc3339(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    formatter.timeZone = TimeZone(identifier: "UTC")
    return formatter.string(from: date)
}
