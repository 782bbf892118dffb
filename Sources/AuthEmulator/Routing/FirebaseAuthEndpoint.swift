/// The Firebase Auth REST v1 endpoints a client (an app, the `carchain` CLI) calls, at the paths the Firebase Auth
/// emulator serves them: the production host name becomes the first path component
/// (`https://identitytoolkit.googleapis.com/v1/…` is served at `/identitytoolkit.googleapis.com/v1/…`). The
/// service's full route table, administrator and emulator endpoints included, is `AuthRoute`.
public enum FirebaseAuthEndpoint: String, CaseIterable, Sendable {
    /// Create an email/password account.
    case signUp = "/identitytoolkit.googleapis.com/v1/accounts:signUp"
    /// Sign in with email and password.
    case signInWithPassword = "/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword"
    /// Read the account an ID token belongs to.
    case lookup = "/identitytoolkit.googleapis.com/v1/accounts:lookup"
    /// Change email, password or profile; apply an email verification code.
    case update = "/identitytoolkit.googleapis.com/v1/accounts:update"
    /// Delete the signed-in account.
    case delete = "/identitytoolkit.googleapis.com/v1/accounts:delete"
    /// Send a password reset, email verification or sign-in link.
    case sendOobCode = "/identitytoolkit.googleapis.com/v1/accounts:sendOobCode"
    /// Set a new password with a reset code (or check a code).
    case resetPassword = "/identitytoolkit.googleapis.com/v1/accounts:resetPassword"
    /// Sign in with an email link's code.
    case signInWithEmailLink = "/identitytoolkit.googleapis.com/v1/accounts:signInWithEmailLink"
    /// Sign in with a custom token minted by a backend.
    case signInWithCustomToken = "/identitytoolkit.googleapis.com/v1/accounts:signInWithCustomToken"
    /// Sign out: end the session of a refresh token.
    case revokeToken = "/identitytoolkit.googleapis.com/v1/accounts:revokeToken"
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
