import Foundation

/// One account as the store keeps it. The password exists only as its scrypt hash.
public struct AuthUserRecord: Sendable, Equatable {
    /// The 28-character uid (`localId` on the wire).
    public var uid: String
    /// The canonical (lowercased) email, unique across accounts.
    public var email: String
    /// An optional display name.
    public var displayName: String?
    /// The scrypt hash with its salt and parameters.
    public var passwordHash: PasswordHash
    /// Whether the email has been verified (never, in this service).
    public var emailVerified: Bool
    /// Whether an administrator has disabled the account.
    public var disabled: Bool
    /// Creation time.
    public var createdAt: Date
    /// Last password sign-in (or creation).
    public var lastLoginAt: Date
    /// When the password was last set.
    public var passwordUpdatedAt: Date
    /// ID tokens issued before this instant are revoked (whole seconds).
    public var validSince: Date
    /// Last time tokens were issued.
    public var lastRefreshAt: Date?

    /// Creates a record.
    public init(
        uid: String, email: String, displayName: String?, passwordHash: PasswordHash, emailVerified: Bool = false,
        disabled: Bool = false, createdAt: Date, lastLoginAt: Date, passwordUpdatedAt: Date, validSince: Date,
        lastRefreshAt: Date? = nil
    ) {
        self.uid = uid
        self.email = email
        self.displayName = displayName
        self.passwordHash = passwordHash
        self.emailVerified = emailVerified
        self.disabled = disabled
        self.createdAt = createdAt
        self.lastLoginAt = lastLoginAt
        self.passwordUpdatedAt = passwordUpdatedAt
        self.validSince = validSince
        self.lastRefreshAt = lastRefreshAt
    }
}
