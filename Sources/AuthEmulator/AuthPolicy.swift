/// The service's tunable rules. The Firebase rules themselves (6-character minimum password, error codes) are
/// fixed; these are the costs and lifetimes around them.
public struct AuthPolicy: Sendable, Equatable {
    /// scrypt parameters for new password hashes (existing hashes keep theirs).
    public var scrypt: ScryptParameters
    /// ID token lifetime in seconds (Firebase: 3600).
    public var idTokenLifetime: Int64
    /// Failed sign-in limit per email.
    public var rateLimit: RateLimitPolicy
    /// The `project_id` the token endpoint reports (Google reports the project number there, not the id).
    public var projectNumber: String

    /// The minimum password length Firebase enforces (`WEAK_PASSWORD`).
    public static let minimumPasswordLength = 6

    /// Creates a policy; the defaults are the production ones.
    public init(
        scrypt: ScryptParameters = .default, idTokenLifetime: Int64 = 3600, rateLimit: RateLimitPolicy = .default,
        projectNumber: String = "12345"
    ) {
        self.scrypt = scrypt
        self.idTokenLifetime = idTokenLifetime
        self.rateLimit = rateLimit
        self.projectNumber = projectNumber
    }
}
