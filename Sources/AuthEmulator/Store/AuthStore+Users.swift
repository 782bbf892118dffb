import Foundation
import GRDB

/// Accounts of the store's realm: insert, read by uid/email/phone number/provider id, list in uid order, save,
/// delete. An account's linked identity providers and second factors are rows of their own, written with it.
extension AuthStore {
    private static let columns = """
        uid, email, display_name, photo_url, phone_number, password_hash, email_verified, disabled, email_link_signin,
        custom_attributes, created_at_ms, last_login_at_ms, password_updated_at_ms, valid_since_s, last_refresh_at_ms,
        initial_email, custom_auth, anonymous
        """
    private static let placeholders = Array(repeating: "?", count: 19).joined(separator: ", ")

    /// Inserts a new account; `emailTaken`, `phoneNumberTaken`, `uidTaken` or `providerTaken` when one is in use
    /// (also under a race: the UNIQUE constraints decide).
    public func insertUser(_ user: AuthUserRecord) async throws(AuthStoreError) {
        let key = key
        try await write { db in
            try db.execute(
                sql: "INSERT INTO users (realm, \(Self.columns)) VALUES (\(Self.placeholders))",
                arguments: [key] + Self.arguments(user))
            try Self.writeLinks(db, user, realm: key)
        }
    }

    /// Replaces the stored fields of `user.uid` (its providers and second factors too) with `user`'s;
    /// `emailTaken` / `phoneNumberTaken` / `providerTaken` when another account holds one of them.
    public func saveUser(_ user: AuthUserRecord) async throws(AuthStoreError) {
        let key = key
        try await write { db in
            try db.execute(
                sql: """
                    UPDATE users SET uid = ?, email = ?, display_name = ?, photo_url = ?, phone_number = ?,
                        password_hash = ?, email_verified = ?, disabled = ?, email_link_signin = ?,
                        custom_attributes = ?, created_at_ms = ?, last_login_at_ms = ?, password_updated_at_ms = ?,
                        valid_since_s = ?, last_refresh_at_ms = ?, initial_email = ?, custom_auth = ?, anonymous = ?
                    WHERE realm = ? AND uid = ?
                    """,
                arguments: Self.arguments(user) + [key, user.uid])
            try db.execute(sql: "DELETE FROM user_providers WHERE realm = ? AND uid = ?", arguments: [key, user.uid])
            try db.execute(sql: "DELETE FROM mfa_enrollments WHERE realm = ? AND uid = ?", arguments: [key, user.uid])
            try Self.writeLinks(db, user, realm: key)
        }
    }

    /// Creates or overwrites the account `user.uid` in one transaction (an import with `allowOverwrite`): the old
    /// account's sessions, providers and factors go with it.
    public func replaceUser(_ user: AuthUserRecord) async throws(AuthStoreError) {
        let key = key
        try await write { db in
            try db.execute(sql: "DELETE FROM users WHERE realm = ? AND uid = ?", arguments: [key, user.uid])
            try db.execute(
                sql: "INSERT INTO users (realm, \(Self.columns)) VALUES (\(Self.placeholders))",
                arguments: [key] + Self.arguments(user))
            try Self.writeLinks(db, user, realm: key)
        }
    }

    /// The account with this uid.
    public func user(uid: String) async throws(AuthStoreError) -> AuthUserRecord? {
        try await fetchUsers("uid = ?", [uid]).first
    }

    /// The account with this canonical email.
    public func user(email: String) async throws(AuthStoreError) -> AuthUserRecord? {
        try await fetchUsers("email = ?", [email]).first
    }

    /// The account with this phone number.
    public func user(phoneNumber: String) async throws(AuthStoreError) -> AuthUserRecord? {
        try await fetchUsers("phone_number = ?", [phoneNumber]).first
    }

    /// The account linked to `rawId` at `providerId`.
    public func user(providerId: String, rawId: String) async throws(AuthStoreError) -> AuthUserRecord? {
        try await fetchUsers(
            "uid IN (SELECT uid FROM user_providers WHERE realm = users.realm AND provider_id = ? AND raw_id = ?)",
            [providerId, rawId]
        ).first
    }

    /// The accounts whose email, or a linked provider's email, is `email`.
    public func users(emailOrProviderEmail email: String) async throws(AuthStoreError) -> [AuthUserRecord] {
        let all = try await fetchUsers(
            "email = ? OR uid IN (SELECT uid FROM user_providers WHERE realm = users.realm AND email = ?)",
            [email, email])
        return all.sorted { ($0.email == email ? 0 : 1) < ($1.email == email ? 0 : 1) }
    }

