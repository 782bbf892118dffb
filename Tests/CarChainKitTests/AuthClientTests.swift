import AuthEmulator
import CarChain
import CarChainKit
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// One RSA key for the suite (generation is slow).
private enum ClientTestKeys {
    static let shared = Task { try await TokenSigner.generate().signer }
}

private let fastPolicy = AuthPolicy(scrypt: ScryptParameters(logN: 10, r: 8, p: 1))

/// The same assertions against the embedded service (in-process transport) and the HTTP-served emulator
/// (async-http-client to a live Hummingbird server on loopback): one client, one code path.
@Suite("AuthClient against the in-process and the HTTP-served emulator")
struct AuthClientTests {
    enum Transport: String, CaseIterable, Sendable {
        case inProcess, http
    }

    /// Runs `body` with a client for a fresh emulator whose clock the test controls.
    private func withClient(
        _ transport: Transport, _ body: @Sendable @escaping (AuthClient, AuthEmulator, ManualAuthClock) async throws -> Void
    ) async throws {
        let clock = ManualAuthClock()
        let emulator = try AuthEmulator(
            store: try AuthStore.inMemory(), signer: try await ClientTestKeys.shared.value, clock: clock,
            projectId: "demo-carchain", policy: fastPolicy)
        switch transport {
        case .inProcess:
            try await body(AuthClient.inProcess(emulator), emulator, clock)
        case .http:
            let router = Router()
            addAuthEmulatorRoutes(to: router, emulator: emulator)
            let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
            try await app.test(.live) { testClient in
                let port = try #require(testClient.port)
                let client = try AuthClient.http(baseURL: "http://127.0.0.1:\(port)", apiKey: "fake-api-key", clock: clock)
                #expect(client.backend == "http://127.0.0.1:\(port)")
                try await body(client, emulator, clock)
            }
        }
    }

