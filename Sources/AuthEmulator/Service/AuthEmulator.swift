import Crypto
import Dispatch
import EthereumPrimitives
import Foundation

/// A Firebase-Auth-compatible service answering the Identity Toolkit v1 API, the Secure Token API and the Firebase
/// Auth emulator's own endpoints with Firebase's JSON shapes and error codes, so the Firebase Admin SDKs (with
/// `FIREBASE_AUTH_EMULATOR_HOST`) and the client SDKs' REST calls work against it unchanged.
///
/// `handle(_:)` is the wire entry point shared by the HTTP routes (`addAuthEmulatorRoutes`) and the in-process
/// client transport; the typed operations beneath it (one file each under `Operations/`) can be called directly.
///
/// Security properties: passwords are stored only as scrypt hashes, refresh tokens only as SHA-256 digests; hashes
/// and tokens are compared in constant time; an unknown email and a wrong password produce the same response after
/// the same scrypt work, and so do a new and a taken email at sign-up; failed sign-ins are limited per email (whether
/// or not the account exists), per client address and per password; sign-ups per client address. ID tokens are
/// RS256-signed and checked on every call that presents one. Like the Firebase emulator, the administrator API
/// accepts `Authorization: Bearer owner` and custom tokens are not signature-checked: the service is a development
/// emulator, to be bound to loopback.
public final class AuthEmulator: Sendable {
    /// The project id used when none is configured. Firebase treats `demo-` project ids as emulator-only.
    public static let defaultProjectId = AuthRealm.defaultProject.projectId

    /// The realm this view of the service serves: a project (`aud` of its ID tokens, the `{project}` of
    /// administrator paths) or a tenant of one. The service answers every project and tenant a request names, each
    /// with its own accounts (`realm(_:)`); requests that name none (a client's `accounts:signUp?key=…`) go to the
    /// default realm, the one `open` and `ephemeral` were given.
    public let realm: AuthRealm
    /// The project id of `realm`.
    public var projectId: String { realm.projectId }
    /// The tenant id of `realm`, nil for a project.
    public var tenantId: String? { realm.tenantId }
    /// The account store, seen from `realm`.
    public let store: AuthStore
    /// The ID token signer (one key for every realm).
    public let signer: TokenSigner
    /// The clock for token times and rate-limit windows.
    public let clock: any AuthClock
    /// Costs, lifetimes and limits.
    public let policy: AuthPolicy
    let hasher: PasswordHasher
    let limiter: AttemptLimiter
    /// scrypt runs here, one hash at a time, off Swift's cooperative thread pool: a burst of sign-ins neither
    /// stalls the other tasks of the process (the dev node's JSON-RPC) nor holds more than one scrypt's memory.
    private let passwordQueue: DispatchQueue

    /// Creates the service over a store and a signing key; `projectId` names the default realm.
    public init(
        store: AuthStore, signer: TokenSigner, clock: any AuthClock = SystemAuthClock(), projectId: String,
        policy: AuthPolicy = AuthPolicy()
    ) throws(PasswordHasherError) {
        self.realm = AuthRealm(projectId: projectId)
        self.store = store.scoped(to: realm)
        self.signer = signer
        self.clock = clock
        self.policy = policy
        self.hasher = try PasswordHasher(parameters: policy.scrypt)
        self.limiter = AttemptLimiter()
        self.passwordQueue = DispatchQueue(label: "carchain.auth.scrypt")
    }

    private init(base: AuthEmulator, realm: AuthRealm) {
        self.realm = realm
        self.store = base.store.scoped(to: realm)
        self.signer = base.signer
        self.clock = base.clock
        self.policy = base.policy
        self.hasher = base.hasher
        self.limiter = base.limiter
        self.passwordQueue = base.passwordQueue
    }

