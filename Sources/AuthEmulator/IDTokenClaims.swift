import Foundation

/// The claims of a Firebase ID token, as Firebase issues them (see "Verify ID tokens" in the Firebase Admin
/// docs): `iss` = `https://securetoken.google.com/<projectId>`, `aud` = projectId, `sub` = `user_id` = uid,
/// `iat`/`exp`/`auth_time` in seconds since the epoch, and the `firebase` object naming the sign-in provider.
public struct IDTokenClaims: Codable, Sendable, Equatable {
    /// Issuer: `https://securetoken.google.com/<projectId>`.
    public var issuer: String
    /// Audience: the project id.
    public var audience: String
    /// When the user last signed in with a password (seconds since the epoch).
    public var authTime: Int64
    /// The uid (Firebase's own claim; equal to `subject`).
    public var userId: String
    /// Subject: the uid.
    public var subject: String
    /// Issued at (seconds since the epoch).
    public var issuedAt: Int64
    /// Expires at (seconds since the epoch): `issuedAt` + 3600.
    public var expiresAt: Int64
    /// The account's email.
    public var email: String
    /// Whether the email has been verified.
    public var emailVerified: Bool
    /// Firebase's provider details.
    public var firebase: FirebaseClaim

    /// The `firebase` claim.
    public struct FirebaseClaim: Codable, Sendable, Equatable {
        /// Identities by provider, e.g. `["email": ["alice@example.com"]]`.
        public var identities: [String: [String]]
        /// `password`.
        public var signInProvider: String

        enum CodingKeys: String, CodingKey {
            case identities
            case signInProvider = "sign_in_provider"
        }

        /// Creates the claim.
        public init(identities: [String: [String]], signInProvider: String) {
            self.identities = identities
            self.signInProvider = signInProvider
        }
    }

    enum CodingKeys: String, CodingKey {
        case issuer = "iss"
        case audience = "aud"
        case authTime = "auth_time"
        case userId = "user_id"
        case subject = "sub"
        case issuedAt = "iat"
        case expiresAt = "exp"
        case email
        case emailVerified = "email_verified"
        case firebase
    }

    /// Creates claims.
    public init(
        issuer: String, audience: String, authTime: Int64, userId: String, subject: String, issuedAt: Int64,
        expiresAt: Int64, email: String, emailVerified: Bool, firebase: FirebaseClaim
    ) {
        self.issuer = issuer
        self.audience = audience
        self.authTime = authTime
        self.userId = userId
        self.subject = subject
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.email = email
        self.emailVerified = emailVerified
        self.firebase = firebase
    }

    /// The issuer Firebase uses for `projectId`.
    public static func issuer(forProject projectId: String) -> String {
        "https://securetoken.google.com/\(projectId)"
    }

    /// Claims for a password sign-in of `uid`/`email`, issued at `now`, valid for `lifetime` seconds.
    public static func passwordSignIn(
        uid: String, email: String, projectId: String, authTime: Date, now: Date, lifetime: Int64
    ) -> IDTokenClaims {
        let issuedAt = Int64(now.timeIntervalSince1970.rounded(.down))
        return IDTokenClaims(
            issuer: issuer(forProject: projectId), audience: projectId,
            authTime: Int64(authTime.timeIntervalSince1970.rounded(.down)), userId: uid, subject: uid,
            issuedAt: issuedAt, expiresAt: issuedAt + lifetime, email: email, emailVerified: false,
            firebase: FirebaseClaim(identities: ["email": [email]], signInProvider: "password"))
    }

    /// The expiry as a date.
    public var expirationDate: Date { Date(timeIntervalSince1970: TimeInterval(expiresAt)) }
}
