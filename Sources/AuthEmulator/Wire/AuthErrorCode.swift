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
    /// Admin create / update: another account has this phone number.
    public static let phoneNumberExists = AuthErrorCode(rawValue: "PHONE_NUMBER_EXISTS")
    /// Admin create: another account has this uid.
    public static let duplicateLocalID = AuthErrorCode(rawValue: "DUPLICATE_LOCAL_ID")
    /// A uid that is empty or longer than 128 characters.
    public static let invalidLocalID = AuthErrorCode(rawValue: "INVALID_LOCAL_ID")
    /// A phone number that is not E.164 (`+` and digits).
    public static let invalidPhoneNumber = AuthErrorCode(rawValue: "INVALID_PHONE_NUMBER")
    /// A client request names a field only an administrator may set (`localId` at sign-up).
    public static let unexpectedParameter = AuthErrorCode(rawValue: "UNEXPECTED_PARAMETER")
    /// A client request asks for what only an administrator may do (custom claims, `returnOobLink`).
    public static let insufficientPermission = AuthErrorCode(rawValue: "INSUFFICIENT_PERMISSION")
    /// update: neither an ID token nor a code, from a client.
    public static let invalidRequestType = AuthErrorCode(rawValue: "INVALID_REQ_TYPE")
    /// Admin update / delete: no `localId`.
    public static let missingLocalID = AuthErrorCode(rawValue: "MISSING_LOCAL_ID")
    /// The operation is not allowed for this caller or setting (e.g. disabling oneself).
    public static let operationNotAllowed = AuthErrorCode(rawValue: "OPERATION_NOT_ALLOWED")
    /// Custom claims that are not a JSON object.
    public static let invalidClaims = AuthErrorCode(rawValue: "INVALID_CLAIMS")
    /// Custom claims longer than 1000 characters.
    public static let claimsTooLarge = AuthErrorCode(rawValue: "CLAIMS_TOO_LARGE")
    /// Custom claims using a reserved name (`iss`, `sub`, `firebase`, …).
    public static let forbiddenClaim = AuthErrorCode(rawValue: "FORBIDDEN_CLAIM")
    /// sendOobCode: no `requestType`.
    public static let missingRequestType = AuthErrorCode(rawValue: "MISSING_REQ_TYPE")
    /// sendOobCode: `continueUrl` is not an absolute URL.
    public static let invalidContinueURI = AuthErrorCode(rawValue: "INVALID_CONTINUE_URI")
    /// No account has this email (only when email enumeration protection is off).
    public static let emailNotFound = AuthErrorCode(rawValue: "EMAIL_NOT_FOUND")
    /// Wrong password (only when email enumeration protection is off).
    public static let invalidPassword = AuthErrorCode(rawValue: "INVALID_PASSWORD")
    /// resetPassword / signInWithEmailLink / update: no `oobCode`.
    public static let missingOobCode = AuthErrorCode(rawValue: "MISSING_OOB_CODE")
    /// The email action code is unknown, already used, or of another kind.
    public static let invalidOobCode = AuthErrorCode(rawValue: "INVALID_OOB_CODE")
    /// The email action code has expired.
    public static let expiredOobCode = AuthErrorCode(rawValue: "EXPIRED_OOB_CODE")
    /// signInWithCustomToken: no `token`.
    public static let missingCustomToken = AuthErrorCode(rawValue: "MISSING_CUSTOM_TOKEN")
    /// signInWithCustomToken: not a custom token (format or audience).
    public static let invalidCustomToken = AuthErrorCode(rawValue: "INVALID_CUSTOM_TOKEN")
    /// signInWithCustomToken: the token names no uid.
    public static let missingIdentifier = AuthErrorCode(rawValue: "MISSING_IDENTIFIER")
    /// batchDelete: no uids, or more than 1000.
    public static let localIDListExceedsLimit = AuthErrorCode(rawValue: "LOCAL_ID_LIST_EXCEEDS_LIMIT")
    /// createSessionCookie: duration outside 5 minutes … 2 weeks.
    public static let invalidDuration = AuthErrorCode(rawValue: "INVALID_DURATION")
    /// An admin path names another project than the one this service serves.
    public static let projectNotFound = AuthErrorCode(rawValue: "PROJECT_NOT_FOUND")
    /// 401: an `Authorization` header that is not the emulator's `Bearer owner`, or none where one is required.
    public static let unauthenticated = AuthErrorCode(rawValue: "UNAUTHENTICATED")
    /// 501: a field or mode the service does not implement.
    public static let notImplemented = AuthErrorCode(rawValue: "NOT_IMPLEMENTED")
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
        case .phoneNumberExists: return "an account with this phone number already exists"
        case .duplicateLocalID: return "an account with this uid already exists"
        case .invalidLocalID: return "the uid must be 1 to 128 characters"
        case .invalidPhoneNumber: return "the phone number is not in E.164 form (+ and digits)"
        case .insufficientPermission: return "only an administrator may do this"
        case .operationNotAllowed: return "this operation is not allowed"
        case .invalidClaims: return "the custom claims must be a JSON object"
        case .claimsTooLarge: return "the custom claims are longer than 1000 characters"
        case .forbiddenClaim: return "the custom claims use a reserved name"
        case .emailNotFound: return "no account has this email"
        case .invalidPassword: return "the password is incorrect"
        case .missingOobCode: return "an email action code is required"
        case .invalidOobCode: return "the email action code is not valid or was already used"
        case .expiredOobCode: return "the email action code has expired; ask for a new one"
        case .invalidCustomToken: return "the custom token is not valid"
        case .projectNotFound: return "the auth service does not serve this project"
        case .unauthenticated: return "the request's credentials are not valid"
        case .permissionDenied: return "the request is missing a valid API key"
        case .invalidArgument: return "the request body is malformed"
        case .notFound: return "no such auth endpoint"
        case .internalError: return "the auth service failed"
        default: return "the auth service answered \(rawValue)"
        }
    }
}