    /// The same service seen from another project or tenant: the store, key, clock, limits and scrypt queue are
    /// shared; accounts, sessions, codes and settings are the realm's own.
    public func realm(_ realm: AuthRealm) -> AuthEmulator {
        realm == self.realm ? self : AuthEmulator(base: self, realm: realm)
    }

    /// Opens the service on a data directory: accounts in `<dataDirectory>/auth.sqlite`, the signing key in
    /// `<dataDirectory>/auth-signing-key.pem` (generated on first use, mode 0600).
    public static func open(
        dataDirectory: String, projectId: String = defaultProjectId, clock: any AuthClock = SystemAuthClock(),
        policy: AuthPolicy = AuthPolicy()
    ) async throws -> AuthEmulator {
        try SecureFile.createDirectory(dataDirectory)
        let store = try AuthStore.open(
            path: (dataDirectory as NSString).appendingPathComponent(AuthStore.fileName),
            realm: AuthRealm(projectId: projectId))
        let signer = try await TokenSigner.loadOrCreate(
            keyFile: (dataDirectory as NSString).appendingPathComponent(TokenSigner.keyFileName))
        return try AuthEmulator(store: store, signer: signer, clock: clock, projectId: projectId, policy: policy)
    }

    /// A service that keeps nothing on disk: an in-memory store and a fresh signing key.
    public static func ephemeral(
        projectId: String = defaultProjectId, clock: any AuthClock = SystemAuthClock(), policy: AuthPolicy = AuthPolicy()
    ) async throws -> AuthEmulator {
        let store = try AuthStore.inMemory(realm: AuthRealm(projectId: projectId))
        let signer = try await TokenSigner.generate().signer
        return try AuthEmulator(store: store, signer: signer, clock: clock, projectId: projectId, policy: policy)
    }

    // MARK: Shared by the operations

    /// The tokens a sign-in returns.
    struct IssuedTokens {
        var idToken: String
        var refreshToken: String
        var expiresIn: String
    }

    /// Starts a session for `user` (a new refresh token family) and signs its first ID token.
    func startSession(
        for user: AuthUserRecord, provider: String, extraClaims: String? = nil, authTime: Date? = nil,
        secondFactor: String? = nil
    ) async throws(AuthServiceError) -> IssuedTokens {
        let now = clock.now()
        let session = AuthSessionRecord(
            uid: user.uid, family: SecureRandom.bytes(16), provider: provider, extraClaims: extraClaims,
            authTime: seconds(authTime ?? now), secondFactor: secondFactor)
        return try await issue(session, for: user, now: now)
    }

    /// Stores a new refresh token of `session` and signs an ID token for it.
    func issue(_ session: AuthSessionRecord, for user: AuthUserRecord, now: Date) async throws(AuthServiceError)
        -> IssuedTokens
    {
        let refreshToken = SecureRandom.refreshToken()
        let digest = Array(SHA256.hash(data: Array(refreshToken.utf8)))
        let expiry = now.addingTimeInterval(TimeInterval(policy.refreshTokenLifetime))
        try await storeCall { try await self.store.insertSession(session, tokenSHA256: digest, at: now, expiresAt: expiry) }
        let idToken = try await signIDToken(for: user, session: session, now: now)
        return IssuedTokens(idToken: idToken, refreshToken: refreshToken, expiresIn: String(policy.idTokenLifetime))
    }

    func signIDToken(for user: AuthUserRecord, session: AuthSessionRecord, now: Date) async throws(AuthServiceError)
        -> String
    {
        let claims = IDTokenClaims.idToken(
            for: user, session: session, realm: realm, now: now, lifetime: policy.idTokenLifetime)
        do {
            return try await signer.sign(claims)
        } catch {
            throw .internalFailure("token signing failed")
        }
    }

