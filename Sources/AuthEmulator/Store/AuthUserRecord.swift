import Foundation

/// One account as the store keeps it. An account may have an email and password (sign-up, Admin SDK), only an
/// email (email-link sign-in), or neither (custom-token sign-in, an Admin SDK user created by uid); the password
/// exists only as its scrypt hash.
public struct AuthUserRecord: Sendable, Equatable {
    /// The uid (`localId` on the wire): 28 random characters, or the caller's own (1–128 characters) for Admin
    /// SDK and custom-token accounts.
    public var uid: String
    /// The canonical (lowercased) email, unique across accounts.
    public var email: String?
    /// The display name.
    public var displayName: String?
    /// The photo URL.
    public var photoURL: String?
    /// The phone number in E.164 form (`+…`), unique across accounts; an attribute only (no SMS sign-in).
    public var phoneNumber: String?
    /// The scrypt hash with its salt and parameters; nil for accounts without a password.
    public var passwordHash: PasswordHash?
    /// Whether the email has been verified (an email action link, email-link sign-in, or the Admin SDK).
    public var emailVerified: Bool
    /// Whether an administrator has disabled the account.
    public var disabled: Bool
    /// Whether the account has signed in with an email link.
    public var emailLinkSignin: Bool
    /// Custom claims set by an administrator, as the JSON object text the Admin SDK sent (at most 1000 bytes).
    public var customAttributes: String?
    /// Creation time.
    public var createdAt: Date
    /// Last sign-in (password, email link or custom token); creation for accounts made by the Admin SDK.
    public var lastLoginAt: Date?
    /// When the password was last set.
    public var passwordUpdatedAt: Date?
    /// ID tokens issued before this instant (whole seconds) are revoked, and so are refresh tokens issued before it.
    public var validSince: Date
    /// Last time tokens were issued.
    public var lastRefreshAt: Date?
    /// A password hash imported from another system (`accounts:batchCreate`), checked until the first successful
    /// sign-in replaces it with `passwordHash`; nil otherwise.
    public var importedPassword: ImportedPasswordHash?
    /// The email before the last change (the address a `RECOVER_EMAIL` link restores).
    public var initialEmail: String?
    /// Whether the account has signed in with a custom token.
    public var customAuth: Bool = false
    /// Whether the account was made by an anonymous sign-up and has no other credential yet.
    public var anonymous: Bool = false
    /// Identity providers linked to the account (`google.com`, `oidc.*`, `saml.*`, …; not `password` or `phone`,
    /// which follow from the email, password and phone number).
    public var providers: [FederatedIdentity] = []
    /// Second factors.
    public var mfaEnrollments: [MFAEnrollment] = []

    /// Creates a record.
    public init(
        uid: String, email: String?, displayName: String? = nil, photoURL: String? = nil, phoneNumber: String? = nil,
        passwordHash: PasswordHash?, emailVerified: Bool = false, disabled: Bool = false,
        emailLinkSignin: Bool = false, customAttributes: String? = nil, createdAt: Date, lastLoginAt: Date?,
        passwordUpdatedAt: Date?, validSince: Date, lastRefreshAt: Date? = nil
    ) {
        self.uid = uid
        self.email = email
        self.displayName = displayName
        self.photoURL = photoURL
        self.phoneNumber = phoneNumber
        self.passwordHash = passwordHash
        self.emailVerified = emailVerified
        self.disabled = disabled
        self.emailLinkSignin = emailLinkSignin
        self.customAttributes = customAttributes
        self.createdAt = createdAt
        self.lastLoginAt = lastLoginAt
        self.passwordUpdatedAt = passwordUpdatedAt
        self.validSince = validSince
        self.lastRefreshAt = lastRefreshAt
    }

    /// Whether the account has a password (its own scrypt hash, or an imported one).
    public var hasPassword: Bool { passwordHash != nil || importedPassword != nil }

    /// The custom claims as an object (empty when none are set).
    public var customClaims: [String: AuthJSON] {
        customAttributes.flatMap(AuthJSON.parse)?.objectValue ?? [:]
    }
}

/// An identity provider linked to an account (`providerUserInfo` entries other than `password` and `phone`).
public struct FederatedIdentity: Sendable, Equatable, Codable {
    /// `google.com`, `facebook.com`, `oidc.<name>`, `saml.<name>`, …
    public var providerId: String
    /// The user's id at the provider (unique per provider within a realm).
    public var rawId: String
    /// The provider's federated id (`https://accounts.google.com/<rawId>` for Google; else `rawId`).
    public var federatedId: String?
    public var email: String?
    public var displayName: String?
    public var photoUrl: String?
    public var screenName: String?
    public var phoneNumber: String?

    /// Creates an identity.
    public init(
        providerId: String, rawId: String, federatedId: String? = nil, email: String? = nil,
        displayName: String? = nil, photoUrl: String? = nil, screenName: String? = nil, phoneNumber: String? = nil
    ) {
        self.providerId = providerId
        self.rawId = rawId
        self.federatedId = federatedId
        self.email = email
        self.displayName = displayName
        self.photoUrl = photoUrl
        self.screenName = screenName
        self.phoneNumber = phoneNumber
    }
}

/// A second factor of an account: a TOTP authenticator (its secret) or a phone number for SMS codes.
public struct MFAEnrollment: Sendable, Equatable {
    /// What the factor is.
    public enum Factor: Sendable, Equatable {
        /// An authenticator app holding `secret` (RFC 6238).
        case totp(secret: [UInt8])
        /// SMS codes to the phone number.
        case phone(String)
    }

    /// The enrollment id (28 random characters).
    public var id: String
    /// The factor.
    public var factor: Factor
    /// A name the user gave it.
    public var displayName: String?
    /// When it was enrolled.
    public var enrolledAt: Date

    /// Creates an enrollment.
    public init(id: String, factor: Factor, displayName: String?, enrolledAt: Date) {
        self.id = id
        self.factor = factor
        self.displayName = displayName
        self.enrolledAt = enrolledAt
    }
}
