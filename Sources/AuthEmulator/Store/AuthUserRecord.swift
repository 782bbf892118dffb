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

    /// The custom claims as an object (empty when none are set).
    public var customClaims: [String: AuthJSON] {
        customAttributes.flatMap(AuthJSON.parse)?.objectValue ?? [:]
    }
}
