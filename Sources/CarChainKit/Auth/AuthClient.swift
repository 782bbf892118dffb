import AsyncHTTPClient
import AuthEmulator
import Foundation

/// A Firebase Auth REST client: sign-up, sign-in, lookup and token refresh, over any `AuthTransport`: the
/// embedded service in this process, a served emulator (`--auth-url http://127.0.0.1:8545`), or real Firebase
/// (`--auth-url https://identitytoolkit.googleapis.com --api-key KEY`). The same requests, the same JSON, the same
/// error codes in all three.
public struct AuthClient: Sendable {
    /// The API key sent as `?key=` when talking to the embedded or a served emulator (which accept any key).
    public static let localAPIKey = "carchain-local"

    /// How requests reach the service.
    public let transport: any AuthTransport
    /// The Firebase web API key.
    public let apiKey: String
    /// The clock that turns `expiresIn` into `AuthSession.expiresAt` and decides when to refresh.
    public let clock: any AuthClock

    /// Creates a client; throws when `apiKey` is empty.
    public init(transport: any AuthTransport, apiKey: String, clock: any AuthClock = SystemAuthClock())
        throws(AuthClientError)
    {
        guard !apiKey.isEmpty else { throw .invalidConfiguration("an API key is required (--api-key)") }
        self.transport = transport
        self.apiKey = apiKey
        self.clock = clock
    }

    /// A client for a service in this process; uses the service's clock.
    public static func inProcess(_ emulator: AuthEmulator, apiKey: String = localAPIKey) -> AuthClient {
        AuthClient(unchecked: InProcessAuthTransport(emulator: emulator), apiKey: apiKey, clock: emulator.clock)
    }

    /// A client for the service at `baseURL` over HTTP (a served emulator, or Firebase's
    /// `https://identitytoolkit.googleapis.com`); each request must complete within `timeout` seconds.
    public static func http(
        baseURL: String, apiKey: String = localAPIKey, httpClient: HTTPClient = .shared, timeout: Int64 = 30,
        clock: any AuthClock = SystemAuthClock()
    ) throws(AuthClientError) -> AuthClient {
        let transport = try HTTPAuthTransport(baseURL: baseURL, httpClient: httpClient, timeout: timeout)
        if transport.isProduction && apiKey == localAPIKey {
            throw .invalidConfiguration("real Firebase needs the project's web API key (--api-key KEY)")
        }
        return try AuthClient(transport: transport, apiKey: apiKey, clock: clock)
    }

    /// The client the CLI's options describe: the embedded service when `authURL` is nil (opened lazily by
    /// `embedded`), otherwise HTTP to `authURL` (a served emulator, or real Firebase with `apiKey`).
    public static func resolve(
        authURL: String?, apiKey: String?, embedded: () async throws -> AuthEmulator
    ) async throws -> AuthClient {
        guard let authURL else { return inProcess(try await embedded(), apiKey: apiKey ?? localAPIKey) }
        return try http(baseURL: authURL, apiKey: apiKey ?? localAPIKey)
    }

    private init(unchecked transport: any AuthTransport, apiKey: String, clock: any AuthClock) {
        self.transport = transport
        self.apiKey = apiKey
        self.clock = clock
    }

    /// Where the client's requests go (`in-process` or the auth URL).
    public var backend: String { transport.backend }

    // MARK: Operations

    /// Creates an account and returns its first session. Errors: `EMAIL_EXISTS`, `INVALID_EMAIL`,
    /// `WEAK_PASSWORD`, `MISSING_EMAIL`, `MISSING_PASSWORD`.
    public func signUp(email: String, password: String, displayName: String? = nil) async throws(AuthClientError)
        -> AuthSession
    {
        let issuedAt = clock.now()
        let response = try await call(
            .signUp, AuthWire.SignUpRequest(email: email, password: password, displayName: displayName),
            as: AuthWire.SignUpResponse.self)
        return try session(
            uid: response.localId, email: response.email, idToken: response.idToken,
            refreshToken: response.refreshToken, expiresIn: response.expiresIn, issuedAt: issuedAt, endpoint: .signUp)
    }

    /// Signs in with email and password. Errors: `INVALID_LOGIN_CREDENTIALS` (unknown email or wrong password
    /// alike), `TOO_MANY_ATTEMPTS_TRY_LATER`, `INVALID_EMAIL`, `MISSING_PASSWORD`, `USER_DISABLED`.
    public func signIn(email: String, password: String) async throws(AuthClientError) -> AuthSession {
        let issuedAt = clock.now()
        let response = try await call(
            .signInWithPassword, AuthWire.SignInWithPasswordRequest(email: email, password: password),
            as: AuthWire.SignInWithPasswordResponse.self)
        return try session(
            uid: response.localId, email: response.email, idToken: response.idToken,
            refreshToken: response.refreshToken, expiresIn: response.expiresIn, issuedAt: issuedAt,
            endpoint: .signInWithPassword)
    }

    /// The account an ID token belongs to. Errors: `INVALID_ID_TOKEN`, `TOKEN_EXPIRED`, `USER_NOT_FOUND`.
    public func lookup(idToken: String) async throws(AuthClientError) -> AuthAccount {
        let response = try await call(.lookup, AuthWire.LookupRequest(idToken: idToken), as: AuthWire.LookupResponse.self)
        guard let user = response.users?.first, let email = user.email else {
            throw .malformedResponse(endpoint: FirebaseAuthEndpoint.lookup.path, reason: "no account with an email")
        }
        return AuthAccount(
            uid: user.localId, email: email, displayName: user.displayName, emailVerified: user.emailVerified,
            createdAt: Int64(user.createdAt).map { Date(timeIntervalSince1970: TimeInterval($0) / 1000) },
            lastLoginAt: user.lastLoginAt.flatMap(Int64.init).map { Date(timeIntervalSince1970: TimeInterval($0) / 1000) })
    }

