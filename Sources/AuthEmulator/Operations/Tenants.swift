import Foundation

/// What a realm allows: a project allows everything (as the Firebase emulator's projects do); a tenant what its
/// configuration says (Identity Platform's `Tenant`).
struct RealmSettings: Sendable {
    var allowPasswordSignup = true
    var enableEmailLinkSignin = true
    var enableAnonymousUser = true
    var disableAuth = false
    /// `mfaConfig.state` is `ENABLED` or `MANDATORY`.
    var mfaEnabled = true
    /// `PHONE_SMS` is among `mfaConfig.enabledProviders`.
    var phoneMFA = true
    /// A `totpProviderConfig` with state `ENABLED` is among `mfaConfig.providerConfigs`.
    var totpMFA = true
    /// The TOTP codes accepted either side of now (`adjacentIntervals`, 0–10, default 5).
    var totpAdjacentIntervals = 5

    init() {}

    /// The settings of a tenant's or project's configuration object.
    init(tenant config: [String: AuthJSON], mfaKey: String = "mfaConfig") {
        allowPasswordSignup = config["allowPasswordSignup"]?.boolValue ?? false
        enableEmailLinkSignin = config["enableEmailLinkSignin"]?.boolValue ?? false
        enableAnonymousUser = config["enableAnonymousUser"]?.boolValue ?? false
        disableAuth = config["disableAuth"]?.boolValue ?? false
        applyMFA(config[mfaKey]?.objectValue ?? [:])
    }

    mutating func applyMFA(_ mfa: [String: AuthJSON]) {
        let state = mfa["state"]?.stringValue ?? "DISABLED"
        mfaEnabled = state == "ENABLED" || state == "MANDATORY"
        phoneMFA = mfaEnabled && (mfa["enabledProviders"]?.arrayValue ?? []).contains(.string("PHONE_SMS"))
        totpMFA = false
        for provider in mfa["providerConfigs"]?.arrayValue ?? [] {
            guard let object = provider.objectValue, let totp = object["totpProviderConfig"]?.objectValue,
                object["state"]?.stringValue == "ENABLED"
            else { continue }
            totpMFA = mfaEnabled
            if case .integer(let intervals) = totp["adjacentIntervals"], (0...10).contains(intervals) {
                totpAdjacentIntervals = Int(intervals)
            }
        }
    }
}

extension AuthEmulator {
    /// The TOTP provider configuration new projects and implicitly created tenants get.
    static let defaultTOTPProvider: AuthJSON = .object([
        "state": .string("ENABLED"), "totpProviderConfig": .object(["adjacentIntervals": .integer(5)]),
    ])

    /// This realm's settings (`PROJECT_DISABLED` when a tenant has `disableAuth`; checked by the callers).
    func settings() async throws(AuthServiceError) -> RealmSettings {
        if tenantId != nil {
            let config = try await storeCall { try await self.store.tenant(self.tenantId ?? "") } ?? [:]
            return RealmSettings(tenant: config)
        }
        var settings = RealmSettings()
        if let mfa = try await projectConfigObject()["mfa"]?.objectValue { settings.applyMFA(mfa) }
        return settings
    }

    /// The settings, refusing everything in a tenant with `disableAuth` (`PROJECT_DISABLED`).
    func enabledSettings() async throws(AuthServiceError) -> RealmSettings {
        let settings = try await settings()
        guard !settings.disableAuth else { throw .badRequest(.projectDisabled) }
        return settings
    }

