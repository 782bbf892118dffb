import AuthEmulator
import Crypto
import Foundation
import GRDB
import Testing

/// A data directory written by the first version of the service (schema v1: every account had an email and a
/// password; refresh tokens never rotated) keeps working after the upgrade.
@Suite("store migration v1 → v2")
struct AuthMigrationTests {
    @Test("accounts and refresh tokens from a v1 database survive the migration")
    func migratesV1() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = (directory as NSString).appendingPathComponent(AuthStore.fileName)
        let hash = try PasswordHasher(parameters: fastPolicy.scrypt).hash("v1-password")
        let refreshToken = "legacy-refresh-token"
        let digest = Data(SHA256.hash(data: Array(refreshToken.utf8)))
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        do {
            let queue = try DatabaseQueue(path: path)
            try await queue.write { db in
                try db.execute(
                    sql: """
                        CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                        INSERT INTO grdb_migrations VALUES ('v1: users, refresh tokens, login failures');
                        CREATE TABLE users (uid TEXT PRIMARY KEY NOT NULL, email TEXT NOT NULL UNIQUE, display_name TEXT,
                            password_hash TEXT NOT NULL, email_verified INTEGER NOT NULL DEFAULT 0,
                            disabled INTEGER NOT NULL DEFAULT 0, created_at_ms INTEGER NOT NULL,
                            last_login_at_ms INTEGER NOT NULL, password_updated_at_ms INTEGER NOT NULL,
                            valid_since_s INTEGER NOT NULL, last_refresh_at_ms INTEGER);
                        CREATE TABLE refresh_tokens (token_sha256 BLOB PRIMARY KEY NOT NULL,
                            uid TEXT NOT NULL REFERENCES users(uid) ON DELETE CASCADE, created_at_ms INTEGER NOT NULL);
                        CREATE INDEX refresh_tokens_uid ON refresh_tokens(uid);
                        CREATE TABLE login_failures (email TEXT PRIMARY KEY NOT NULL, failures INTEGER NOT NULL,
                            window_start_ms INTEGER NOT NULL);
                        """)
                try db.execute(
                    sql: "INSERT INTO users VALUES ('OLDUID', 'old@example.com', 'Old', ?, 0, 0, ?, ?, ?, ?, NULL)",
                    arguments: [hash.encoded, now, now, now, now / 1000 - 10])
                try db.execute(sql: "INSERT INTO refresh_tokens VALUES (?, 'OLDUID', ?)", arguments: [digest, now])
            }
        }
        let emulator = try await AuthEmulator.open(dataDirectory: directory, projectId: "demo-carchain", policy: fastPolicy)
        let user = try #require(try await emulator.store.user(uid: "OLDUID"))
        #expect(user.email == "old@example.com" && user.displayName == "Old" && user.passwordHash == hash)
        let refreshed = try await emulator.refresh(.init(refreshToken: refreshToken))
        #expect(refreshed.userId == "OLDUID")
        _ = try await emulator.signInWithPassword(.init(email: "old@example.com", password: "v1-password"))
        // The migrated schema takes the new kinds of account.
        _ = try await emulator.createAccount(.init(email: nil, password: nil, localId: "no-email"))
    }
}

