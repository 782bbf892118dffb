import Foundation
import GRDB

/// Tenants of a project and identity provider configurations of a realm, kept as the JSON objects the Admin API
/// reads and writes (Identity Platform's `Tenant`, `OAuthIdpConfig`, `InboundSamlConfig`).
extension AuthStore {
    // MARK: Tenants (rows of the store's project)

    /// The tenant's configuration, nil when the project has no such tenant.
    public func tenant(_ tenantId: String) async throws(AuthStoreError) -> [String: AuthJSON]? {
        let project = realm.projectId
        return try await run { db in
            try String.fetchOne(
                db, sql: "SELECT config FROM tenants WHERE project = ? AND tenant_id = ?", arguments: [project, tenantId]
            ).flatMap { AuthJSON.parse($0)?.objectValue }
        }
    }

    /// Stores a tenant's configuration; with `onlyIfNew`, returns false (and writes nothing) when it exists.
    @discardableResult
    public func saveTenant(_ tenantId: String, _ config: [String: AuthJSON], onlyIfNew: Bool = false)
        async throws(AuthStoreError) -> Bool
    {
        let project = realm.projectId
        let text = AuthJSON.object(config).description
        return try await run { db in
            if onlyIfNew {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO tenants (project, tenant_id, config) VALUES (?, ?, ?)",
                    arguments: [project, tenantId, text])
                return db.changesCount > 0
            }
            try db.execute(
                sql: """
                    INSERT INTO tenants (project, tenant_id, config) VALUES (?, ?, ?)
                    ON CONFLICT(project, tenant_id) DO UPDATE SET config = excluded.config
                    """,
                arguments: [project, tenantId, text])
            return true
        }
    }

    /// The project's tenants after `pageToken` in id order, at most `limit` (all when nil).
    public func tenants(after pageToken: String?, limit: Int?) async throws(AuthStoreError) -> [[String: AuthJSON]] {
        let project = realm.projectId
        return try await run { db in
            try String.fetchAll(
                db,
                sql: "SELECT config FROM tenants WHERE project = ? AND tenant_id > ? ORDER BY tenant_id LIMIT ?",
                arguments: [project, pageToken ?? "", limit ?? -1]
            ).compactMap { AuthJSON.parse($0)?.objectValue }
        }
    }

    /// Deletes a tenant and everything in it (accounts, sessions, codes, settings, provider configurations).
    @discardableResult
    public func deleteTenant(_ tenantId: String) async throws(AuthStoreError) -> Bool {
        let project = realm.projectId
        let key = AuthRealm(projectId: project, tenantId: tenantId).key
        return try await run { db in
            try db.execute(sql: "DELETE FROM tenants WHERE project = ? AND tenant_id = ?", arguments: [project, tenantId])
            let existed = db.changesCount > 0
            for table in ["users", "oob_codes", "config", "login_failures", "pending_challenges", "idp_configs"] {
                try db.execute(sql: "DELETE FROM \(table) WHERE realm = ?", arguments: [key])
            }
            return existed
        }
    }

    // MARK: Identity provider configurations (rows of the store's realm)

    /// A configuration of `kind` (`oidc`, `saml`), nil when absent.
    public func providerConfig(kind: String, id: String) async throws(AuthStoreError) -> [String: AuthJSON]? {
        let key = key
        return try await run { db in
            try String.fetchOne(
                db, sql: "SELECT config FROM idp_configs WHERE realm = ? AND kind = ? AND provider_id = ?",
                arguments: [key, kind, id]
            ).flatMap { AuthJSON.parse($0)?.objectValue }
        }
    }

    /// Stores a configuration; with `onlyIfNew`, returns false (and writes nothing) when it exists.
    @discardableResult
    public func saveProviderConfig(kind: String, id: String, _ config: [String: AuthJSON], onlyIfNew: Bool = false)
        async throws(AuthStoreError) -> Bool
    {
        let key = key
        let text = AuthJSON.object(config).description
        return try await run { db in
            if onlyIfNew {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO idp_configs (realm, kind, provider_id, config) VALUES (?, ?, ?, ?)",
                    arguments: [key, kind, id, text])
                return db.changesCount > 0
            }
            try db.execute(
                sql: "UPDATE idp_configs SET config = ? WHERE realm = ? AND kind = ? AND provider_id = ?",
                arguments: [text, key, kind, id])
            return db.changesCount > 0
        }
    }

    /// Configurations of `kind` after `pageToken` in id order, at most `limit`.
    public func providerConfigs(kind: String, after pageToken: String?, limit: Int) async throws(AuthStoreError)
        -> [[String: AuthJSON]]
    {
        let key = key
        return try await run { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT config FROM idp_configs WHERE realm = ? AND kind = ? AND provider_id > ?
                    ORDER BY provider_id LIMIT ?
                    """,
                arguments: [key, kind, pageToken ?? "", limit]
            ).compactMap { AuthJSON.parse($0)?.objectValue }
        }
    }

    /// Deletes a configuration; whether it existed.
    @discardableResult
    public func deleteProviderConfig(kind: String, id: String) async throws(AuthStoreError) -> Bool {
        let key = key
        return try await run { db in
            try db.execute(
                sql: "DELETE FROM idp_configs WHERE realm = ? AND kind = ? AND provider_id = ?",
                arguments: [key, kind, id])
            return db.changesCount > 0
        }
    }
}