    /// Creates this realm's tenant with everything enabled when it does not exist yet, as the Firebase emulator does
    /// for a tenant a request names (Identity Platform itself answers `TENANT_NOT_FOUND`).
    func ensureTenant() async throws(AuthServiceError) {
        guard let tenantId else { return }
        let config: [String: AuthJSON] = [
            "name": .string("projects/\(projectId)/tenants/\(tenantId)"), "tenantId": .string(tenantId),
            "allowPasswordSignup": .bool(true), "disableAuth": .bool(false), "enableAnonymousUser": .bool(true),
            "enableEmailLinkSignin": .bool(true),
            "mfaConfig": .object([
                "state": .string("ENABLED"), "enabledProviders": .array([.string("PHONE_SMS")]),
                "providerConfigs": .array([Self.defaultTOTPProvider]),
            ]),
        ]
        _ = try await storeCall { try await self.store.saveTenant(tenantId, config, onlyIfNew: true) }
    }

    // MARK: Tenant management (`/v2/projects/{p}/tenants`)

    static let tenantNotFound = AuthServiceError(
        httpStatus: 404, code: .tenantNotFound, message: AuthErrorCode.tenantNotFound.rawValue, reason: "notFound",
        status: "NOT_FOUND")

    /// The fields of a `Tenant` a request may set.
    static let tenantFields: Set<String> = [
        "displayName", "allowPasswordSignup", "enableEmailLinkSignin", "enableAnonymousUser", "disableAuth",
        "mfaConfig", "testPhoneNumbers", "smsRegionConfig", "recaptchaConfig", "passwordPolicyConfig",
        "emailPrivacyConfig", "autodeleteAnonymousUsers", "inheritance", "monitoring", "client",
    ]

    /// `POST /v2/projects/{p}/tenants` (the Admin SDK's `tenant_mgt.create_tenant`): a tenant with a new id and
    /// production defaults (everything off, MFA disabled) for what the request leaves out.
    public func createTenant(_ request: [String: AuthJSON]) async throws(AuthServiceError) -> [String: AuthJSON] {
        try Self.checkTenantFields(request)
        for _ in 0..<5 {
            let id = "tenant-" + SecureRandom.alphanumericString(length: 20).lowercased()
            let config = Self.tenantDocument(projectId: projectId, tenantId: id, from: request)
            if try await storeCall({ try await self.store.saveTenant(id, config, onlyIfNew: true) }) { return config }
        }
        throw .internalFailure("could not draw a free tenant id")
    }

    /// `GET /v2/projects/{p}/tenants/{t}`.
    public func tenantConfig() async throws(AuthServiceError) -> [String: AuthJSON] {
        guard let tenantId, let config = try await storeCall({ try await self.store.tenant(tenantId) }) else {
            throw Self.tenantNotFound
        }
        return config
    }

    /// `PATCH /v2/projects/{p}/tenants/{t}?updateMask=…`: the masked fields (all, with production defaults, when
    /// there is no mask).
    public func updateTenant(_ request: [String: AuthJSON], updateMask: String?) async throws(AuthServiceError)
        -> [String: AuthJSON]
    {
        guard let tenantId else { throw Self.tenantNotFound }
        try Self.checkTenantFields(request)
        var config = try await tenantConfig()
        if let updateMask, !updateMask.isEmpty {
            config = Self.applyMask(updateMask, to: config, from: request)
        } else {
            config = Self.tenantDocument(projectId: projectId, tenantId: tenantId, from: request)
        }
        let updated = config
        _ = try await storeCall { try await self.store.saveTenant(tenantId, updated) }
        return updated
    }

    /// `DELETE /v2/projects/{p}/tenants/{t}`: the tenant and all its accounts.
    public func deleteTenant() async throws(AuthServiceError) {
        guard let tenantId else { throw Self.tenantNotFound }
        guard try await storeCall({ try await self.store.deleteTenant(tenantId) }) else {
            throw Self.tenantNotFound
        }
    }

