extension AuthEmulator {
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
}