    /// The identities linked at `providerId`, with their accounts (the emulator's IdP sign-in page lists them).
    public func identities(providerId: String) async throws(AuthStoreError) -> [FederatedIdentity] {
        let key = key
        return try await run { db in
            try String.fetchAll(
                db, sql: "SELECT info FROM user_providers WHERE realm = ? AND provider_id = ? ORDER BY raw_id",
                arguments: [key, providerId]
            ).compactMap { try? JSONDecoder().decode(FederatedIdentity.self, from: Data($0.utf8)) }
        }
    }

    /// Up to `limit` accounts in ascending uid order, starting after `uid` (from the first when nil).
    public func users(after uid: String?, limit: Int) async throws(AuthStoreError) -> [AuthUserRecord] {
        if let uid { return try await fetchUsers("uid > ?", [uid], suffix: "ORDER BY uid LIMIT ?", [limit]) }
        return try await fetchUsers("1", [], suffix: "ORDER BY uid LIMIT ?", [limit])
    }

    /// Every account, in uid order (ascending or descending).
    public func allUsers(descending: Bool = false) async throws(AuthStoreError) -> [AuthUserRecord] {
        try await fetchUsers("1", [], suffix: descending ? "ORDER BY uid DESC" : "ORDER BY uid")
    }

    /// The number of accounts.
    public func userCount() async throws(AuthStoreError) -> Int {
        let key = key
        return try await run { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM users WHERE realm = ?", arguments: [key]) ?? 0
        }
    }

    /// Records a successful sign-in.
    public func recordLogin(uid: String, at date: Date) async throws(AuthStoreError) {
        let key = key
        try await run { db in
            try db.execute(
                sql: "UPDATE users SET last_login_at_ms = ? WHERE realm = ? AND uid = ?",
                arguments: [milliseconds(date), key, uid])
        }
    }

    /// Records that tokens were issued.
    public func recordRefresh(uid: String, at date: Date) async throws(AuthStoreError) {
        let key = key
        try await run { db in
            try db.execute(
                sql: "UPDATE users SET last_refresh_at_ms = ? WHERE realm = ? AND uid = ?",
                arguments: [milliseconds(date), key, uid])
        }
    }

    /// Marks the account disabled (or enabled).
    public func setDisabled(uid: String, _ disabled: Bool) async throws(AuthStoreError) {
        let key = key
        try await run { db in
            try db.execute(
                sql: "UPDATE users SET disabled = ? WHERE realm = ? AND uid = ?", arguments: [disabled, key, uid])
        }
    }

    /// Deletes the account and, by cascade, its sessions, providers and factors; returns whether it existed.
    @discardableResult
    public func deleteUser(uid: String) async throws(AuthStoreError) -> Bool {
        let key = key
        return try await run { db in
            try db.execute(sql: "DELETE FROM users WHERE realm = ? AND uid = ?", arguments: [key, uid])
            return db.changesCount > 0
        }
    }

    /// Deletes every account of the realm (and their sessions and sign-in counters); email action and phone codes
    /// stay, as the Firebase emulator keeps them.
    public func deleteAllUsers() async throws(AuthStoreError) {
        let key = key
        try await run { db in
            try db.execute(sql: "DELETE FROM users WHERE realm = ?", arguments: [key])
            try db.execute(sql: "DELETE FROM login_failures WHERE realm = ?", arguments: [key])
        }
    }

    // MARK: Rows

    private static func arguments(_ user: AuthUserRecord) -> StatementArguments {
        [
            user.uid, user.email, user.displayName, user.photoURL, user.phoneNumber,
            user.passwordHash?.encoded ?? user.importedPassword?.encoded, user.emailVerified, user.disabled,
            user.emailLinkSignin, user.customAttributes, milliseconds(user.createdAt),
            user.lastLoginAt.map(milliseconds), user.passwordUpdatedAt.map(milliseconds), seconds(user.validSince),
            user.lastRefreshAt.map(milliseconds), user.initialEmail, user.customAuth, user.anonymous,
        ]
    }