    /// Exchanges the session's refresh token for a new ID token and the next refresh token (refresh tokens rotate:
    /// persist the returned session, the old one's refresh token is used up). Errors: `INVALID_REFRESH_TOKEN`,
    /// `TOKEN_EXPIRED`, `USER_NOT_FOUND`, `USER_DISABLED`.
    public func refresh(_ session: AuthSession) async throws(AuthClientError) -> AuthSession {
        let issuedAt = clock.now()
        let response = try await callForm(
            .token, [("grant_type", "refresh_token"), ("refresh_token", session.refreshToken)],
            as: AuthWire.TokenResponse.self)
        guard response.userId == session.uid else {
            throw .malformedResponse(
                endpoint: FirebaseAuthEndpoint.token.path, reason: "user_id does not match the session's uid")
        }
        return try self.session(
            uid: response.userId, email: session.email, idToken: response.idToken,
            refreshToken: response.refreshToken, expiresIn: response.expiresIn, issuedAt: issuedAt, endpoint: .token)
    }

    /// The session itself while its ID token is valid for at least `margin` more seconds, otherwise a refreshed
    /// one.
    public func validSession(_ session: AuthSession, margin: TimeInterval = 300) async throws(AuthClientError)
        -> AuthSession
    {
        session.isExpired(at: clock.now(), margin: margin) ? try await refresh(session) : session
    }

    /// Refreshes the session when needed and looks its account up: what `carchain whoami` shows. Returns the
    /// (possibly refreshed) session to persist.
    public func currentAccount(_ session: AuthSession) async throws(AuthClientError)
        -> (session: AuthSession, account: AuthAccount)
    {
        let valid = try await validSession(session)
        return (valid, try await lookup(idToken: valid.idToken))
    }

    // MARK: Wire

    func call<Request: Encodable, Response: Decodable>(
        _ endpoint: FirebaseAuthEndpoint, _ body: Request, as: Response.Type
    ) async throws(AuthClientError) -> Response {
        let bytes: [UInt8]
        do {
            bytes = try AuthWire.encode(body)
        } catch {
            throw .invalidConfiguration("could not encode the \(endpoint.path) request")
        }
        return try await exchange(endpoint, body: bytes, contentType: "application/json", as: Response.self)
    }

    private func callForm<Response: Decodable>(
        _ endpoint: FirebaseAuthEndpoint, _ fields: [(String, String)], as: Response.Type
    ) async throws(AuthClientError) -> Response {
        try await exchange(
            endpoint, body: Array(FormEncoding.encode(fields).utf8), contentType: "application/x-www-form-urlencoded",
            as: Response.self)
    }

    private func exchange<Response: Decodable>(
        _ endpoint: FirebaseAuthEndpoint, body: [UInt8], contentType: String, as: Response.Type
    ) async throws(AuthClientError) -> Response {
        try await exchange(
            method: "POST", path: endpoint.path, headers: ["content-type": contentType], body: body, as: Response.self)
    }

    /// Sends one request to `path` (with the API key) and decodes a 2xx answer; any other status is the service's
    /// error.
    func exchange<Response: Decodable>(
        method: String, path: String, headers: [String: String] = [:], body: [UInt8] = [], as: Response.Type
    ) async throws(AuthClientError) -> Response {
        let request = AuthHTTPRequest(method: method, path: path, query: ["key": apiKey], headers: headers, body: body)
        let response = try await transport.send(request)
        guard (200..<300).contains(response.status) else { throw Self.serviceError(response, path: path) }
        do {
            return try AuthWire.decodeResponse(Response.self, from: response.body)
        } catch {
            throw .malformedResponse(endpoint: path, reason: String(describing: error))
        }
    }

    func session(
        uid: String, email: String, idToken: String, refreshToken: String, expiresIn: String, issuedAt: Date,
        endpoint: FirebaseAuthEndpoint
    ) throws(AuthClientError) -> AuthSession {
        guard let seconds = Int64(expiresIn), seconds > 0 else {
            throw .malformedResponse(endpoint: endpoint.path, reason: "expiresIn \(expiresIn) is not a positive integer")
        }
        return AuthSession(
            uid: uid, email: email, idToken: idToken, refreshToken: refreshToken,
            expiresAt: issuedAt.addingTimeInterval(TimeInterval(seconds)), backend: backend)
    }

    /// Reads Google's error envelope. The code is the message's first word (`WEAK_PASSWORD : …` → `WEAK_PASSWORD`)
    /// when that is an upper-case code, else the envelope's `status` (`PERMISSION_DENIED`).
    static func serviceError(_ response: AuthHTTPResponse, path: String) -> AuthClientError {
        guard let envelope = try? AuthWire.decodeResponse(AuthWire.ErrorResponse.self, from: response.body) else {
            return .malformedResponse(endpoint: path, reason: "HTTP \(response.status) without a Firebase error body")
        }
        let message = envelope.error.message
        let firstWord = message.split(separator: " : ", maxSplits: 1).first.map(String.init) ?? message
        let isCode = !firstWord.isEmpty && firstWord.allSatisfy { $0.isUppercase || $0.isNumber || $0 == "_" }
        let code = isCode ? firstWord : (envelope.error.status ?? "HTTP_\(response.status)")
        return .service(code: AuthErrorCode(rawValue: code), message: message, httpStatus: response.status)
    }
}