    /// Verifies an ID token issued by this service (signature, issuer, audience, expiry against `clock`), and that
    /// it is this realm's (`TENANT_ID_MISMATCH` for another tenant's); `INVALID_ID_TOKEN` or `TOKEN_EXPIRED`
    /// otherwise.
    public func verifyIDToken(_ idToken: String) async throws(AuthServiceError) -> IDTokenClaims {
        let claims: IDTokenClaims
        do {
            claims = try await signer.verifyIDToken(idToken, projectId: projectId, now: clock.now())
        } catch {
            throw .badRequest(error.isExpiry ? .tokenExpired : .invalidIDToken)
        }
        if let tenant = claims.firebase.tenant, tenant != tenantId { throw .badRequest(.tenantIDMismatch) }
        return claims
    }

    /// The account an ID token presented by a client belongs to: `MISSING_ID_TOKEN`, `INVALID_ID_TOKEN`,
    /// `TOKEN_EXPIRED` (expired, or issued before the account's `validSince`), `USER_NOT_FOUND`, `USER_DISABLED`.
    func account(presenting idToken: String?) async throws(AuthServiceError) -> (AuthUserRecord, IDTokenClaims) {
        guard let idToken, !idToken.isEmpty else { throw .badRequest(.missingIDToken) }
        let claims = try await verifyIDToken(idToken)
        guard let user = try await storeCall({ try await self.store.user(uid: claims.userId) }) else {
            throw .badRequest(.userNotFound)
        }
        guard claims.issuedAt >= seconds(user.validSince) else { throw .badRequest(.tokenExpired) }
        guard !user.disabled else { throw .badRequest(.userDisabled) }
        return (user, claims)
    }

    /// Revokes all of an account's tokens: ID tokens issued before now fail with `TOKEN_EXPIRED` (and
    /// `verify_id_token(check_revoked=True)`), and its refresh tokens stop working.
    public func revokeTokens(uid: String) async throws(AuthServiceError) {
        guard var user = try await storeCall({ try await self.store.user(uid: uid) }) else {
            throw .badRequest(.userNotFound)
        }
        user.validSince = clock.now()
        let revoked = user
        try await storeCall { try await self.store.saveUser(revoked) }
        try await storeCall { try await self.store.revokeSessions(uid: uid) }
    }

    /// Runs scrypt work on the password queue.
    func passwordWork<T: Sendable>(
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

    /// Hashes a new password (after the length rules: `WEAK_PASSWORD`).
    func hashNewPassword(_ password: String, checkStrength: Bool = true) async throws(AuthServiceError) -> PasswordHash {
        if checkStrength { try Self.checkStrength(password) }
        let hasher = self.hasher
        return try await passwordWork("password hashing failed") { () throws(PasswordHasherError) in
            try hasher.hash(password)
        }
    }

    static func checkStrength(_ password: String) throws(AuthServiceError) {
        guard password.count >= AuthPolicy.minimumPasswordLength else {
            throw .badRequest(
                .weakPassword, "Password should be at least \(AuthPolicy.minimumPasswordLength) characters")
        }
        guard password.utf8.count <= AuthPolicy.maximumPasswordLength else {
            throw .badRequest(
                .weakPassword, "Password should be at most \(AuthPolicy.maximumPasswordLength) bytes")
        }
    }

    /// Calls the store; a failure becomes a 500 that names no file.
    func storeCall<T>(_ body: () async throws -> T) async throws(AuthServiceError) -> T {
        do {
            return try await body()
        } catch {
            // The store's description names the database file; the caller only learns that storage failed.
            throw .internalFailure("account storage failed")
        }
    }

    /// Email enumeration protection (`emailPrivacyConfig.enableImprovedEmailPrivacy`): on unless turned off with
    /// `PATCH /emulator/v1/projects/{p}/config`, as for Firebase projects created since September 2023.
    func improvedEmailPrivacy() async throws(AuthServiceError) -> Bool {
        let project = store.scoped(to: realm.project)
        return try await storeCall { try await project.setting(Self.emailPrivacySetting) } != "false"
    }

    static let emailPrivacySetting = "emailPrivacyConfig.enableImprovedEmailPrivacy"
}
