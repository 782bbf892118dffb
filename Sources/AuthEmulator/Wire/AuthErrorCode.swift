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
    /// sendOobCode: `linkDomain` is not a custom domain of the project's Firebase Hosting (an emulated project has none).
    public static let invalidHostingLinkDomain = AuthErrorCode(rawValue: "INVALID_HOSTING_LINK_DOMAIN")
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

    /// The request's tenant differs from its ID token's, path's or body's.
    public static let tenantIDMismatch = AuthErrorCode(rawValue: "TENANT_ID_MISMATCH")
    /// The tenant has `disableAuth` set.
    public static let projectDisabled = AuthErrorCode(rawValue: "PROJECT_DISABLED")
    /// The tenant does not allow password sign-in.
    public static let passwordLoginDisabled = AuthErrorCode(rawValue: "PASSWORD_LOGIN_DISABLED")
    /// Anonymous sign-up where the tenant does not allow it.
    public static let adminOnlyOperation = AuthErrorCode(rawValue: "ADMIN_ONLY_OPERATION")
    /// batchCreate: no users.
    public static let missingUserAccount = AuthErrorCode(rawValue: "MISSING_USER_ACCOUNT")
    /// createAuthUri: the identifier is not an email.
    public static let invalidIdentifier = AuthErrorCode(rawValue: "INVALID_IDENTIFIER")
    /// createAuthUri: no continueUri.
    public static let missingContinueURI = AuthErrorCode(rawValue: "MISSING_CONTINUE_URI")
    /// sendOobCode VERIFY_AND_CHANGE_EMAIL: no newEmail.
    public static let missingNewEmail = AuthErrorCode(rawValue: "MISSING_NEW_EMAIL")
    /// A wrong SMS or TOTP code.
    public static let invalidCode = AuthErrorCode(rawValue: "INVALID_CODE")
    /// No SMS or TOTP code.
    public static let missingCode = AuthErrorCode(rawValue: "MISSING_CODE")
    /// An unknown phone or TOTP enrollment session.
    public static let invalidSessionInfo = AuthErrorCode(rawValue: "INVALID_SESSION_INFO")
    /// No phone or TOTP enrollment session.
    public static let missingSessionInfo = AuthErrorCode(rawValue: "MISSING_SESSION_INFO")
    /// A phone or TOTP enrollment session that has expired.
    public static let sessionExpired = AuthErrorCode(rawValue: "SESSION_EXPIRED")
    /// No phone number.
    public static let missingPhoneNumber = AuthErrorCode(rawValue: "MISSING_PHONE_NUMBER")
    /// A phone temporary proof that is unknown or for another number.
    public static let invalidTemporaryProof = AuthErrorCode(rawValue: "INVALID_TEMPORARY_PROOF")
    /// mfaSignIn without mfaPendingCredential.
    public static let missingMFAPendingCredential = AuthErrorCode(rawValue: "MISSING_MFA_PENDING_CREDENTIAL")
    /// An unknown or expired mfaPendingCredential.
    public static let invalidMFAPendingCredential = AuthErrorCode(rawValue: "INVALID_MFA_PENDING_CREDENTIAL")
    /// mfaSignIn without mfaEnrollmentId.
    public static let missingMFAEnrollmentID = AuthErrorCode(rawValue: "MISSING_MFA_ENROLLMENT_ID")
    /// No second factor with that id.
    public static let mfaEnrollmentNotFound = AuthErrorCode(rawValue: "MFA_ENROLLMENT_NOT_FOUND")
    /// MFA after a first factor that cannot have one (anonymous, phone, custom).
    public static let unsupportedFirstFactor = AuthErrorCode(rawValue: "UNSUPPORTED_FIRST_FACTOR")
    /// MFA enrollment before the email is verified.
    public static let unverifiedEmail = AuthErrorCode(rawValue: "UNVERIFIED_EMAIL")
    /// The phone number is already a second factor.
    public static let secondFactorExists = AuthErrorCode(rawValue: "SECOND_FACTOR_EXISTS")
    /// More than 5 second factors.
    public static let secondFactorLimitExceeded = AuthErrorCode(rawValue: "SECOND_FACTOR_LIMIT_EXCEEDED")
    /// An operation tenants do not have (phone sign-in, project config).
    public static let unsupportedTenantOperation = AuthErrorCode(rawValue: "UNSUPPORTED_TENANT_OPERATION")
    /// The identity provider's user is linked to another account.
    public static let federatedUserIDAlreadyLinked = AuthErrorCode(rawValue: "FEDERATED_USER_ID_ALREADY_LINKED")
    /// signInWithIdp: the fake provider credential does not parse.
    public static let invalidIDPResponse = AuthErrorCode(rawValue: "INVALID_IDP_RESPONSE")
    /// signInWithIdp: no requestUri.
    public static let missingRequestURI = AuthErrorCode(rawValue: "MISSING_REQUEST_URI")
    /// signInWithIdp: requestUri is not absolute.
    public static let invalidRequestURI = AuthErrorCode(rawValue: "INVALID_REQUEST_URI")
    /// signInWithIdp: no providerId.
    public static let invalidCredentialOrProviderID = AuthErrorCode(rawValue: "INVALID_CREDENTIAL_OR_PROVIDER_ID")
    /// No identity provider configuration with that id.
    public static let configurationNotFound = AuthErrorCode(rawValue: "CONFIGURATION_NOT_FOUND")
    /// An identity provider configuration with that id exists.
    public static let configurationExists = AuthErrorCode(rawValue: "CONFIGURATION_EXISTS")
    /// An OIDC id not starting `oidc.`, a SAML id not starting `saml.`.
    public static let invalidProviderID = AuthErrorCode(rawValue: "INVALID_PROVIDER_ID")
    /// No provider id.
    public static let missingProviderID = AuthErrorCode(rawValue: "MISSING_PROVIDER_ID")
    /// A provider configuration field that is malformed.
    public static let invalidConfig = AuthErrorCode(rawValue: "INVALID_CONFIG")
    /// An OIDC configuration without issuer.
    public static let missingIssuer = AuthErrorCode(rawValue: "MISSING_ISSUER")
    /// An OIDC configuration without clientId.
    public static let missingOAuthClientID = AuthErrorCode(rawValue: "MISSING_OAUTH_CLIENT_ID")
    /// A SAML configuration without spConfig.
    public static let missingSAMLRelyingPartyConfig = AuthErrorCode(rawValue: "MISSING_SAML_RELYING_PARTY_CONFIG")
    /// No tenant with that id.
    public static let tenantNotFound = AuthErrorCode(rawValue: "TENANT_NOT_FOUND")
    /// batchCreate: an unknown hashAlgorithm.
    public static let invalidHashAlgorithm = AuthErrorCode(rawValue: "INVALID_HASH_ALGORITHM")
    /// batchCreate: password hashes without a hashAlgorithm.
    public static let missingHashAlgorithm = AuthErrorCode(rawValue: "MISSING_HASH_ALGORITHM")
    /// batchCreate: rounds outside the algorithm's range.
    public static let invalidHashRounds = AuthErrorCode(rawValue: "INVALID_HASH_ROUNDS")
    /// batchCreate: SCRYPT memoryCost outside 1–14.
    public static let invalidHashMemoryCost = AuthErrorCode(rawValue: "INVALID_HASH_MEMORY_COST")
    /// batchCreate: a STANDARD_SCRYPT parameter outside the accepted bounds.
    public static let invalidHashParameter = AuthErrorCode(rawValue: "INVALID_HASH_PARAMETER")
    /// batchCreate: SCRYPT or HMAC without signerKey.
    public static let missingHashKey = AuthErrorCode(rawValue: "MISSING_HASH_KEY")
    /// A passkey route (WebAuthn) this service does not verify.
    public static let unsupportedPasskey = AuthErrorCode(rawValue: "PASSKEY_NOT_SUPPORTED")

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
