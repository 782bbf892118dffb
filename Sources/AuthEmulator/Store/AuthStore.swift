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
    /// Another account is linked to this identity provider id.
    case providerTaken
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
        case .providerTaken: return "another account is linked to this identity provider user"
        case .corruptPasswordHash(let uid): return "the stored password hash of account \(uid) is not a scrypt PHC string nor an imported hash"
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
    /// The project or tenant whose rows this view reads and writes; every realm's accounts, sessions, codes and
    /// settings live apart in the same database.
    public let realm: AuthRealm

    /// Opens (creating and migrating when needed) the database at `path` and restricts it to its owner; the view is
    /// `realm`'s, which is also where rows from before realms existed (schema v2) are moved.
    public static func open(path: String, realm: AuthRealm = .defaultProject) throws(AuthStoreError) -> AuthStore {
        do {
            let queue = try DatabaseQueue(path: path)
            try migrator(defaultRealm: realm).migrate(queue)
            try SecureFile.restrictToOwner(path)
            return AuthStore(database: queue, path: path, realm: realm)
        } catch {
            throw .database(path: path, reason: String(describing: error))
        }
    }

    /// An empty in-memory store, seen from `realm`.
    public static func inMemory(realm: AuthRealm = .defaultProject) throws(AuthStoreError) -> AuthStore {
        do {
            let queue = try DatabaseQueue()
            try migrator(defaultRealm: realm).migrate(queue)
            return AuthStore(database: queue, path: ":memory:", realm: realm)
        } catch {
            throw .database(path: ":memory:", reason: String(describing: error))
        }
    }

    private init(database: DatabaseQueue, path: String, realm: AuthRealm) {
        self.database = database
        self.path = path
        self.realm = realm
    }

    /// The same database seen from another realm.
    public func scoped(to realm: AuthRealm) -> AuthStore {
        AuthStore(database: database, path: path, realm: realm)
    }

    /// The realm's key in the rows: `project` or `project/tenant`.
    var key: String { realm.key }

    private static func migrator(defaultRealm: AuthRealm) -> DatabaseMigrator {
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
        // v3: realms (any project id, and tenants), each with its own accounts, sessions, codes, settings and
        // counters; imported password hashes; federated providers, second factors, phone verification codes,
        // tenants and identity provider configurations. Rows from v2 belong to the realm the store is opened for.
        migrator.registerMigration("v3: realms, providers, second factors, tenants, provider configs") { db in
            try db.execute(
                sql: """
                    CREATE TABLE users_v3 (
                        realm TEXT NOT NULL,
                        uid TEXT NOT NULL,
                        email TEXT,
                        display_name TEXT,
                        photo_url TEXT,
                        phone_number TEXT,
                        password_hash TEXT,
                        email_verified INTEGER NOT NULL DEFAULT 0,
                        disabled INTEGER NOT NULL DEFAULT 0,
                        email_link_signin INTEGER NOT NULL DEFAULT 0,
                        custom_attributes TEXT,
                        created_at_ms INTEGER NOT NULL,
                        last_login_at_ms INTEGER,
                        password_updated_at_ms INTEGER,
                        valid_since_s INTEGER NOT NULL,
                        last_refresh_at_ms INTEGER,
                        initial_email TEXT,
                        custom_auth INTEGER NOT NULL DEFAULT 0,
                        anonymous INTEGER NOT NULL DEFAULT 0,
                        PRIMARY KEY (realm, uid),
                        UNIQUE (realm, email),
                        UNIQUE (realm, phone_number)
                    );
                    INSERT INTO users_v3 (realm, uid, email, display_name, photo_url, phone_number, password_hash,
                        email_verified, disabled, email_link_signin, custom_attributes, created_at_ms, last_login_at_ms,
                        password_updated_at_ms, valid_since_s, last_refresh_at_ms)
                    SELECT :realm, uid, email, display_name, photo_url, phone_number, password_hash, email_verified,
                        disabled, email_link_signin, custom_attributes, created_at_ms, last_login_at_ms,
                        password_updated_at_ms, valid_since_s, last_refresh_at_ms FROM users;
                    CREATE TABLE sessions_v3 (
                        token_sha256 BLOB PRIMARY KEY NOT NULL,
                        realm TEXT NOT NULL,
                        uid TEXT NOT NULL,
                        family BLOB NOT NULL,
                        provider TEXT NOT NULL,
                        extra_claims TEXT,
                        second_factor TEXT,
                        auth_time_s INTEGER NOT NULL,
                        created_at_ms INTEGER NOT NULL,
                        expires_at_ms INTEGER NOT NULL,
                        replaced INTEGER NOT NULL DEFAULT 0,
                        revoked INTEGER NOT NULL DEFAULT 0,
                        FOREIGN KEY (realm, uid) REFERENCES users_v3(realm, uid) ON DELETE CASCADE
                    );
                    INSERT INTO sessions_v3 (token_sha256, realm, uid, family, provider, extra_claims, auth_time_s,
                        created_at_ms, expires_at_ms, replaced, revoked)
                    SELECT token_sha256, :realm, uid, family, provider, extra_claims, auth_time_s, created_at_ms,
                        expires_at_ms, replaced, revoked FROM sessions;
                    CREATE TABLE oob_codes_v3 (
                        code TEXT PRIMARY KEY NOT NULL,
                        realm TEXT NOT NULL,
                        request_type TEXT NOT NULL,
                        email TEXT NOT NULL,
                        new_email TEXT,
                        link TEXT NOT NULL,
                        created_at_ms INTEGER NOT NULL,
                        expires_at_ms INTEGER NOT NULL
                    );
                    INSERT INTO oob_codes_v3 (code, realm, request_type, email, new_email, link, created_at_ms,
                        expires_at_ms)
                    SELECT code, :realm, request_type, email, new_email, link, created_at_ms, expires_at_ms
                    FROM oob_codes;
                    CREATE TABLE config_v3 (
                        realm TEXT NOT NULL,
                        name TEXT NOT NULL,
                        value TEXT NOT NULL,
                        PRIMARY KEY (realm, name)
                    );
                    INSERT INTO config_v3 (realm, name, value) SELECT :realm, name, value FROM config;
                    CREATE TABLE login_failures_v3 (
                        realm TEXT NOT NULL,
                        email TEXT NOT NULL,
                        failures INTEGER NOT NULL,
                        window_start_ms INTEGER NOT NULL,
                        PRIMARY KEY (realm, email)
                    );
                    INSERT INTO login_failures_v3 (realm, email, failures, window_start_ms)
                    SELECT :realm, email, failures, window_start_ms FROM login_failures;
                    DROP TABLE sessions;
                    DROP TABLE users;
                    DROP TABLE oob_codes;
                    DROP TABLE config;
                    DROP TABLE login_failures;
                    ALTER TABLE users_v3 RENAME TO users;
                    ALTER TABLE sessions_v3 RENAME TO sessions;
                    ALTER TABLE oob_codes_v3 RENAME TO oob_codes;
                    ALTER TABLE config_v3 RENAME TO config;
                    ALTER TABLE login_failures_v3 RENAME TO login_failures;
                    CREATE INDEX sessions_user ON sessions(realm, uid);
                    CREATE INDEX sessions_family ON sessions(family);
                    CREATE INDEX sessions_expiry ON sessions(expires_at_ms);
                    CREATE INDEX oob_codes_realm ON oob_codes(realm, created_at_ms);
                    CREATE TABLE user_providers (
                        realm TEXT NOT NULL,
                        uid TEXT NOT NULL,
                        provider_id TEXT NOT NULL,
                        raw_id TEXT NOT NULL,
                        info TEXT NOT NULL,
                        PRIMARY KEY (realm, uid, provider_id),
                        UNIQUE (realm, provider_id, raw_id),
                        FOREIGN KEY (realm, uid) REFERENCES users(realm, uid) ON DELETE CASCADE
                    );
                    CREATE TABLE mfa_enrollments (
                        realm TEXT NOT NULL,
                        uid TEXT NOT NULL,
                        enrollment_id TEXT NOT NULL,
                        kind TEXT NOT NULL,
                        display_name TEXT,
                        enrolled_at_ms INTEGER NOT NULL,
                        phone_number TEXT,
                        totp_secret BLOB,
                        PRIMARY KEY (realm, uid, enrollment_id),
                        FOREIGN KEY (realm, uid) REFERENCES users(realm, uid) ON DELETE CASCADE
                    );
                    CREATE TABLE pending_challenges (
                        token_sha256 BLOB PRIMARY KEY NOT NULL,
                        realm TEXT NOT NULL,
                        kind TEXT NOT NULL,
                        uid TEXT,
                        payload TEXT NOT NULL,
                        created_at_ms INTEGER NOT NULL,
                        expires_at_ms INTEGER NOT NULL
                    );
                    CREATE INDEX pending_challenges_realm ON pending_challenges(realm, kind, created_at_ms);
                    CREATE TABLE tenants (
                        project TEXT NOT NULL,
                        tenant_id TEXT NOT NULL,
                        config TEXT NOT NULL,
                        PRIMARY KEY (project, tenant_id)
                    );
                    CREATE TABLE idp_configs (
                        realm TEXT NOT NULL,
                        kind TEXT NOT NULL,
                        provider_id TEXT NOT NULL,
                        config TEXT NOT NULL,
                        PRIMARY KEY (realm, kind, provider_id)
                    );
                    """,
                arguments: ["realm": defaultRealm.key])
        }
        return migrator
    }

    // MARK: Settings

    /// A project setting, or nil when it was never set.
    public func setting(_ name: String) async throws(AuthStoreError) -> String? {
        let key = key
        return try await run { db in
            try String.fetchOne(db, sql: "SELECT value FROM config WHERE realm = ? AND name = ?", arguments: [key, name])
        }
    }

    /// Stores a project setting.
    public func setSetting(_ name: String, _ value: String) async throws(AuthStoreError) {
        let key = key
        try await run { db in
            try db.execute(
                sql: """
                    INSERT INTO config (realm, name, value) VALUES (?, ?, ?)
                    ON CONFLICT(realm, name) DO UPDATE SET value = excluded.value
                    """,
                arguments: [key, name, value])
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
        let key = key
        return try await run { db in
            try db.execute(
                sql: "DELETE FROM login_failures WHERE window_start_ms <= ?", arguments: [now - windowMilliseconds])
            let row = try Row.fetchOne(
                db, sql: "SELECT failures, window_start_ms FROM login_failures WHERE realm = ? AND email = ?",
                arguments: [key, email])
            let failures: Int = row?["failures"] ?? 0
            if failures >= policy.maxFailures { return .tooManyAttempts }
            if row == nil {
                try db.execute(
                    sql: "INSERT INTO login_failures (realm, email, failures, window_start_ms) VALUES (?, ?, 1, ?)",
                    arguments: [key, email, now])
            } else {
                try db.execute(
                    sql: "UPDATE login_failures SET failures = failures + 1 WHERE realm = ? AND email = ?",
                    arguments: [key, email])
            }
            return .allowed
        }
    }

    /// Clears the failure counter of `email` after a successful sign-in.
    public func clearLoginFailures(email: String) async throws(AuthStoreError) {
        let key = key
        try await run { db in
            try db.execute(sql: "DELETE FROM login_failures WHERE realm = ? AND email = ?", arguments: [key, email])
        }
    }

    /// The failures counted for `email` in its current window (0 when none).
    public func loginFailures(email: String) async throws(AuthStoreError) -> Int {
        let key = key
        return try await run { db in
            try Int.fetchOne(
                db, sql: "SELECT failures FROM login_failures WHERE realm = ? AND email = ?", arguments: [key, email]) ?? 0
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