    /// `GET /v2/projects/{p}/tenants?pageSize=&pageToken=`: tenants in id order, 20 a page by default (1000 at most;
    /// the emulator's non-standard negative size lists all).
    public func listTenants(pageSize: String?, pageToken: String?) async throws(AuthServiceError) -> AuthJSON {
        let size = try Self.pageSize(pageSize, name: "page_size", default: 20, maximum: 1000)
        let page = try await storeCall {
            try await self.store.tenants(after: pageToken.flatMap { $0.isEmpty ? nil : $0 }, limit: size.map { $0 + 1 })
        }
        var result: [String: AuthJSON] = [:]
        let tenants = size.map { Array(page.prefix($0)) } ?? page
        result["tenants"] = .array(tenants.map(AuthJSON.object))
        if let size, page.count > size, let last = tenants.last?["tenantId"] { result["nextPageToken"] = last }
        return .object(result)
    }

    static func tenantDocument(projectId: String, tenantId: String, from request: [String: AuthJSON]) -> [String: AuthJSON] {
        var config = request.filter { tenantFields.contains($0.key) }
        config["name"] = .string("projects/\(projectId)/tenants/\(tenantId)")
        config["tenantId"] = .string(tenantId)
        for flag in ["allowPasswordSignup", "enableEmailLinkSignin", "enableAnonymousUser", "disableAuth"] {
            config[flag] = .bool(request[flag]?.boolValue ?? false)
        }
        var mfa = request["mfaConfig"]?.objectValue ?? [:]
        if mfa["state"] == nil { mfa["state"] = .string("DISABLED") }
        if mfa["enabledProviders"] == nil { mfa["enabledProviders"] = .array([]) }
        config["mfaConfig"] = .object(mfa)
        return config
    }

    static func checkTenantFields(_ request: [String: AuthJSON]) throws(AuthServiceError) {
        for flag in ["allowPasswordSignup", "enableEmailLinkSignin", "enableAnonymousUser", "disableAuth"] {
            if let value = request[flag], value.boolValue == nil {
                throw .invalidArgument("Invalid value at 'tenant.\(flag)' (TYPE_BOOL), \(value.description.prefix(40))")
            }
        }
        if let name = request["displayName"], name.stringValue == nil {
            throw .invalidArgument("Invalid value at 'tenant.display_name' (TYPE_STRING)")
        }
    }

    /// A page size from the query: the default when absent or 0, at most `maximum`, nil (everything) when negative.
    static func pageSize(_ text: String?, name: String, default defaultSize: Int, maximum: Int)
        throws(AuthServiceError) -> Int?
    {
        guard let text, !text.isEmpty else { return defaultSize }
        guard let value = Int(text) else {
            throw .invalidArgument("Invalid value at '\(name)' (TYPE_INT32), \"\(text.prefix(32))\"")
        }
        if value < 0 { return nil }
        return value == 0 ? defaultSize : min(value, maximum)
    }

    /// Applies a Google field mask (`a,b.c`) from `update` to `document`: each listed path is copied when `update`
    /// has it, and left as it is otherwise (the emulator's `applyMask`).
    static func applyMask(_ mask: String, to document: [String: AuthJSON], from update: [String: AuthJSON])
        -> [String: AuthJSON]
    {
        var document = document
        for path in mask.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !path.isEmpty {
            let components = path.split(separator: ".").map(String.init)
            if let value = lookup(components[...], in: update) {
                document = assign(value, at: components[...], in: document)
            }
        }
        return document
    }

    private static func lookup(_ path: ArraySlice<String>, in object: [String: AuthJSON]) -> AuthJSON? {
        guard let first = path.first, let value = object[first] else { return nil }
        if path.count == 1 { return value }
        guard let nested = value.objectValue else { return nil }
        return lookup(path.dropFirst(), in: nested)
    }

    private static func assign(_ value: AuthJSON, at path: ArraySlice<String>, in object: [String: AuthJSON])
        -> [String: AuthJSON]
    {
        guard let first = path.first else { return object }
        var object = object
        if path.count == 1 {
            object[first] = value
        } else {
            object[first] = .object(assign(value, at: path.dropFirst(), in: object[first]?.objectValue ?? [:]))
        }
        return object
    }
}
