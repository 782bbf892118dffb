import Foundation
import GRDB

/// A signed-in session: what a refresh token stands for. Every refresh token of one sign-in shares its
/// `family`; exchanging a token replaces it with the next one of the family (rotation).
public struct AuthSessionRecord: Sendable, Equatable {
    /// The account.
    public var uid: String
    /// The sign-in's identifier, shared by the tokens it rotates through (16 random bytes).
    public var family: [UInt8]
    /// `password`, `custom` (a custom token) — the ID tokens' `firebase.sign_in_provider`.
    public var provider: String
    /// A custom token's developer claims, as JSON object text, carried into every ID token of the session.
    public var extraClaims: String?
    /// When the user signed in (the ID tokens' `auth_time`), seconds since the epoch.
    public var authTime: Int64
    /// The second factor the sign-in passed, `<provider>:<enrollment id>` (`totp:…`, `phone:…`), carried into the
    /// ID tokens' `firebase.sign_in_second_factor` and `second_factor_identifier`.
    public var secondFactor: String?

    /// Creates a session record.
    public init(
        uid: String, family: [UInt8], provider: String, extraClaims: String?, authTime: Int64,
        secondFactor: String? = nil
    ) {
        self.uid = uid
        self.family = family
        self.provider = provider
        self.extraClaims = extraClaims
        self.authTime = authTime
        self.secondFactor = secondFactor
    }
}

/// What presenting a refresh token leads to.
public enum RefreshTokenExchange: Sendable, Equatable {
    /// The token was current: it is now replaced by the new one, which belongs to `session` of `user` in `realm`.
    case rotated(session: AuthSessionRecord, user: AuthUserRecord, realm: AuthRealm)
    /// No such token (never issued, or its account was deleted).
    case unknown
    /// The token had already been exchanged: a copy is in someone else's hands, so the whole session was revoked.
    case reused
    /// The token expired, or was revoked (sign-out, password change, `revoke_refresh_tokens`).
    case expired
    /// The account is disabled; nothing was changed.
    case disabled
}

extension AuthStore {
    /// Stores a new session's first refresh token (its SHA-256 only).
    public func insertSession(
        _ session: AuthSessionRecord, tokenSHA256: [UInt8], at date: Date, expiresAt: Date
    ) async throws(AuthStoreError) {
        let key = key
        try await run { db in
            try Self.insert(db, session, realm: key, tokenSHA256: tokenSHA256, at: date, expiresAt: expiresAt)
        }
    }

    /// Exchanges the refresh token whose digest is `tokenSHA256` for the one whose digest is `newSHA256`, in one
    /// transaction: checks that the token exists, was not exchanged before (a second use revokes the session),
    /// has neither expired nor been revoked (including by the account's `validSince`), and that the account is
    /// enabled; then marks it replaced and stores the new one with a fresh expiry. Expired rows are pruned. A refresh
    /// token names its realm (the Secure Token API has no project in its path), so this looks in every realm.
    public func exchangeRefreshToken(
        _ tokenSHA256: [UInt8], for newSHA256: [UInt8], at date: Date, lifetime: TimeInterval
    ) async throws(AuthStoreError) -> RefreshTokenExchange {
        let now = milliseconds(date)
        let expiry = date.addingTimeInterval(lifetime)
        let step = try await run { db -> ExchangeStep in
            try db.execute(
                sql: "DELETE FROM sessions WHERE expires_at_ms <= ? AND token_sha256 != ?",
                arguments: [now, Data(tokenSHA256)])
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT * FROM sessions WHERE token_sha256 = ?", arguments: [Data(tokenSHA256)]),
                ConstantTime.equals([UInt8](row["token_sha256"] as Data), tokenSHA256)
            else { return .done(.unknown) }
            let family: Data = row["family"]
            if row["replaced"] as Bool {
                try db.execute(sql: "DELETE FROM sessions WHERE family = ?", arguments: [family])
                return .done(.reused)
            }
            let uid: String = row["uid"]
            let realm: String = row["realm"]
            guard
                let account = try Row.fetchOne(
                    db, sql: "SELECT valid_since_s, disabled FROM users WHERE realm = ? AND uid = ?",
                    arguments: [realm, uid])
            else { return .done(.unknown) }
            let createdAt: Int64 = row["created_at_ms"]
            let validSince: Int64 = account["valid_since_s"]
            let expiresAt: Int64 = row["expires_at_ms"]
            if row["revoked"] as Bool || createdAt < validSince * 1000 || expiresAt <= now {
                try db.execute(sql: "DELETE FROM sessions WHERE family = ?", arguments: [family])
                return .done(.expired)
            }
            if account["disabled"] as Bool { return .done(.disabled) }
            let session = AuthSessionRecord(
                uid: uid, family: [UInt8](family), provider: row["provider"], extraClaims: row["extra_claims"],
                authTime: row["auth_time_s"], secondFactor: row["second_factor"])
            try db.execute(
                sql: "UPDATE sessions SET replaced = 1 WHERE token_sha256 = ?", arguments: [Data(tokenSHA256)])
            try Self.insert(db, session, realm: realm, tokenSHA256: newSHA256, at: date, expiresAt: expiry)
            return .rotated(session, realm)
        }
        guard case .rotated(let session, let realmKey) = step else {
            if case .done(let outcome) = step { return outcome }
            return .unknown
        }
        let realm = AuthRealm(key: realmKey)
        guard let user = try await scoped(to: realm).user(uid: session.uid) else { return .unknown }
        return .rotated(session: session, user: user, realm: realm)
    }

