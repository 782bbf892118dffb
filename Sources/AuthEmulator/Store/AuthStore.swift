import EthereumPrimitives
import Foundation
import GRDB

/// Errors from the account store.
public enum AuthStoreError: Error, Sendable, CustomStringConvertible {
    /// Another account already has this email (the UNIQUE constraint).
    case emailTaken
    /// Another account already has this phone number (the UNIQUE constraint).
    case phoneNumberTaken
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
        case .phoneNumberTaken: return "an account with this phone number already exists"
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

/// The accounts, refresh tokens (as SHA-256 digests only), email action codes, the project's settings and the
/// failed-sign-in counters, in SQLite through GRDB: `<dataDir>/auth.sqlite` (mode 0600), or in memory for tests
/// and `--ephemeral`. The tables are kept in this file's migrations; each kind of row has its own extension
/// (`AuthStore+Users`, `+Sessions`, `+OobCodes`).
public struct AuthStore: Sendable {
    /// The file name inside the data directory.
    public static let fileName = "auth.sqlite"

    let database: DatabaseQueue
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
        // v2: accounts without email or password (email link, custom token, Admin SDK), profile fields and custom
        // claims; refresh tokens as rotating sessions; email action codes; the project's settings.
        migrator.registerMigration("v2: Admin SDK accounts, sessions, email action codes, config") { db in
            try db.execute(
                sql: """
                    CREATE TABLE users_v2 (
                        uid TEXT PRIMARY KEY NOT NULL,
                        email TEXT UNIQUE,
                        display_name TEXT,
                        photo_url TEXT,
                        phone_number TEXT UNIQUE,
                        password_hash TEXT,
                        email_verified INTEGER NOT NULL DEFAULT 0,
                        disabled INTEGER NOT NULL DEFAULT 0,
                        email_link_signin INTEGER NOT NULL DEFAULT 0,
                        custom_attributes TEXT,
                        created_at_ms INTEGER NOT NULL,
                        last_login_at_ms INTEGER,
                        password_updated_at_ms INTEGER,
                        valid_since_s INTEGER NOT NULL,
                        last_refresh_at_ms INTEGER
                    );
                    INSERT INTO users_v2 (uid, email, display_name, password_hash, email_verified, disabled,
                        created_at_ms, last_login_at_ms, password_updated_at_ms, valid_since_s, last_refresh_at_ms)
                    SELECT uid, email, display_name, password_hash, email_verified, disabled, created_at_ms,
                        last_login_at_ms, password_updated_at_ms, valid_since_s, last_refresh_at_ms FROM users;
                    CREATE TABLE sessions (
                        token_sha256 BLOB PRIMARY KEY NOT NULL,
                        uid TEXT NOT NULL REFERENCES users(uid) ON DELETE CASCADE,
                        family BLOB NOT NULL,
                        provider TEXT NOT NULL,
                        extra_claims TEXT,
                        auth_time_s INTEGER NOT NULL,
                        created_at_ms INTEGER NOT NULL,
                        expires_at_ms INTEGER NOT NULL,
                        replaced INTEGER NOT NULL DEFAULT 0,
                        revoked INTEGER NOT NULL DEFAULT 0
                    );
                    INSERT INTO sessions (token_sha256, uid, family, provider, auth_time_s, created_at_ms,
                        expires_at_ms)
                    SELECT token_sha256, uid, token_sha256, 'password', created_at_ms / 1000, created_at_ms,
                        created_at_ms + 30 * 86400000 FROM refresh_tokens;
                    DROP TABLE refresh_tokens;
                    DROP TABLE users;
                    ALTER TABLE users_v2 RENAME TO users;
                    CREATE INDEX sessions_uid ON sessions(uid);
                    CREATE INDEX sessions_family ON sessions(family);
                    CREATE INDEX sessions_expiry ON sessions(expires_at_ms);
                    CREATE TABLE oob_codes (
                        code TEXT PRIMARY KEY NOT NULL,
                        request_type TEXT NOT NULL,
                        email TEXT NOT NULL,
                        new_email TEXT,
                        link TEXT NOT NULL,
                        created_at_ms INTEGER NOT NULL,
                        expires_at_ms INTEGER NOT NULL
                    );
                    CREATE TABLE config (
                        name TEXT PRIMARY KEY NOT NULL,
                        value TEXT NOT NULL
                    );
                    """)
        }
        return migrator
    }

    // MARK: Settings

    /// A project setting, or nil when it was never set.
    public func setting(_ name: String) async throws(AuthStoreError) -> String? {
        try await run { db in try String.fetchOne(db, sql: "SELECT value FROM config WHERE name = ?", arguments: [name]) }
    }

    /// Stores a project setting.
    public func setSetting(_ name: String, _ value: String) async throws(AuthStoreError) {
        try await run { db in
            try db.execute(
                sql: "INSERT INTO config (name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value",
                arguments: [name, value])
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

    func run<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(AuthStoreError) -> T {
        do {
            return try await database.write(body)
        } catch let error as AuthStoreError {
            throw error
        } catch {
            throw .database(path: path, reason: String(describing: error))
        }
    }
}

/// Milliseconds since 1970, as stored. Saturating: a date so far out that its count does not fit in 64 bits (only an
/// injected clock could make one; requests' dates are range-checked) is stored as the nearest bound, never a trap.
func milliseconds(_ date: Date) -> Int64 {
    saturatingInt64((date.timeIntervalSince1970 * 1000).rounded(.down))
}

/// Seconds since 1970, saturating like ``milliseconds(_:)``.
func seconds(_ date: Date) -> Int64 {
    saturatingInt64(date.timeIntervalSince1970.rounded(.down))
}

/// `value` as an `Int64`, clamped to its range (NaN is 0). `Double(Int64.max)` rounds up to 2^63, which `Int64(_:)`
/// would trap on, hence the strict upper comparison.
func saturatingInt64(_ value: Double) -> Int64 {
    guard !value.isNaN else { return 0 }
    if value >= 9_223_372_036_854_775_808.0 { return .max }
    if value <= -9_223_372_036_854_775_808.0 { return .min }
    return Int64(value)
}

func date(milliseconds: Int64) -> Date {
    Date(timeIntervalSince1970: TimeInterval(milliseconds) / 1000)
}