    private static func writeLinks(_ db: Database, _ user: AuthUserRecord, realm: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        for identity in user.providers {
            try db.execute(
                sql: "INSERT INTO user_providers (realm, uid, provider_id, raw_id, info) VALUES (?, ?, ?, ?, ?)",
                arguments: [
                    realm, user.uid, identity.providerId, identity.rawId,
                    String(decoding: try encoder.encode(identity), as: UTF8.self),
                ])
        }
        for enrollment in user.mfaEnrollments {
            var phone: String?
            var secret: Data?
            switch enrollment.factor {
            case .totp(let bytes): secret = Data(bytes)
            case .phone(let number): phone = number
            }
            try db.execute(
                sql: """
                    INSERT INTO mfa_enrollments (realm, uid, enrollment_id, kind, display_name, enrolled_at_ms,
                        phone_number, totp_secret)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    realm, user.uid, enrollment.id, secret == nil ? "phone" : "totp", enrollment.displayName,
                    milliseconds(enrollment.enrolledAt), phone, secret,
                ])
        }
    }

    private func write(_ body: @escaping @Sendable (Database) throws -> Void) async throws(AuthStoreError) {
        let path = path
        do {
            try await database.write(body)
        } catch let error as DatabaseError {
            throw Self.constraintError(error, path: path)
        } catch {
            throw .database(path: path, reason: String(describing: error))
        }
    }

    private static func constraintError(_ error: DatabaseError, path: String) -> AuthStoreError {
        let message = error.message ?? ""
        switch error.extendedResultCode {
        case .SQLITE_CONSTRAINT_PRIMARYKEY where message.contains("user_providers"): return .providerTaken
        case .SQLITE_CONSTRAINT_PRIMARYKEY where message.contains("mfa_enrollments"): return .database(
            path: path, reason: "duplicate second factor id")
        case .SQLITE_CONSTRAINT_PRIMARYKEY: return .uidTaken
        case .SQLITE_CONSTRAINT_UNIQUE where message.contains("user_providers"): return .providerTaken
        case .SQLITE_CONSTRAINT_UNIQUE where message.contains("users.phone_number"): return .phoneNumberTaken
        case .SQLITE_CONSTRAINT_UNIQUE where message.contains("users.uid"): return .uidTaken
        case .SQLITE_CONSTRAINT_UNIQUE: return .emailTaken
        default: return .database(path: path, reason: String(describing: error))
        }
    }

    private func fetchUsers(
        _ condition: String, _ arguments: StatementArguments, suffix: String = "", _ suffixArguments: StatementArguments = []
    ) async throws(AuthStoreError) -> [AuthUserRecord] {
        let key = key
        let sql = "SELECT \(Self.columns) FROM users WHERE realm = ? AND (\(condition)) \(suffix)"
        let all: StatementArguments = [key] + arguments + suffixArguments
        return try await run { db in
            let users = try Row.fetchAll(db, sql: sql, arguments: all).map(Self.user(from:))
            return try users.map { try Self.withLinks($0, db, realm: key) }
        }
    }

    private static func withLinks(_ user: AuthUserRecord, _ db: Database, realm: String) throws -> AuthUserRecord {
        var user = user
        let decoder = JSONDecoder()
        user.providers = try String.fetchAll(
            db, sql: "SELECT info FROM user_providers WHERE realm = ? AND uid = ? ORDER BY rowid",
            arguments: [realm, user.uid]
        ).compactMap { try? decoder.decode(FederatedIdentity.self, from: Data($0.utf8)) }
        user.mfaEnrollments = try Row.fetchAll(
            db, sql: "SELECT * FROM mfa_enrollments WHERE realm = ? AND uid = ? ORDER BY enrolled_at_ms, rowid",
            arguments: [realm, user.uid]
        ).map { row in
            let secret: Data? = row["totp_secret"]
            let phone: String? = row["phone_number"]
            return MFAEnrollment(
                id: row["enrollment_id"], factor: secret.map { .totp(secret: [UInt8]($0)) } ?? .phone(phone ?? ""),
                displayName: row["display_name"], enrolledAt: date(milliseconds: row["enrolled_at_ms"]))
        }
        return user
    }

    private static func user(from row: Row) throws -> AuthUserRecord {
        let uid: String = row["uid"]
        var hash: PasswordHash?
        var imported: ImportedPasswordHash?
        if let encoded: String = row["password_hash"] {
            if let parsed = PasswordHash(encoded: encoded) {
                hash = parsed
            } else if let parsed = ImportedPasswordHash(encoded: encoded) {
                imported = parsed
            } else {
                throw AuthStoreError.corruptPasswordHash(uid: uid)
            }
        }
        let lastLogin: Int64? = row["last_login_at_ms"]
        let passwordUpdated: Int64? = row["password_updated_at_ms"]
        let lastRefresh: Int64? = row["last_refresh_at_ms"]
        var user = AuthUserRecord(
            uid: uid, email: row["email"], displayName: row["display_name"], photoURL: row["photo_url"],
            phoneNumber: row["phone_number"], passwordHash: hash, emailVerified: row["email_verified"],
            disabled: row["disabled"], emailLinkSignin: row["email_link_signin"],
            customAttributes: row["custom_attributes"], createdAt: date(milliseconds: row["created_at_ms"]),
            lastLoginAt: lastLogin.map { date(milliseconds: $0) },
            passwordUpdatedAt: passwordUpdated.map { date(milliseconds: $0) },
            validSince: Date(timeIntervalSince1970: TimeInterval(row["valid_since_s"] as Int64)),
            lastRefreshAt: lastRefresh.map { date(milliseconds: $0) })
        user.importedPassword = imported
        user.initialEmail = row["initial_email"]
        user.customAuth = row["custom_auth"]
        user.anonymous = row["anonymous"]
        return user
    }
}
