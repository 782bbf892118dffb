import EthereumPrimitives
import Foundation
import GRDB

/// Errors from the account store.
public enum AuthStoreError: Error, Sendable, CustomStringConvertible {
    /// Another account already has this email (the UNIQUE constraint).
    case emailTaken
    /// Another account already has this uid.
    case uidTaken
    /// A stored password hash does not parse (the database was edited by hand or is corrupt).
    case corruptPasswordHash(uid: String)
    /// SQLite failed.
    case database(path: String, reason: String)

    /// What went wrong and where.
    public var description: String {
        switch self {
        case .emailTaken: return "an account with this email already exists"
        case .uidTaken: return "an account with this uid already exists"
        case .corruptPasswordHash(let uid): return "the stored password hash of account \(uid) is not a scrypt PHC string"
        case .database(let path, let reason): return "auth database \(path): \(reason)"
        }
    }
}

/// Whether a sign-in attempt may proceed.
public enum LoginAttemptDecision: Sendable, Equatable {
    /// Proceed; the attempt has been counted (a success clears it).
    case allowed
    /// Refused: the email has used up its failures for this window.
    case tooManyAttempts
}

/// The accounts, refresh tokens (as SHA-256 hashes only) and failed-sign-in counters, in SQLite through GRDB:
/// `<dataDir>/auth.sqlite` (mode 0600), or in memory for tests and `--ephemeral`.
public struct AuthStore: Sendable {
    /// The file name inside the data directory.
    public static let fileName = "auth.sqlite"

    private let database: DatabaseQueue
    /// The database file, or `:memory:`.
    public let path: String

    /// Opens (creating and migrating when needed) the database at `path` and restricts it to its owner.
    public static func open(path: String) throws(AuthStoreError) -> AuthStore {
        do {
            let queue = try DatabaseQueue(path: path)
            try migrator.migrate(queue)
            try SecureFile.restrictToOwner(path)
            return AuthStore(database: queue, path: path)
        } catch {
            throw .database(path: path, reason: String(describing: error))
        }
    }

    /// An empty in-memory store.
    public static func inMemory() throws(AuthStoreError) -> AuthStore {
        do {
            let queue = try DatabaseQueue()
            try migrator.migrate(queue)
            return AuthStore(database: queue, path: ":memory:")
        } catch {
            throw .database(path: ":memory:", reason: String(describing: error))
        }
    }