    private func clientError<T>(
        _ body: () async throws -> T, sourceLocation: SourceLocation = #_sourceLocation
    ) async -> AuthClientError? {
        do {
            let value = try await body()
            Issue.record("expected an AuthClientError, got \(value)", sourceLocation: sourceLocation)
            return nil
        } catch let error as AuthClientError {
            return error
        } catch {
            Issue.record("expected an AuthClientError, got \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }

    @Test("sign up, sign in, look up", arguments: Transport.allCases)
    func signUpSignInLookup(_ transport: Transport) async throws {
        try await withClient(transport) { client, _, clock in
            let session = try await client.signUp(email: "Zoe@Example.com", password: "secret-pw", displayName: "Zoe")
            #expect(session.email == "zoe@example.com")
            #expect(session.uid.count == 28)
            #expect(session.expiresAt == clock.now().addingTimeInterval(3600))
            #expect(session.backend == client.backend)

            let again = try await client.signIn(email: "zoe@example.com", password: "secret-pw")
            #expect(again.uid == session.uid)
            #expect(again.idToken != session.idToken || again.refreshToken != session.refreshToken)

            let account = try await client.lookup(idToken: again.idToken)
            #expect(account.uid == session.uid)
            #expect(account.email == "zoe@example.com")
            #expect(account.displayName == "Zoe")
            #expect(account.emailVerified == false)
            #expect(account.createdAt == clock.now())
        }
    }

    @Test("every sign-up and sign-in error code arrives typed and readable", arguments: Transport.allCases)
    func errorCodes(_ transport: Transport) async throws {
        try await withClient(transport) { client, _, _ in
            _ = try await client.signUp(email: "amy@example.com", password: "secret-pw")
            let exists = await clientError { try await client.signUp(email: "amy@example.com", password: "secret-pw") }
            #expect(exists?.code == .emailExists)
            #expect(exists?.description == "an account with this email already exists (EMAIL_EXISTS)")
            let weak = await clientError { try await client.signUp(email: "ben@example.com", password: "12345") }
            #expect(weak?.code == .weakPassword)
            #expect(weak?.description == "the password is too weak: use at least 6 characters (WEAK_PASSWORD: Password should be at least 6 characters)")
            #expect(await clientError { try await client.signUp(email: "ben@", password: "secret-pw") }?.code == .invalidEmail)
            #expect(await clientError { try await client.signUp(email: "", password: "secret-pw") }?.code == .missingEmail)
            #expect(await clientError { try await client.signUp(email: "ben@example.com", password: "") }?.code == .missingPassword)

            let wrong = await clientError { try await client.signIn(email: "amy@example.com", password: "wrong-pw") }
            let unknown = await clientError { try await client.signIn(email: "nobody@example.com", password: "wrong-pw") }
            #expect(wrong?.code == .invalidLoginCredentials)
            #expect(wrong == unknown)
            #expect(wrong?.description == "the email or password is incorrect (INVALID_LOGIN_CREDENTIALS)")
            if case .service(_, _, let status) = wrong { #expect(status == 400) } else { Issue.record("not a service error") }
        }
    }

    @Test("rate limiting reaches the client as TOO_MANY_ATTEMPTS_TRY_LATER", arguments: Transport.allCases)
    func rateLimit(_ transport: Transport) async throws {
        try await withClient(transport) { client, _, clock in
            _ = try await client.signUp(email: "cal@example.com", password: "secret-pw")
            for _ in 0..<5 {
                #expect(await clientError { try await client.signIn(email: "cal@example.com", password: "guess-pw") }?.code == .invalidLoginCredentials)
            }
            let locked = await clientError { try await client.signIn(email: "cal@example.com", password: "secret-pw") }
            #expect(locked?.code == .tooManyAttempts)
            #expect(locked?.description.hasPrefix("too many unsuccessful sign-in attempts for this email; try again later") == true)
            clock.advance(by: 15 * 60)
            _ = try await client.signIn(email: "cal@example.com", password: "secret-pw")
        }
    }

    @Test("expiry and refresh: validSession refreshes an expired token, lookup reports TOKEN_EXPIRED", arguments: Transport.allCases)
    func expiryAndRefresh(_ transport: Transport) async throws {
        try await withClient(transport) { client, _, clock in
            let session = try await client.signUp(email: "dan@example.com", password: "secret-pw")
            #expect(try await client.validSession(session) == session)
            // validSession refreshes once less than 300 s (its default margin) remain.
            clock.advance(by: 3600 - 301)
            #expect(try await client.validSession(session) == session)
            clock.advance(by: 301)
            #expect(session.isExpired(at: clock.now()))
            #expect(await clientError { try await client.lookup(idToken: session.idToken) }?.code == .tokenExpired)

            let refreshed = try await client.validSession(session)
            #expect(refreshed.idToken != session.idToken)
            #expect(refreshed.refreshToken != session.refreshToken)  // refresh tokens rotate
            #expect(refreshed.uid == session.uid)
            #expect(refreshed.email == session.email)
            #expect(refreshed.expiresAt == clock.now().addingTimeInterval(3600))

            let (current, account) = try await client.currentAccount(refreshed)
            #expect(current == refreshed)
            #expect(account.uid == session.uid)

            var forged = session
            forged.refreshToken = "not-a-refresh-token"
            #expect(await clientError { try await client.refresh(forged) }?.code == .invalidRefreshToken)
            #expect(await clientError { try await client.lookup(idToken: "garbage") }?.code == .invalidIDToken)
        }
    }

    @Test("a missing API key comes back as PERMISSION_DENIED", arguments: Transport.allCases)
    func missingKey(_ transport: Transport) async throws {
        try await withClient(transport) { client, emulator, _ in
            let response = try await client.transport.send(
                AuthHTTPRequest(path: FirebaseAuthEndpoint.signUp.path, body: Array(#"{"email":"eve@example.com","password":"secret-pw"}"#.utf8)))
            #expect(response.status == 403)
            _ = emulator
        }
    }

    @Test("HTTP transport URLs: emulator layout, and Google's hosts for real Firebase")
    func urlMapping() throws {
        let emulator = try HTTPAuthTransport(baseURL: "http://127.0.0.1:8545/")
        #expect(!emulator.isProduction)
        #expect(emulator.url(for: AuthHTTPRequest(path: FirebaseAuthEndpoint.signUp.path, query: ["key": "k"]))
            == "http://127.0.0.1:8545/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k")
        #expect(emulator.url(for: AuthHTTPRequest(path: FirebaseAuthEndpoint.token.path, query: ["key": "k"]))
            == "http://127.0.0.1:8545/securetoken.googleapis.com/v1/token?key=k")

        let google = try HTTPAuthTransport(baseURL: "https://identitytoolkit.googleapis.com")
        #expect(google.isProduction)
        #expect(google.url(for: AuthHTTPRequest(path: FirebaseAuthEndpoint.signInWithPassword.path, query: ["key": "AIza x"]))
            == "https://identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=AIza%20x")
        #expect(google.url(for: AuthHTTPRequest(path: FirebaseAuthEndpoint.token.path, query: ["key": "k"]))
            == "https://securetoken.googleapis.com/v1/token?key=k")
        #expect(google.url(for: AuthHTTPRequest(path: FirebaseAuthEndpoint.lookup.path))
            == "https://identitytoolkit.googleapis.com/v1/accounts:lookup")

        for bad in ["127.0.0.1:8545", "ftp://example.com", "http://", "http://host/?q=1"] {
            #expect(throws: AuthClientError.self) { try HTTPAuthTransport(baseURL: bad) }
        }
        #expect(throws: AuthClientError.self) { try AuthClient.http(baseURL: "https://identitytoolkit.googleapis.com") }
        #expect(throws: AuthClientError.self) { try AuthClient(transport: emulator, apiKey: "") }
    }

    @Test("resolve: embedded service by default, --auth-url for HTTP, --api-key required for real Firebase")
    func resolve() async throws {
        let embedded = try await AuthClient.resolve(authURL: nil, apiKey: nil) {
            try AuthEmulator(
                store: try AuthStore.inMemory(), signer: try await ClientTestKeys.shared.value, projectId: "demo-carchain",
                policy: fastPolicy)
        }
        #expect(embedded.backend == "in-process")
        _ = try await embedded.signUp(email: "hal@example.com", password: "secret-pw")

        let served = try await AuthClient.resolve(authURL: "http://127.0.0.1:8545", apiKey: nil) {
            Issue.record("the embedded service was opened although --auth-url was given")
            throw AuthClientError.invalidConfiguration("unused")
        }
        #expect(served.backend == "http://127.0.0.1:8545")
        #expect(served.apiKey == AuthClient.localAPIKey)

        await #expect(throws: AuthClientError.self) {
            _ = try await AuthClient.resolve(authURL: "https://identitytoolkit.googleapis.com", apiKey: nil) {
                throw AuthClientError.invalidConfiguration("unused")
            }
        }
        let firebase = try await AuthClient.resolve(authURL: "https://identitytoolkit.googleapis.com", apiKey: "AIzaKEY") {
            throw AuthClientError.invalidConfiguration("unused")
        }
        #expect((firebase.transport as? HTTPAuthTransport)?.isProduction == true)
    }

    @Test("an unreachable service is a transport error that does not show the API key")
    func unreachable() async throws {
        // Port 1 on loopback: nothing listens there, so the connection is refused at once.
        let client = try AuthClient.http(baseURL: "http://127.0.0.1:1", apiKey: "secret-api-key", timeout: 2)
        let error = await clientError { try await client.signIn(email: "fay@example.com", password: "secret-pw") }
        guard case .transport(let endpoint, _) = error else {
            Issue.record("expected a transport error, got \(String(describing: error))")
            return
        }
        #expect(endpoint == "http://127.0.0.1:1/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword")
        #expect(error?.description.contains("secret-api-key") == false)
    }

    @Test("service error parsing: Firebase codes, Google statuses, non-Firebase bodies")
    func errorParsing() async throws {
        struct Canned: AuthTransport {
            let response: AuthHTTPResponse
            var backend: String { "canned" }
            func send(_ request: AuthHTTPRequest) async throws(AuthClientError) -> AuthHTTPResponse { response }
        }
        func error(status: Int, body: String) async throws -> AuthClientError? {
            let client = try AuthClient(
                transport: Canned(response: AuthHTTPResponse(status: status, body: Array(body.utf8))), apiKey: "k")
            return await clientError { try await client.signIn(email: "a@example.com", password: "secret-pw") }
        }
        #expect(try await error(status: 400, body: #"{"error":{"code":400,"message":"USER_DISABLED"}}"#)?.code == .userDisabled)
        #expect(try await error(status: 400, body: #"{"error":{"code":400,"message":"OPERATION_NOT_ALLOWED : Password sign-in is disabled for this project."}}"#)?.code
            == AuthErrorCode(rawValue: "OPERATION_NOT_ALLOWED"))
        #expect(try await error(status: 403, body: #"{"error":{"code":403,"message":"The request is missing a valid API key.","status":"PERMISSION_DENIED"}}"#)?.code == .permissionDenied)
        let html = try await error(status: 502, body: "<html>Bad Gateway</html>")
        guard case .malformedResponse = html else { Issue.record("expected malformedResponse, got \(String(describing: html))"); return }
        let truncated = try await error(status: 200, body: #"{"kind":"identitytoolkit#VerifyPasswordResponse"}"#)
        guard case .malformedResponse = truncated else { Issue.record("expected malformedResponse, got \(String(describing: truncated))"); return }
    }
}
