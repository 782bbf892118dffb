extension AuthEmulator {
    /// The setting that holds the rest of the project's configuration (`GET /v2/projects/{p}/config`).
    static let projectConfigSetting = "projectConfig"

    /// The project's stored configuration (its `signIn`, `mfa`, `blockingFunctions`, … sections), with the
    /// defaults: sign-in with email, email link, phone and anonymously on; MFA on with SMS and TOTP (five adjacent
    /// intervals), as the Firebase emulator's projects have SMS MFA on. Tenants have their own (`mfaConfig`).
    func projectConfigObject() async throws(AuthServiceError) -> [String: AuthJSON] {
        let project = store.scoped(to: realm.project)
        let stored = try await storeCall { try await project.setting(Self.projectConfigSetting) }
        var config = stored.flatMap { AuthJSON.parse($0)?.objectValue } ?? [:]
        if config["mfa"] == nil {
            config["mfa"] = .object([
                "state": .string("ENABLED"), "enabledProviders": .array([.string("PHONE_SMS")]),
                "providerConfigs": .array([Self.defaultTOTPProvider]),
            ])
        }
        return config
    }

    /// `GET /v2/projects/{p}/config` (Identity Platform's `Config`): `name`, `signIn` (providers on, duplicate
    /// emails off, the native password hash: STANDARD_SCRYPT with this service's parameters), `mfa`,
    /// `emailPrivacyConfig`, `blockingFunctions` and whatever else was stored. `UNSUPPORTED_TENANT_OPERATION` in a
    /// tenant (a tenant's configuration is the tenant).
    public func projectConfig() async throws(AuthServiceError) -> AuthJSON {
        guard tenantId == nil else { throw .badRequest(.unsupportedTenantOperation) }
        var config = try await projectConfigObject()
        config["name"] = .string("projects/\(projectId)/config")
        var signIn = config["signIn"]?.objectValue ?? [:]
        signIn["allowDuplicateEmails"] = .bool(false)
        for (provider, fields) in [
            ("email", ["enabled": AuthJSON.bool(true), "passwordRequired": .bool(false)]),
            ("phoneNumber", ["enabled": .bool(true)]), ("anonymous", ["enabled": .bool(true)]),
        ] where signIn[provider] == nil {
            signIn[provider] = .object(fields)
        }
        signIn["hashConfig"] = .object([
            "algorithm": .string("STANDARD_SCRYPT"), "memoryCost": .integer(Int64(policy.scrypt.logN)),
            "rounds": .integer(Int64(policy.scrypt.r)),
        ])
        config["signIn"] = .object(signIn)
        config["emailPrivacyConfig"] = .object(["enableImprovedEmailPrivacy": .bool(try await improvedEmailPrivacy())])
        if config["blockingFunctions"] == nil { config["blockingFunctions"] = .object([:]) }
        return .object(config)
    }

    /// `PATCH /v2/projects/{p}/config?updateMask=…`: stores the masked fields (all, without a mask). Refused:
    /// `signIn.allowDuplicateEmails` true (one account per email here) and `blockingFunctions` triggers (this
    /// service calls no Cloud Functions), each `OPERATION_NOT_ALLOWED` / 501 with the reason.
    public func updateProjectConfig(_ request: [String: AuthJSON], updateMask: String?) async throws(AuthServiceError)
        -> AuthJSON
    {
        guard tenantId == nil else { throw .badRequest(.unsupportedTenantOperation) }
        if request["signIn"]?.objectValue?["allowDuplicateEmails"]?.boolValue == true {
            throw .badRequest(.operationNotAllowed, "allowDuplicateEmails is not supported: one account per email")
        }
        if let triggers = request["blockingFunctions"]?.objectValue?["triggers"]?.objectValue, !triggers.isEmpty {
            throw .notImplemented("blockingFunctions.triggers: this auth service calls no blocking functions")
        }
        if let mfa = request["mfa"], mfa.objectValue == nil { throw .invalidArgument("Invalid value at 'config.mfa'") }
        var config = try await projectConfigObject()
        if let updateMask, !updateMask.isEmpty {
            config = Self.applyMask(updateMask, to: config, from: request)
        } else {
            for (key, value) in request where key != "name" { config[key] = value }
        }
        if let privacy = config["emailPrivacyConfig"]?.objectValue?["enableImprovedEmailPrivacy"]?.boolValue {
            try await storeCall { try await self.store.setSetting(Self.emailPrivacySetting, privacy ? "true" : "false") }
        }
        config["emailPrivacyConfig"] = nil
        let text = AuthJSON.object(config).description
        try await storeCall { try await self.store.setSetting(Self.projectConfigSetting, text) }
        return try await projectConfig()
    }

    /// `GET /emulator/v1/projects/{p}/config`: `signIn.allowDuplicateEmails` (always false: one account per
    /// email) and `emailPrivacyConfig.enableImprovedEmailPrivacy` (email enumeration protection, on by default).
    public func emulatorConfig() async throws(AuthServiceError) -> AuthWire.EmulatorConfig {
        AuthWire.EmulatorConfig(
            signIn: .init(allowDuplicateEmails: false),
            emailPrivacyConfig: .init(enableImprovedEmailPrivacy: try await improvedEmailPrivacy()))
    }

    /// `PATCH /emulator/v1/projects/{p}/config`: turns email enumeration protection on or off (kept in the store);
    /// asking for duplicate emails is refused (`OPERATION_NOT_ALLOWED`: the service keeps one account per email).
    public func updateEmulatorConfig(_ request: AuthWire.EmulatorConfig) async throws(AuthServiceError)
        -> AuthWire.EmulatorConfig
    {
        if request.signIn?.allowDuplicateEmails == true {
            throw .badRequest(.operationNotAllowed, "allowDuplicateEmails is not supported: one account per email")
        }
        if let privacy = request.emailPrivacyConfig?.enableImprovedEmailPrivacy {
            try await storeCall { try await self.store.setSetting(Self.emailPrivacySetting, privacy ? "true" : "false") }
        }
        return try await emulatorConfig()
    }

    /// `GET /v1/projects` (the client SDKs' `getProjectConfig`): the project number and authorized domains.
    func projectInfo() throws(AuthServiceError) -> AuthWire.ProjectInfo {
        guard tenantId == nil else { throw .badRequest(.unsupportedTenantOperation) }
        return AuthWire.ProjectInfo(projectId: policy.projectNumber, authorizedDomains: ["localhost", "127.0.0.1"])
    }
}
