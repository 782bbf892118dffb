import Foundation
import GRDB

/// The kinds of email action ("out-of-band") codes, named as the API's `requestType`.
public enum OobRequestType: String, Codable, Sendable, CaseIterable {
    /// Reset a forgotten password (`mode=resetPassword` in the link).
    case passwordReset = "PASSWORD_RESET"
    /// Confirm that the user owns the email (`mode=verifyEmail`).
    case verifyEmail = "VERIFY_EMAIL"
    /// Sign in with a link sent to the email (`mode=signIn`).
    case emailSignIn = "EMAIL_SIGNIN"
    /// Confirm a new email before it replaces the account's (`mode=verifyAndChangeEmail`).
    case verifyAndChangeEmail = "VERIFY_AND_CHANGE_EMAIL"
    /// Undo an email change, sent to the old address (`mode=recoverEmail`).
    case recoverEmail = "RECOVER_EMAIL"

    /// The `mode` of the action link.
    public var mode: String {
        switch self {
        case .passwordReset: return "resetPassword"
        case .verifyEmail: return "verifyEmail"
        case .emailSignIn: return "signIn"
        case .verifyAndChangeEmail: return "verifyAndChangeEmail"
        case .recoverEmail: return "recoverEmail"
        }
    }
}

/// An email action code the service "sent": the Firebase emulator sends no email, it keeps the codes and lists
/// them (`GET /emulator/v1/projects/{p}/oobCodes`). Codes are single-use and expire.
public struct OobCodeRecord: Sendable, Equatable {
    /// The code (`oobCode`).
    public var code: String
    /// What the code does.
    public var requestType: OobRequestType
    /// The canonical email it was sent to.
    public var email: String
    /// The new email a `VERIFY_AND_CHANGE_EMAIL` code confirms.
    public var newEmail: String?
    /// The link that would have been emailed.
    public var link: String
    /// When it stops working.
    public var expiresAt: Date

    /// Creates a record.
    public init(
        code: String, requestType: OobRequestType, email: String, newEmail: String? = nil, link: String,
        expiresAt: Date
    ) {
        self.code = code
        self.requestType = requestType
        self.email = email
        self.newEmail = newEmail
        self.link = link
        self.expiresAt = expiresAt
    }
}

extension AuthStore {
    /// Stores a new code.
    public func insertOobCode(_ record: OobCodeRecord, at date: Date) async throws(AuthStoreError) {
        let key = key
        try await run { db in
            try db.execute(
                sql: """
                    INSERT INTO oob_codes (code, realm, request_type, email, new_email, link, created_at_ms,
                        expires_at_ms)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    record.code, key, record.requestType.rawValue, record.email, record.newEmail, record.link,
                    milliseconds(date), milliseconds(record.expiresAt),
                ])
        }
    }

    /// The code, expired or not (the caller tells `EXPIRED_OOB_CODE` from `INVALID_OOB_CODE`).
    public func oobCode(_ code: String) async throws(AuthStoreError) -> OobCodeRecord? {
        let key = key
        return try await run { db in
            try Row.fetchOne(db, sql: "SELECT * FROM oob_codes WHERE code = ? AND realm = ?", arguments: [code, key])
                .flatMap(Self.oobRecord)
        }
    }

    /// Consumes the code: deletes it and returns whether it was still there (a code works once, even when two
    /// requests race for it).
    public func consumeOobCode(_ code: String) async throws(AuthStoreError) -> Bool {
        let key = key
        return try await run { db in
            try db.execute(sql: "DELETE FROM oob_codes WHERE code = ? AND realm = ?", arguments: [code, key])
            return db.changesCount > 0
        }
    }

    /// The unexpired codes, oldest first; expired ones are deleted.
    public func oobCodes(at date: Date) async throws(AuthStoreError) -> [OobCodeRecord] {
        let key = key
        return try await run { db in
            try db.execute(sql: "DELETE FROM oob_codes WHERE expires_at_ms <= ?", arguments: [milliseconds(date)])
            return try Row.fetchAll(
                db, sql: "SELECT * FROM oob_codes WHERE realm = ? ORDER BY created_at_ms, code", arguments: [key]
            ).compactMap(Self.oobRecord)
        }
    }

    private static func oobRecord(_ row: Row) -> OobCodeRecord? {
        guard let type = OobRequestType(rawValue: row["request_type"]) else { return nil }
        return OobCodeRecord(
            code: row["code"], requestType: type, email: row["email"], newEmail: row["new_email"], link: row["link"],
            expiresAt: date(milliseconds: row["expires_at_ms"]))
    }
}
