import Foundation
import GRDB

/// Accounts: insert, read by uid/email/phone number, list in uid order, save, delete.
extension AuthStore {
    private static let columns = """
        uid, email, display_name, photo_url, phone_number, password_hash, email_verified, disabled, email_link_signin,
        custom_attributes, created_at_ms, last_login_at_ms, password_updated_at_ms, valid_since_s, last_refresh_at_ms
        """

    /// Inserts a new account; `emailTaken`, `phoneNumberTaken` or `uidTaken` when one is in use (also under a
    /// race: the UNIQUE constraints decide).
    public func insertUser(_ user: AuthUserRecord) async throws(AuthStoreError) {
        let arguments = Self.arguments(user)
        let path = path
        do {
            try await database.write { db in
                try db.execute(
                    sql: "INSERT INTO users (\(Self.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    arguments: arguments)
            }
        } catch let error as DatabaseError {
            throw Self.constraintError(error, path: path)
        } catch {
            throw .database(path: path, reason: String(describing: error))
        }
    }

    /// Replaces the stored fields of `user.uid` with `user`'s; `emailTaken` / `phoneNumberTaken` when another
    /// account holds the new email or phone number.
    public func saveUser(_ user: AuthUserRecord) async throws(AuthStoreError) {
        let arguments = Self.arguments(user) + [user.uid]
        let path = path
        do {
            try await database.write { db in
                try db.execute(
                    sql: """
                        UPDATE users SET uid = ?, email = ?, display_name = ?, photo_url = ?, phone_number = ?,
                            password_hash = ?, email_verified = ?, disabled = ?, email_link_signin = ?,
                            custom_attributes = ?, created_at_ms = ?, last_login_at_ms = ?, password_updated_at_ms = ?,
                            valid_since_s = ?, last_refresh_at_ms = ?
                        WHERE uid = ?
                        """,
                    arguments: arguments)
            }
        } catch let error as DatabaseError {
            throw Self.constraintError(error, path: path)
        } catch {
            throw .database(path: path, reason: String(describing: error))
        }
    }

    /// The account with this uid.
    public func user(uid: String) async throws(AuthStoreError) -> AuthUserRecord? {
        try await fetchUsers(sql: "SELECT \(Self.columns) FROM users WHERE uid = ?", arguments: [uid]).first
    }

    /// The account with this canonical email.
    public func user(email: String) async throws(AuthStoreError) -> AuthUserRecord? {
        try await fetchUsers(sql: "SELECT \(Self.columns) FROM users WHERE email = ?", arguments: [email]).first
    }

    /// The account with this phone number.
    public func user(phoneNumber: String) async throws(AuthStoreError) -> AuthUserRecord? {
        try await fetchUsers(sql: "SELECT \(Self.columns) FROM users WHERE phone_number = ?", arguments: [phoneNumber])
            .first
    }

    /// Up to `limit` accounts in ascending uid order, starting after `uid` (from the first when nil).
    public func users(after uid: String?, limit: Int) async throws(AuthStoreError) -> [AuthUserRecord] {
        if let uid {
            return try await fetchUsers(
                sql: "SELECT \(Self.columns) FROM users WHERE uid > ? ORDER BY uid LIMIT ?", arguments: [uid, limit])
        }
        return try await fetchUsers(sql: "SELECT \(Self.columns) FROM users ORDER BY uid LIMIT ?", arguments: [limit])
    }

    /// The number of accounts.
    public func userCount() async throws(AuthStoreError) -> Int {
        try await run { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM users") ?? 0 }
    }

    /// Records a successful sign-in.
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

    /// Marks the account disabled (or enabled).
    public func setDisabled(uid: String, _ disabled: Bool) async throws(AuthStoreError) {
        try await run { db in
            try db.execute(sql: "UPDATE users SET disabled = ? WHERE uid = ?", arguments: [disabled, uid])
        }
    }

    /// Deletes the account and, by cascade, its sessions; returns whether it existed.
    @discardableResult
    public func deleteUser(uid: String) async throws(AuthStoreError) -> Bool {
        try await run { db in
            try db.execute(sql: "DELETE FROM users WHERE uid = ?", arguments: [uid])
            return db.changesCount > 0
        }
    }

    /// Deletes every account (and their sessions and sign-in counters); email action codes stay, as the Firebase
    /// emulator keeps them.
    public func deleteAllUsers() async throws(AuthStoreError) {
        try await run { db in
            try db.execute(sql: "DELETE FROM sessions; DELETE FROM users; DELETE FROM login_failures;")
        }
    }

    // MARK: Rows

    private static func arguments(_ user: AuthUserRecord) -> StatementArguments {
        [
            user.uid, user.email, user.displayName, user.photoURL, user.phoneNumber, user.passwordHash?.encoded,
            user.emailVerified, user.disabled, user.emailLinkSignin, user.customAttributes,
            milliseconds(user.createdAt), user.lastLoginAt.map(milliseconds), user.passwordUpdatedAt.map(milliseconds),
            seconds(user.validSince), user.lastRefreshAt.map(milliseconds),
        ]
    }

    private static func constraintError(_ error: DatabaseError, path: String) -> AuthStoreError {
        let message = error.message ?? ""
        switch error.extendedResultCode {
        case .SQLITE_CONSTRAINT_PRIMARYKEY: return .uidTaken
        case .SQLITE_CONSTRAINT_UNIQUE where message.contains("users.phone_number"): return .phoneNumberTaken
        case .SQLITE_CONSTRAINT_UNIQUE where message.contains("users.uid"): return .uidTaken
        case .SQLITE_CONSTRAINT_UNIQUE: return .emailTaken
        default: return .database(path: path, reason: String(describing: error))
        }
    }

    private func fetchUsers(sql: String, arguments: StatementArguments) async throws(AuthStoreError)
        -> [AuthUserRecord]
    {
        try await run { db in try Row.fetchAll(db, sql: sql, arguments: arguments).map(Self.user(from:)) }
    }

    private static func user(from row: Row) throws -> AuthUserRecord {
        let uid: String = row["uid"]
        var hash: PasswordHash?
        if let encoded: String = row["password_hash"] {
            guard let parsed = PasswordHash(encoded: encoded) else { throw AuthStoreError.corruptPasswordHash(uid: uid) }
            hash = parsed
        }
        let lastLogin: Int64? = row["last_login_at_ms"]
        let passwordUpdated: Int64? = row["password_updated_at_ms"]
        let lastRefresh: Int64? = row["last_refresh_at_ms"]
        return AuthUserRecord(
            uid: uid, email: row["email"], displayName: row["display_name"], photoURL: row["photo_url"],
            phoneNumber: row["phone_number"], passwordHash: hash, emailVerified: row["email_verified"],
            disabled: row["disabled"], emailLinkSignin: row["email_link_signin"],
            customAttributes: row["custom_attributes"], createdAt: date(milliseconds: row["created_at_ms"]),
            lastLoginAt: lastLogin.map { date(milliseconds: $0) },
            passwordUpdatedAt: passwordUpdated.map { date(milliseconds: $0) },
            validSince: Date(timeIntervalSince1970: TimeInterval(row["valid_since_s"] as Int64)),
            lastRefreshAt: lastRefresh.map { date(milliseconds: $0) })
    }
}
