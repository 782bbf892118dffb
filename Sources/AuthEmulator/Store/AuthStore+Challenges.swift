import Crypto
import Foundation
import GRDB

/// A short-lived secret handed to a client and presented back once: a phone verification code's `sessionInfo`
/// (`phone`), a TOTP enrollment's `sessionInfo` (`totp-enrollment`), a second-factor sign-in's
/// `mfaPendingCredential` (`mfa-sign-in`). Looked up by the SHA-256 of the token; what the operation needs later is
/// in `payload`.
public struct PendingChallenge: Sendable, Equatable {
    /// What the token is for.
    public var kind: String
    /// The account it belongs to, when there is one yet.
    public var uid: String?
    /// What the operation stored with it.
    public var payload: [String: AuthJSON]
    /// When it was made.
    public var createdAt: Date
    /// When it stops working.
    public var expiresAt: Date

    /// Creates a record.
    public init(kind: String, uid: String?, payload: [String: AuthJSON], createdAt: Date, expiresAt: Date) {
        self.kind = kind
        self.uid = uid
        self.payload = payload
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

extension AuthStore {
    /// Stores `challenge` under `token` (its SHA-256 only), pruning expired challenges of every realm.
    public func insertChallenge(_ challenge: PendingChallenge, token: String) async throws(AuthStoreError) {
        let key = key
        let digest = Data(SHA256.hash(data: Array(token.utf8)))
        try await run { db in
            try db.execute(
                sql: "DELETE FROM pending_challenges WHERE expires_at_ms <= ?",
                arguments: [milliseconds(challenge.createdAt)])
            try db.execute(
                sql: """
                    INSERT INTO pending_challenges (token_sha256, realm, kind, uid, payload, created_at_ms, expires_at_ms)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    digest, key, challenge.kind, challenge.uid, AuthJSON.object(challenge.payload).description,
                    milliseconds(challenge.createdAt), milliseconds(challenge.expiresAt),
                ])
        }
    }

    /// The challenge of `kind` stored under `token` in this realm, expired or not.
    public func challenge(token: String, kind: String) async throws(AuthStoreError) -> PendingChallenge? {
        let key = key
        let digest = Data(SHA256.hash(data: Array(token.utf8)))
        return try await run { db in
            try Row.fetchOne(
                db, sql: "SELECT * FROM pending_challenges WHERE token_sha256 = ? AND realm = ? AND kind = ?",
                arguments: [digest, key, kind]
            ).map(Self.challenge(from:))
        }
    }

    /// Deletes the challenge under `token`; whether it was there (a token works once, even under a race).
    public func consumeChallenge(token: String) async throws(AuthStoreError) -> Bool {
        let key = key
        let digest = Data(SHA256.hash(data: Array(token.utf8)))
        return try await run { db in
            try db.execute(
                sql: "DELETE FROM pending_challenges WHERE token_sha256 = ? AND realm = ?", arguments: [digest, key])
            return db.changesCount > 0
        }
    }

    /// This realm's unexpired challenges of `kind`, oldest first.
    public func challenges(kind: String, at date: Date) async throws(AuthStoreError) -> [PendingChallenge] {
        let key = key
        return try await run { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT * FROM pending_challenges WHERE realm = ? AND kind = ? AND expires_at_ms > ?
                    ORDER BY created_at_ms, rowid
                    """,
                arguments: [key, kind, milliseconds(date)]
            ).map(Self.challenge(from:))
        }
    }

    private static func challenge(from row: Row) -> PendingChallenge {
        let payload: String = row["payload"]
        return PendingChallenge(
            kind: row["kind"], uid: row["uid"], payload: AuthJSON.parse(payload)?.objectValue ?? [:],
            createdAt: date(milliseconds: row["created_at_ms"]), expiresAt: date(milliseconds: row["expires_at_ms"]))
    }
}