    /// Revokes every refresh token of `uid`; `except` keeps one session's (the one a password change continues).
    public func revokeSessions(uid: String, except family: [UInt8]? = nil) async throws(AuthStoreError) {
        let key = key
        try await run { db in
            if let family {
                try db.execute(
                    sql: "UPDATE sessions SET revoked = 1 WHERE realm = ? AND uid = ? AND family != ?",
                    arguments: [key, uid, Data(family)])
            } else {
                try db.execute(sql: "UPDATE sessions SET revoked = 1 WHERE realm = ? AND uid = ?", arguments: [key, uid])
            }
        }
    }

    /// Ends the session whose refresh token has digest `tokenSHA256` if it belongs to `uid` (sign-out); returns
    /// whether one was found.
    public func endSession(tokenSHA256: [UInt8], uid: String) async throws(AuthStoreError) -> Bool {
        let key = key
        return try await run { db in
            guard
                let family = try Data.fetchOne(
                    db, sql: "SELECT family FROM sessions WHERE token_sha256 = ? AND realm = ? AND uid = ?",
                    arguments: [Data(tokenSHA256), key, uid])
            else { return false }
            try db.execute(sql: "UPDATE sessions SET revoked = 1 WHERE family = ?", arguments: [family])
            return true
        }
    }

    /// The number of usable (neither replaced nor revoked) refresh tokens of `uid`.
    public func activeSessionCount(uid: String) async throws(AuthStoreError) -> Int {
        let key = key
        return try await run { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM sessions WHERE realm = ? AND uid = ? AND replaced = 0 AND revoked = 0",
                arguments: [key, uid]) ?? 0
        }
    }

    private static func insert(
        _ db: Database, _ session: AuthSessionRecord, realm: String, tokenSHA256: [UInt8], at date: Date,
        expiresAt: Date
    ) throws {
        try db.execute(
            sql: """
                INSERT INTO sessions (token_sha256, realm, uid, family, provider, extra_claims, second_factor,
                    auth_time_s, created_at_ms, expires_at_ms)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                Data(tokenSHA256), realm, session.uid, Data(session.family), session.provider, session.extraClaims,
                session.secondFactor, session.authTime, milliseconds(date), milliseconds(expiresAt),
            ])
        try db.execute(
            sql: "UPDATE users SET last_refresh_at_ms = ? WHERE realm = ? AND uid = ?",
            arguments: [milliseconds(date), realm, session.uid])
    }
}

/// A step of `exchangeRefreshToken`'s transaction: finished, or rotated (the account is read after it).
private enum ExchangeStep: Sendable {
    case done(RefreshTokenExchange)
    case rotated(AuthSessionRecord, String)
}
