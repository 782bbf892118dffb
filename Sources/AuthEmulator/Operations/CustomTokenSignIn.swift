import Foundation

extension AuthEmulator {
    /// The audience of Firebase custom tokens.
    public static let customTokenAudience =
        "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit"

    /// `accounts:signInWithCustomToken`: signs in to (or creates) the account a custom token names, as the Firebase
    /// emulator does: the token is a JWT from the Admin SDK's `create_custom_token` (in emulator mode an unsigned
    /// `alg: none` token; a signed one is accepted without checking the signature, since only Google holds the
    /// service account keys) or, emulator-only, the JSON payload itself. Its developer `claims` go into every ID
    /// token of the session. Errors: `MISSING_CUSTOM_TOKEN`, `INVALID_CUSTOM_TOKEN` (not a JWT or JSON, wrong
    /// audience, uid over 128 characters), `MISSING_IDENTIFIER`, `INVALID_CLAIMS`, `FORBIDDEN_CLAIM`,
    /// `USER_DISABLED`.
    public func signInWithCustomToken(_ request: AuthWire.SignInWithCustomTokenRequest) async throws(AuthServiceError)
        -> AuthWire.SignInResponse
    {
        _ = try await enabledSettings()
        guard let token = request.token, !token.isEmpty else { throw .badRequest(.missingCustomToken) }
        let payload = try Self.customTokenPayload(token)
        if !token.hasPrefix("{"), let tenantId, payload["tenant_id"]?.stringValue != tenantId {
            throw .badRequest(.tenantIDMismatch)
        }
        guard let uid = Self.identifier(payload["uid"]) ?? Self.identifier(payload["user_id"]) else {
            throw .badRequest(.missingIdentifier)
        }
        guard uid.count <= 128 else { throw .badRequest(.invalidCustomToken, "uid is longer than 128 characters") }
        var extraClaims: String?
        if let claims = payload["claims"] {
            guard let object = claims.objectValue else { throw .badRequest(.invalidClaims) }
            try Self.checkClaimNames(object)
            extraClaims = claims.description
            guard let text = extraClaims, text.count <= Self.maximumCustomClaimsLength else {
                throw .badRequest(.claimsTooLarge)
            }
        }
        let now = clock.now()
        var user: AuthUserRecord
        let isNew: Bool
        if let existing = try await storeCall({ try await self.store.user(uid: uid) }) {
            guard !existing.disabled else { throw .badRequest(.userDisabled) }
            user = existing
            user.lastLoginAt = now
            user.customAuth = true
            let updated = user
            try await storeCall { try await self.store.saveUser(updated) }
            isNew = false
        } else {
            user = AuthUserRecord(
                uid: uid, email: nil, passwordHash: nil, createdAt: now, lastLoginAt: now, passwordUpdatedAt: nil,
                validSince: now)
            user.customAuth = true
            try await insert(user)
            isNew = true
        }
        let tokens = try await startSession(for: user, provider: "custom", extraClaims: extraClaims, authTime: now)
        return AuthWire.SignInResponse(
            kind: "identitytoolkit#VerifyCustomTokenResponse", localId: nil, email: nil, isNewUser: isNew,
            idToken: tokens.idToken, refreshToken: tokens.refreshToken, expiresIn: tokens.expiresIn)
    }

    /// The payload of a custom token: a JWT's (whose `aud` must be the custom token audience) or, emulator-only,
    /// a JSON object given directly.
    static func customTokenPayload(_ token: String) throws(AuthServiceError) -> [String: AuthJSON] {
        if token.hasPrefix("{") {
            guard let object = AuthJSON.parse(token)?.objectValue else {
                throw .badRequest(
                    .invalidCustomToken, "((Auth Emulator only accepts strict JSON or JWTs as fake custom tokens.))")
            }
            return object
        }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let header = Base64URL.decode(parts[0]).flatMap(AuthJSON.parse)?.objectValue,
            header["alg"]?.stringValue != nil,
            let payload = Base64URL.decode(parts[1]).flatMap(AuthJSON.parse)?.objectValue
        else { throw .badRequest(.invalidCustomToken, "Invalid assertion format") }
        guard payload["aud"]?.stringValue == customTokenAudience else {
            throw .badRequest(
                .invalidCustomToken,
                "((Invalid aud (audience): \(payload["aud"]?.description.prefix(100) ?? "none") Note: Firebase ID "
                    + "Tokens / third-party tokens cannot be used with signInWithCustomToken.))")
        }
        return payload
    }

    private static func identifier(_ value: AuthJSON?) -> String? {
        switch value {
        case .string(let text): return text.isEmpty ? nil : text
        case .integer(let number): return String(number)
        case .bool(let flag): return String(flag)
        default: return nil
        }
    }
}
