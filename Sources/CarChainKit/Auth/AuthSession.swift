import Foundation

/// A signed-in user's tokens. Persisted by `SessionStore` (never with the password); its description never shows
/// the tokens.
public struct AuthSession: Codable, Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The account's uid (`localId`).
    public var uid: String
    /// The account's canonical email.
    public var email: String
    /// The ID token (JWT) to present to services.
    public var idToken: String
    /// The long-lived refresh token that obtains new ID tokens.
    public var refreshToken: String
    /// When the ID token expires, by the client's clock at issue time plus `expiresIn`.
    public var expiresAt: Date
    /// The service that issued the tokens (`in-process`, or the auth URL).
    public var backend: String

    /// Creates a session.
    public init(uid: String, email: String, idToken: String, refreshToken: String, expiresAt: Date, backend: String) {
        self.uid = uid
        self.email = email
        self.idToken = idToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
        self.backend = backend
    }

    /// Whether the ID token is expired at `date`, or will be within `margin` seconds.
    public func isExpired(at date: Date, margin: TimeInterval = 0) -> Bool {
        date.addingTimeInterval(margin) >= expiresAt
    }

    /// `uid (email), ID token expires <date>, via <backend>`, without the tokens.
    public var description: String {
        "\(uid) (\(email)), ID token expires \(expiresAt), via \(backend)"
    }

    /// Same as `description`: tokens never reach logs.
    public var debugDescription: String { "AuthSession(\(description))" }
}

/// The account an ID token belongs to, from `accounts:lookup`.
public struct AuthAccount: Sendable, Equatable {
    /// The uid.
    public var uid: String
    /// The canonical email.
    public var email: String
    /// The display name, when set.
    public var displayName: String?
    /// Whether the email has been verified.
    public var emailVerified: Bool
    /// When the account was created.
    public var createdAt: Date?
    /// When the account last signed in with its password.
    public var lastLoginAt: Date?

    /// Creates an account description.
    public init(
        uid: String, email: String, displayName: String?, emailVerified: Bool, createdAt: Date?, lastLoginAt: Date?
    ) {
        self.uid = uid
        self.email = email
        self.displayName = displayName
        self.emailVerified = emailVerified
        self.createdAt = createdAt
        self.lastLoginAt = lastLoginAt
    }
}
