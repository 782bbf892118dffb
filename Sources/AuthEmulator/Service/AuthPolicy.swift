/// The service's tunable rules. The Firebase rules themselves (6-character minimum password, error codes) are
/// fixed; these are the costs, lifetimes and limits around them (all documented in docs/APP.md).
public struct AuthPolicy: Sendable, Equatable {
    /// scrypt parameters for new password hashes (existing hashes keep theirs).
    public var scrypt: ScryptParameters
    /// ID token lifetime in seconds (Firebase: 3600).
    public var idTokenLifetime: Int64
    /// How long a refresh token stays usable, in seconds; each exchange issues the next one with a fresh lifetime,
    /// so a session ends after this long without use.
    public var refreshTokenLifetime: Int64
    /// How long an email action code (reset, verification, sign-in link) works, in seconds.
    public var oobCodeLifetime: Int64
    /// Failed sign-in limit per email.
    public var rateLimit: RateLimitPolicy
    /// Failed sign-in limit per client address.
    public var addressFailureLimit: RateLimitPolicy
    /// Failed sign-in limit per password, across emails (spraying).
    public var passwordSprayLimit: RateLimitPolicy
    /// Sign-up limit per client address.
    public var addressSignUpLimit: RateLimitPolicy
    /// The `project_id` the token endpoint reports (Google reports the project number there, not the id).
    public var projectNumber: String

    /// The minimum password length Firebase enforces (`WEAK_PASSWORD`).
    public static let minimumPasswordLength = 6
    /// The longest password accepted (scrypt hashes any length, but a megabyte password is only a cost).
    public static let maximumPasswordLength = 4096

    /// Creates a policy; the defaults are the production ones.
    public init(
        scrypt: ScryptParameters = .default, idTokenLifetime: Int64 = 3600, refreshTokenLifetime: Int64 = 30 * 86_400,
        oobCodeLifetime: Int64 = 3600, rateLimit: RateLimitPolicy = .default,
        addressFailureLimit: RateLimitPolicy = .addressFailures, passwordSprayLimit: RateLimitPolicy = .passwordSpraying,
        addressSignUpLimit: RateLimitPolicy = .addressSignUps, projectNumber: String = "12345"
    ) {
        self.scrypt = scrypt
        self.idTokenLifetime = idTokenLifetime
        self.refreshTokenLifetime = refreshTokenLifetime
        self.oobCodeLifetime = oobCodeLifetime
        self.rateLimit = rateLimit
        self.addressFailureLimit = addressFailureLimit
        self.passwordSprayLimit = passwordSprayLimit
        self.addressSignUpLimit = addressSignUpLimit
        self.projectNumber = projectNumber
    }
}
