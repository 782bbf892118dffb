import Foundation

extension AuthEmulator {
    /// The most identifiers one administrator lookup may name (the Admin SDK's `get_users` sends at most 100).
    static let maximumLookupIdentifiers = 100

    /// `accounts:lookup`. A client presents an ID token and gets its account (`MISSING_ID_TOKEN`,
    /// `INVALID_ID_TOKEN`, `TOKEN_EXPIRED` when expired or revoked, `USER_NOT_FOUND`, `USER_DISABLED`). An
    /// administrator looks accounts up by `localId`, `email` and `phoneNumber` lists (the Admin SDK's `get_user`,
    /// `get_user_by_email`, `get_user_by_phone_number`, `get_users`); `users` is absent when none matched.
    public func lookup(_ request: AuthWire.LookupRequest, context: AuthCallContext = .inProcess)
        async throws(AuthServiceError) -> AuthWire.LookupResponse
    {
        guard context.privileged, request.idToken == nil else {
            let (user, _) = try await account(presenting: request.idToken)
            return AuthWire.LookupResponse(users: [accountInfo(user, administrator: false)])
        }
        let count = (request.localId?.count ?? 0) + (request.email?.count ?? 0) + (request.phoneNumber?.count ?? 0)
            + (request.federatedUserId?.count ?? 0)
        guard count <= Self.maximumLookupIdentifiers else {
            throw .invalidArgument("at most \(Self.maximumLookupIdentifiers) identifiers may be looked up at once")
        }
        var found: [AuthUserRecord] = []
        func add(_ user: AuthUserRecord?) {
            if let user, !found.contains(where: { $0.uid == user.uid }) { found.append(user) }
        }
        for uid in request.localId ?? [] {
            add(try await storeCall { try await self.store.user(uid: uid) })
        }
        for email in request.email ?? [] {
            add(try await storeCall { try await self.store.user(email: EmailAddress.normalize(email)) })
        }
        for phone in request.phoneNumber ?? [] {
            add(try await storeCall { try await self.store.user(phoneNumber: phone) })
        }
        for federated in request.federatedUserId ?? [] {
            guard let provider = federated.providerId, let rawId = federated.rawId else { continue }
            add(try await storeCall { try await self.store.user(providerId: provider, rawId: rawId) })
        }
        return AuthWire.LookupResponse(users: found.isEmpty ? nil : found.map { accountInfo($0, administrator: true, exportHash: false) })
    }

    /// `accounts:batchGet` (the Admin SDK's `list_users`): up to `maxResults` accounts (default 20, at most 1000)
    /// in uid order after the page token; `nextPageToken` is present when more accounts follow.
    public func batchGet(maxResults: String?, pageToken: String?) async throws(AuthServiceError)
        -> AuthWire.BatchGetResponse
    {
        var limit = 20
        if let maxResults {
            guard let parsed = Int(maxResults) else {
                throw .invalidArgument("Invalid value at 'max_results' (TYPE_UINT32), \"\(maxResults.prefix(32))\"")
            }
            limit = parsed <= 0 ? 20 : min(parsed, 1000)
        }
        let after = pageToken.flatMap { $0.isEmpty ? nil : $0 }
        let page = try await storeCall { try await self.store.users(after: after, limit: limit + 1) }
        let users = Array(page.prefix(limit))
        return AuthWire.BatchGetResponse(
            users: users.isEmpty ? nil : users.map { accountInfo($0, administrator: true) },
            nextPageToken: page.count > limit ? users.last?.uid : nil)
    }

    /// The wire form of an account. An export (`batchGet`, `query`) gets the password's scrypt hash and salt
    /// (base64), as Firebase exports its own hashes (and an empty hash for one imported in another algorithm that no
    /// sign-in has replaced yet, as Firebase does); every other answer the redacted marker `UkVEQUNURUQ=`
    /// ("REDACTED") and no salt, as production's `lookup` does. Second factors' numbers are masked for clients.
    func accountInfo(_ user: AuthUserRecord, administrator: Bool, exportHash: Bool? = nil) -> AuthWire.AccountInfo {
        let administrator = administrator
        let export = exportHash ?? administrator
        var providers: [AuthWire.ProviderUserInfo] = []
        if let email = user.email, user.hasPassword || user.emailLinkSignin {
            providers.append(
                AuthWire.ProviderUserInfo(
                    providerId: "password", federatedId: email, email: email, rawId: email,
                    displayName: user.displayName, photoUrl: user.photoURL))
        }
        if let phone = user.phoneNumber {
            providers.append(
                AuthWire.ProviderUserInfo(
                    providerId: "phone", federatedId: nil, email: nil, rawId: phone, displayName: nil, phoneNumber: phone))
        }
        for identity in user.providers {
            providers.append(
                AuthWire.ProviderUserInfo(
                    providerId: identity.providerId, federatedId: identity.federatedId, email: identity.email,
                    rawId: identity.rawId, displayName: identity.displayName, photoUrl: identity.photoUrl,
                    phoneNumber: identity.phoneNumber, screenName: identity.screenName))
        }
        var hash: String?
        var salt: String?
        if let native = user.passwordHash {
            hash = export ? Data(native.hash).base64EncodedString() : "UkVEQUNURUQ="
            salt = export ? Data(native.salt).base64EncodedString() : nil
        } else if user.importedPassword != nil {
            hash = export ? "" : "UkVEQUNURUQ="
            salt = export ? "" : nil
        }
        var info = AuthWire.AccountInfo(
            localId: user.uid, email: user.email, displayName: user.displayName, photoUrl: user.photoURL,
            phoneNumber: user.phoneNumber, passwordHash: hash,
            emailVerified: user.emailVerified, disabled: user.disabled ? true : nil,
            passwordUpdatedAt: user.passwordUpdatedAt.map(milliseconds), providerUserInfo: providers,
            validSince: String(seconds(user.validSince)), lastLoginAt: user.lastLoginAt.map { String(milliseconds($0)) },
            createdAt: String(milliseconds(user.createdAt)), lastRefreshAt: user.lastRefreshAt.map(rfc3339),
            customAttributes: user.customAttributes, emailLinkSignin: user.emailLinkSignin ? true : nil)
        info.salt = salt
        info.mfaInfo = user.mfaEnrollments.isEmpty ? nil : user.mfaEnrollments.map { Self.mfaInfo($0, masked: !administrator) }
        info.tenantId = tenantId
        info.initialEmail = user.initialEmail
        info.customAuth = user.customAuth ? true : nil
        return info
    }
}

/// RFC 3339 with milliseconds in UTC (`2024-01-01T00:00:00.000Z`), the form of `lastRefreshAt`.
func rfc3339(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    formatter.timeZone = TimeZone(identifier: "UTC")
    return formatter.string(from: date)
}
