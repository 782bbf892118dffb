import Foundation

/// The claims of a Firebase ID token (or session cookie), as Firebase issues them (see "Verify ID tokens" in the
/// Firebase Admin docs): `iss` = `https://securetoken.google.com/<projectId>` (`https://session.firebase.google.com/…`
/// for a session cookie), `aud` = projectId, `sub` = `user_id` = uid, `iat`/`exp`/`auth_time` in seconds since the
/// epoch, the profile (`email`, `email_verified`, `phone_number`, `name`, `picture`), the `firebase` object naming
/// the sign-in provider and identities, and the account's custom claims at the top level.
public struct IDTokenClaims: Codable, Sendable, Equatable {
    /// Issuer: `https://securetoken.google.com/<projectId>`.
    public var issuer: String
    /// Audience: the project id.
    public var audience: String
    /// When the user signed in (seconds since the epoch); refreshed tokens keep it.
    public var authTime: Int64
    /// The uid (Firebase's own claim; equal to `subject`).
    public var userId: String
    /// Subject: the uid.
    public var subject: String
    /// Issued at (seconds since the epoch).
    public var issuedAt: Int64
    /// Expires at (seconds since the epoch).
    public var expiresAt: Int64
    /// The account's email, when it has one.
    public var email: String?
    /// Whether the email has been verified (present with `email`).
    public var emailVerified: Bool?
    /// The phone number, when the account has one.
    public var phoneNumber: String?
    /// The display name (`name`).
    public var name: String?
    /// The photo URL (`picture`).
    public var picture: String?
    /// Firebase's provider details.
    public var firebase: FirebaseClaim
    /// Custom claims (the account's `customAttributes`, a custom token's developer claims); a custom claim never
    /// replaces a standard one.
    public var custom: [String: AuthJSON]

    /// The `firebase` claim.
    public struct FirebaseClaim: Codable, Sendable, Equatable {
        /// Identities by provider, e.g. `["email": ["alice@example.com"]]`.
        public var identities: [String: [String]]
        /// `password`, `custom`, `anonymous`, `phone`, or an identity provider's id (`google.com`, …).
        public var signInProvider: String
        /// The tenant the token belongs to (Identity Platform multi-tenancy), nil for a project's own account.
        public var tenant: String?
        /// The second factor the sign-in passed: `totp` or `phone`.
        public var signInSecondFactor: String?
        /// The enrollment id of that second factor.
        public var secondFactorIdentifier: String?

        enum CodingKeys: String, CodingKey {
            case identities
            case signInProvider = "sign_in_provider"
            case tenant
            case signInSecondFactor = "sign_in_second_factor"
            case secondFactorIdentifier = "second_factor_identifier"
        }

        /// Creates the claim.
        public init(
            identities: [String: [String]], signInProvider: String, tenant: String? = nil,
            signInSecondFactor: String? = nil, secondFactorIdentifier: String? = nil
        ) {
            self.identities = identities
            self.signInProvider = signInProvider
            self.tenant = tenant
            self.signInSecondFactor = signInSecondFactor
            self.secondFactorIdentifier = secondFactorIdentifier
        }
    }

    /// The names of the standard claims; custom claims may not use the reserved ones (Firebase's list).
    public static let reservedClaimNames: Set<String> = [
        "acr", "amr", "at_hash", "aud", "auth_time", "azp", "cnf", "c_hash", "exp", "firebase", "iat", "iss", "jti",
        "nbf", "nonce", "sub",
    ]

    enum CodingKeys: String, CodingKey, CaseIterable {
        case issuer = "iss"
        case audience = "aud"
        case authTime = "auth_time"
        case userId = "user_id"
        case subject = "sub"
        case issuedAt = "iat"
        case expiresAt = "exp"
        case email
        case emailVerified = "email_verified"
        case phoneNumber = "phone_number"
        case name
        case picture
        case firebase
    }

    /// Creates claims.
    public init(
        issuer: String, audience: String, authTime: Int64, userId: String, subject: String, issuedAt: Int64,
        expiresAt: Int64, email: String?, emailVerified: Bool?, phoneNumber: String? = nil, name: String? = nil,
        picture: String? = nil, firebase: FirebaseClaim, custom: [String: AuthJSON] = [:]
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
        self.phoneNumber = phoneNumber
        self.name = name
        self.picture = picture
        self.firebase = firebase
        self.custom = custom
    }