    private init(database: DatabaseQueue, path: String) {
        self.database = database
        self.path = path
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: users, refresh tokens, login failures") { db in
            try db.execute(
                sql: """
                    CREATE TABLE users (
                        uid TEXT PRIMARY KEY NOT NULL,
                        email TEXT NOT NULL UNIQUE,
                        display_name TEXT,
                        password_hash TEXT NOT NULL,
                        email_verified INTEGER NOT NULL DEFAULT 0,
                        disabled INTEGER NOT NULL DEFAULT 0,
                        created_at_ms INTEGER NOT NULL,
                        last_login_at_ms INTEGER NOT NULL,
                        password_updated_at_ms INTEGER NOT NULL,
                        valid_since_s INTEGER NOT NULL,
                        last_refresh_at_ms INTEGER
                    );
                    CREATE TABLE refresh_tokens (
                        token_sha256 BLOB PRIMARY KEY NOT NULL,
                        uid TEXT NOT NULL REFERENCES users(uid) ON DELETE CASCADE,
                        created_at_ms INTEGER NOT NULL
                    );
                    CREATE INDEX refresh_tokens_uid ON refresh_tokens(uid);
                    CREATE TABLE login_failures (
                        email TEXT PRIMARY KEY NOT NULL,
                        failures INTEGER NOT NULL,
                        window_start_ms INTEGER NOT NULL
                    );
                    """)
        }
        return migrator
    }

    // MARK: Accounts

    /// Inserts a new account; `emailTaken` when the email is in use (also under a race: the UNIQUE constraint
    /// decides).
    public func insertUser(_ user: AuthUserRecord) async throws(AuthStoreError) {
        do {
            try await database.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO users (uid, email, display_name, password_hash, email_verified, disabled,
                            created_at_ms, last_login_at_ms, password_updated_at_ms, valid_since_s, last_refresh_at_ms)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        user.uid, user.email, user.displayName, user.passwordHash.encoded, user.emailVerified,
                        user.disabled, milliseconds(user.createdAt), milliseconds(user.lastLoginAt),
                        milliseconds(user.passwordUpdatedAt), seconds(user.validSince),
                        user.lastRefreshAt.map(milliseconds),
                    ])
            }
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            throw .emailTaken
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY {
            throw .uidTaken
        } catch {
            throw .database(path: path, reason: String(describing: error))
        }
    }

    /// The account with this uid.
    public func user(uid: String) async throws(AuthStoreError) -> AuthUserRecord? {
        try await fetchUser(sql: "SELECT * FROM users WHERE uid = ?", argument: uid)
    }

    /// The account with this canonical email.
    public func user(email: String) async throws(AuthStoreError) -> AuthUserRecord? {
        try await fetchUser(sql: "SELECT * FROM users WHERE email = ?", argument: email)
    }

    /// The number of accounts.
    public func userCount() async throws(AuthStoreError) -> Int {
        try await run { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM users") ?? 0 }
    }

    /// Records a successful password sign-in.
    public func recordLogin(uid: String, at date: Date) async throws(AuthStoreError) {
        try await run { db in
            try db.execute(
                sql: "UPDATE users SET last_login_at_ms = ? WHERE uid = ?", arguments: [milliseconds(date), uid])
        }
    }

    /// Records that tokens were issued.
    public func recordRefresh(uid: String, at date: Date) async throws(AuthStoreError) {
        try await run { db in
            try db.execute(
                sql: "UPDATE users SET last_refresh_at_ms = ? WHERE uid = ?", arguments: [milliseconds(date), uid])
        }
    }

    /// Revokes every ID and refresh token of `uid` issued before `date`: sets `validSince` and deletes the
    /// account's refresh tokens.
    public func revokeTokens(uid: String, at date: Date) async throws(AuthStoreError) {
        try await run { db in
            try db.execute(sql: "UPDATE users SET valid_since_s = ? WHERE uid = ?", arguments: [seconds(date), uid])
            try db.execute(sql: "DELETE FROM refresh_tokens WHERE uid = ?", arguments: [uid])
        }
    }

    /// Marks the account disabled (or enabled).
    public func setDisabled(uid: String, _ disabled: Bool) async throws(AuthStoreError) {
        try await run { db in
            try db.execute(sql: "UPDATE users SET disabled = ? WHERE uid = ?", arguments: [disabled, uid])
        }
    }

    /// Deletes the account and, by cascade, its refresh tokens.
    public func deleteUser(uid: String) async throws(AuthStoreError) {
        try await run { db in try db.execute(sql: "DELETE FROM users WHERE uid = ?", arguments: [uid]) }
    }

    // MARK: Refresh tokens

    /// Stores the SHA-256 of a newly issued refresh token (never the token).
    public func insertRefreshToken(sha256: [UInt8], uid: String, at date: Date) async throws(AuthStoreError) {
        try await run { db in
            try db.execute(
                sql: "INSERT INTO refresh_tokens (token_sha256, uid, created_at_ms) VALUES (?, ?, ?)",
                arguments: [Data(sha256), uid, milliseconds(date)])
        }
    }

    /// The uid owning the refresh token whose SHA-256 is `sha256`. The stored digest is compared again in
    /// constant time after the indexed lookup.
    public func refreshTokenOwner(sha256: [UInt8]) async throws(AuthStoreError) -> String? {
        let found = try await run { db -> (digest: Data, uid: String)? in
            try Row.fetchOne(
                db, sql: "SELECT token_sha256, uid FROM refresh_tokens WHERE token_sha256 = ?",
                arguments: [Data(sha256)]
            ).map { ($0["token_sha256"], $0["uid"]) }
        }
        guard let found, ConstantTime.equals([UInt8](found.digest), sha256) else { return nil }
        return found.uid
    }

    /// The number of stored refresh tokens of `uid`.
    public func refreshTokenCount(uid: String) async throws(AuthStoreError) -> Int {
        try await run { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM refresh_tokens WHERE uid = ?", arguments: [uid]) ?? 0
        }
    }

    // MARK: Rate limiting

    /// Counts a sign-in attempt for `email` under `policy` in one transaction, so concurrent attempts cannot
    /// exceed the limit: refused when the email already has `maxFailures` failures in the current window,
    /// otherwise counted and allowed. Counters from elapsed windows are dropped.
    public func beginLoginAttempt(email: String, at date: Date, policy: RateLimitPolicy) async throws(AuthStoreError)
        -> LoginAttemptDecision
    {
        let now = milliseconds(date)
        let windowMilliseconds = Int64(policy.window * 1000)
        return try await run { db in
            try db.execute(
                sql: "DELETE FROM login_failures WHERE window_start_ms <= ?", arguments: [now - windowMilliseconds])
            let row = try Row.fetchOne(
                db, sql: "SELECT failures, window_start_ms FROM login_failures WHERE email = ?", arguments: [email])
            let failures: Int = row?["failures"] ?? 0
            if failures >= policy.maxFailures { return .tooManyAttempts }
            if row == nil {
                try db.execute(
                    sql: "INSERT INTO login_failures (email, failures, window_start_ms) VALUES (?, 1, ?)",
                    arguments: [email, now])
            } else {
                try db.execute(
                    sql: "UPDATE login_failures SET failures = failures + 1 WHERE email = ?", arguments: [email])
            }
            return .allowed
        }
    }

    /// Clears the failure counter of `email` after a successful sign-in.
    public func clearLoginFailures(email: String) async throws(AuthStoreError) {
        try await run { db in try db.execute(sql: "DELETE FROM login_failures WHERE email = ?", arguments: [email]) }
    }

    /// The failures counted for `email` in its current window (0 when none).
    public func loginFailures(email: String) async throws(AuthStoreError) -> Int {
        try await run { db in
            try Int.fetchOne(db, sql: "SELECT failures FROM login_failures WHERE email = ?", arguments: [email]) ?? 0
        }
    }

    // MARK: Helpers

    private func run<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(AuthStoreError) -> T {
        do {
            return try await database.write(body)
        } catch {
            throw .database(path: path, reason: String(describing: error))
        }
    }

    private func fetchUser(sql: String, argument: String) async throws(AuthStoreError) -> AuthUserRecord? {
        let fetched = try await run { db -> Result<AuthUserRecord, AuthStoreError>? in
            guard let row = try Row.fetchOne(db, sql: sql, arguments: [argument]) else { return nil }
            let uid: String = row["uid"]
            guard let hash = PasswordHash(encoded: row["password_hash"]) else {
                return .failure(.corruptPasswordHash(uid: uid))
            }
            let lastRefresh: Int64? = row["last_refresh_at_ms"]
            return .success(
                AuthUserRecord(
                    uid: uid, email: row["email"], displayName: row["display_name"], passwordHash: hash,
                    emailVerified: row["email_verified"], disabled: row["disabled"],
                    createdAt: date(milliseconds: row["created_at_ms"]),
                    lastLoginAt: date(milliseconds: row["last_login_at_ms"]),
                    passwordUpdatedAt: date(milliseconds: row["password_updated_at_ms"]),
                    validSince: Date(timeIntervalSince1970: TimeInterval(row["valid_since_s"] as Int64)),
                    lastRefreshAt: lastRefresh.map { date(milliseconds: $0) }))
        }
        return try fetched?.get()
    }
}

private func milliseconds(_ date: Date) -> Int64 {
    Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
}

private func seconds(_ date: Date) -> Int64 {
    Int64(date.timeIntervalSince1970.rounded(.down))
}

private func date(milliseconds: Int64) -> Date {
    Date(timeIntervalSince1970: TimeInterval(milliseconds) / 1000)
}
