/// A Firebase Auth error code, the first word of the wire error's `message` (`"WEAK_PASSWORD : Password should
/// be at least 6 characters"` has code `WEAK_PASSWORD`). Shared by the service, which sends them, and the client,
/// which reads them; codes this type does not name still round-trip through `rawValue`.
public struct AuthErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The code as it appears on the wire.
    public let rawValue: String

    /// Creates a code from its wire spelling.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// signUp: an account with this email already exists.
    public static let emailExists = AuthErrorCode(rawValue: "EMAIL_EXISTS")
    /// signUp / signInWithPassword: the email is not a valid address.
    public static let invalidEmail = AuthErrorCode(rawValue: "INVALID_EMAIL")
    /// signUp: the password has fewer than 6 characters.
    public static let weakPassword = AuthErrorCode(rawValue: "WEAK_PASSWORD")
    /// signInWithPassword: unknown email or wrong password (deliberately indistinguishable).
    public static let invalidLoginCredentials = AuthErrorCode(rawValue: "INVALID_LOGIN_CREDENTIALS")
    /// signInWithPassword: too many failed attempts for this email; try again later.
    public static let tooManyAttempts = AuthErrorCode(rawValue: "TOO_MANY_ATTEMPTS_TRY_LATER")
    /// The request has no `email`.
    public static let missingEmail = AuthErrorCode(rawValue: "MISSING_EMAIL")
    /// The request has no `password`.
    public static let missingPassword = AuthErrorCode(rawValue: "MISSING_PASSWORD")
    /// lookup: the request has no `idToken`.
    public static let missingIDToken = AuthErrorCode(rawValue: "MISSING_ID_TOKEN")
    /// lookup: the ID token is malformed, badly signed, or issued for another project.
    public static let invalidIDToken = AuthErrorCode(rawValue: "INVALID_ID_TOKEN")
    /// lookup / token: the ID token has expired, or the credential was revoked.
    public static let tokenExpired = AuthErrorCode(rawValue: "TOKEN_EXPIRED")
    /// The account the token names no longer exists.
    public static let userNotFound = AuthErrorCode(rawValue: "USER_NOT_FOUND")
    /// The account has been disabled by an administrator.
    public static let userDisabled = AuthErrorCode(rawValue: "USER_DISABLED")
    /// token: the refresh token is unknown or revoked.
    public static let invalidRefreshToken = AuthErrorCode(rawValue: "INVALID_REFRESH_TOKEN")
    /// token: the request has no `refresh_token`.
    public static let missingRefreshToken = AuthErrorCode(rawValue: "MISSING_REFRESH_TOKEN")
    /// token: the request has no `grant_type`.
    public static let missingGrantType = AuthErrorCode(rawValue: "MISSING_GRANT_TYPE")
    /// token: `grant_type` is not `refresh_token`.
    public static let invalidGrantType = AuthErrorCode(rawValue: "INVALID_GRANT_TYPE")
    /// 403: the request carries no API key (Google's `PERMISSION_DENIED` status).
    public static let permissionDenied = AuthErrorCode(rawValue: "PERMISSION_DENIED")
    /// 400: the body is not the JSON (or form) the endpoint expects (Google's `INVALID_ARGUMENT` status).
    public static let invalidArgument = AuthErrorCode(rawValue: "INVALID_ARGUMENT")
    /// 404: no such endpoint (Google's `NOT_FOUND` status).
    public static let notFound = AuthErrorCode(rawValue: "NOT_FOUND")
    /// 500: the service failed (storage, signing).
    public static let internalError = AuthErrorCode(rawValue: "INTERNAL")

    /// The wire spelling.
    public var description: String { rawValue }

    /// A sentence a person can act on, e.g. "the email or password is incorrect".
    public var readableDescription: String {
        switch self {
        case .emailExists: return "an account with this email already exists"
        case .invalidEmail: return "the email address is not valid"
        case .weakPassword: return "the password is too weak: use at least 6 characters"
        case .invalidLoginCredentials: return "the email or password is incorrect"
        case .tooManyAttempts: return "too many unsuccessful sign-in attempts for this email; try again later"
        case .missingEmail: return "an email address is required"
        case .missingPassword: return "a password is required"
        case .missingIDToken: return "an ID token is required"
        case .invalidIDToken: return "the ID token is not valid; sign in again"
        case .tokenExpired: return "the session has expired; sign in again"
        case .userNotFound: return "the account no longer exists"
        case .userDisabled: return "the account has been disabled"
        case .invalidRefreshToken: return "the refresh token is not valid; sign in again"
        case .missingRefreshToken: return "a refresh token is required"
        case .missingGrantType: return "the token request has no grant_type"
        case .invalidGrantType: return "the token request's grant_type must be refresh_token"
        case .permissionDenied: return "the request is missing a valid API key"
        case .invalidArgument: return "the request body is malformed"
        case .notFound: return "no such auth endpoint"
        case .internalError: return "the auth service failed"
        default: return "the auth service answered \(rawValue)"
        }
    }
}
