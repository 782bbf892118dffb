/// The Firebase Auth REST v1 endpoints the service answers, at the paths the Firebase Auth emulator serves them:
/// the production host name becomes the first path component (`https://identitytoolkit.googleapis.com/v1/…` is
/// served at `/identitytoolkit.googleapis.com/v1/…`).
public enum FirebaseAuthEndpoint: String, CaseIterable, Sendable {
    /// Create an email/password account.
    case signUp = "/identitytoolkit.googleapis.com/v1/accounts:signUp"
    /// Sign in with email and password.
    case signInWithPassword = "/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword"
    /// Read the account an ID token belongs to.
    case lookup = "/identitytoolkit.googleapis.com/v1/accounts:lookup"
    /// Exchange a refresh token for a new ID token (Secure Token API).
    case token = "/securetoken.googleapis.com/v1/token"

    /// The emulator-style path, e.g. `/identitytoolkit.googleapis.com/v1/accounts:signUp`.
    public var path: String { rawValue }

    /// The production host, e.g. `identitytoolkit.googleapis.com`.
    public var productionHost: String {
        String(rawValue.dropFirst().prefix { $0 != "/" })
    }

    /// The path on the production host, e.g. `/v1/accounts:signUp`.
    public var productionPath: String {
        String(rawValue.dropFirst(productionHost.count + 1))
    }

    /// The endpoint served at `path`, if any.
    public init?(path: String) {
        self.init(rawValue: path)
    }
}