    /// Decodes the standard claims; every other member is a custom claim.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        issuer = try container.decode(String.self, forKey: .issuer)
        audience = try container.decode(String.self, forKey: .audience)
        authTime = try container.decode(Int64.self, forKey: .authTime)
        userId = try container.decode(String.self, forKey: .userId)
        subject = try container.decode(String.self, forKey: .subject)
        issuedAt = try container.decode(Int64.self, forKey: .issuedAt)
        expiresAt = try container.decode(Int64.self, forKey: .expiresAt)
        email = try container.decodeIfPresent(String.self, forKey: .email)
        emailVerified = try container.decodeIfPresent(Bool.self, forKey: .emailVerified)
        phoneNumber = try container.decodeIfPresent(String.self, forKey: .phoneNumber)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        picture = try container.decodeIfPresent(String.self, forKey: .picture)
        firebase = try container.decode(FirebaseClaim.self, forKey: .firebase)
        let standard = Set(CodingKeys.allCases.map(\.rawValue))
        let all = try decoder.container(keyedBy: DynamicCodingKey.self)
        var custom: [String: AuthJSON] = [:]
        for key in all.allKeys where !standard.contains(key.stringValue) {
            custom[key.stringValue] = try all.decode(AuthJSON.self, forKey: key)
        }
        self.custom = custom
    }

    /// Encodes the custom claims, then the standard ones over them.
    public func encode(to encoder: any Encoder) throws {
        var all = encoder.container(keyedBy: DynamicCodingKey.self)
        let standard = Set(CodingKeys.allCases.map(\.rawValue))
        for (key, value) in custom where !standard.contains(key) {
            try all.encode(value, forKey: DynamicCodingKey(key))
        }
        func put<T: Encodable>(_ value: T?, _ key: CodingKeys) throws {
            if let value { try all.encode(value, forKey: DynamicCodingKey(key.rawValue)) }
        }
        try put(issuer, .issuer)
        try put(audience, .audience)
        try put(authTime, .authTime)
        try put(userId, .userId)
        try put(subject, .subject)
        try put(issuedAt, .issuedAt)
        try put(expiresAt, .expiresAt)
        try put(email, .email)
        try put(emailVerified, .emailVerified)
        try put(phoneNumber, .phoneNumber)
        try put(name, .name)
        try put(picture, .picture)
        try put(firebase, .firebase)
    }

    /// The issuer Firebase uses for ID tokens of `projectId`.
    public static func issuer(forProject projectId: String) -> String {
        "https://securetoken.google.com/\(projectId)"
    }

    /// The issuer Firebase uses for session cookies of `projectId`.
    public static func sessionCookieIssuer(forProject projectId: String) -> String {
        "https://session.firebase.google.com/\(projectId)"
    }

    /// Claims for an ID token of `user` in `session`, issued at `now`, valid for `lifetime` seconds: the profile,
    /// identities (`email`, `phone`, linked providers' raw ids), the account's custom claims and the session's
    /// developer claims, the tenant and the second factor.
    public static func idToken(
        for user: AuthUserRecord, session: AuthSessionRecord, realm: AuthRealm, now: Date, lifetime: Int64
    ) -> IDTokenClaims {
        let issuedAt = Int64(now.timeIntervalSince1970.rounded(.down))
        var identities: [String: [String]] = [:]
        if let email = user.email { identities["email"] = [email] }
        if let phone = user.phoneNumber { identities["phone"] = [phone] }
        for identity in user.providers { identities[identity.providerId, default: []].append(identity.rawId) }
        var custom = user.customClaims
        if let extra = session.extraClaims.flatMap(AuthJSON.parse)?.objectValue {
            custom.merge(extra) { _, developer in developer }
        }
        // Firebase sets `provider_id` only for anonymous sign-ins.
        if session.provider == "anonymous" { custom["provider_id"] = .string("anonymous") }
        let factor = session.secondFactor?.split(separator: ":", maxSplits: 1).map(String.init)
        return IDTokenClaims(
            issuer: issuer(forProject: realm.projectId), audience: realm.projectId, authTime: session.authTime,
            userId: user.uid, subject: user.uid, issuedAt: issuedAt, expiresAt: issuedAt + lifetime, email: user.email,
            emailVerified: user.email == nil ? nil : user.emailVerified, phoneNumber: user.phoneNumber,
            name: custom["name"] == nil ? user.displayName : nil, picture: custom["picture"] == nil ? user.photoURL : nil,
            firebase: FirebaseClaim(
                identities: identities, signInProvider: session.provider, tenant: realm.tenantId,
                signInSecondFactor: factor?.first, secondFactorIdentifier: factor.flatMap { $0.count > 1 ? $0[1] : nil }),
            custom: custom)
    }

    /// Claims for an ID token of a project's own account (no tenant).
    public static func idToken(
        for user: AuthUserRecord, session: AuthSessionRecord, projectId: String, now: Date, lifetime: Int64
    ) -> IDTokenClaims {
        idToken(for: user, session: session, realm: AuthRealm(projectId: projectId), now: now, lifetime: lifetime)
    }

    /// The expiry as a date.
    public var expirationDate: Date { Date(timeIntervalSince1970: TimeInterval(expiresAt)) }
}
