import Foundation

extension AuthEmulator {
    /// Custom claims may take at most this many characters of JSON (Firebase's limit).
    static let maximumCustomClaimsLength = 1000
    /// Dates a request may set, in seconds since 1970: up to 9999-12-31T23:59:59Z, as Google's Timestamp allows.
    static let requestSeconds: ClosedRange<Int64> = 0...253_402_300_799
    /// The same range in milliseconds (`createdAt`, `lastLoginAt`).
    static let requestMilliseconds: ClosedRange<Int64> = 0...253_402_300_799_999

    /// `accounts:update`. Three callers:
    /// - a user with an ID token (the JS SDK's `updateEmail`, `updatePassword`, `updateProfile`): email, password,
    ///   display name, photo URL, `deleteAttribute` (`DISPLAY_NAME`, `PHOTO_URL`), `deleteProvider`; not
    ///   `customAttributes` (`INSUFFICIENT_PERMISSION`) nor `disableUser` (`OPERATION_NOT_ALLOWED`). A new password
    ///   or email revokes the account's other sessions and answers fresh tokens for this one;
    /// - anyone with an `oobCode` of type `VERIFY_EMAIL` (the JS SDK's `applyActionCode`): marks the email verified;
    /// - an administrator with `localId` (the Admin SDK's `update_user`, `set_custom_user_claims`,
    ///   `revoke_refresh_tokens`): also phone number, `emailVerified`, `disableUser`, `customAttributes`,
    ///   `validSince`.
    public func update(_ request: AuthWire.UpdateRequest, context: AuthCallContext = .inProcess)
        async throws(AuthServiceError) -> AuthWire.UpdateResponse
    {
        if let code = request.oobCode { return try await applyVerification(code) }
        var user: AuthUserRecord
        var session: AuthSessionRecord?
        if context.privileged, request.idToken == nil {
            guard let uid = request.localId, !uid.isEmpty else { throw .badRequest(.missingLocalID) }
            guard let found = try await storeCall({ try await self.store.user(uid: uid) }) else {
                throw .badRequest(.userNotFound)
            }
            user = found
        } else {
            guard request.idToken != nil else {
                throw .badRequest(.invalidRequestType, "Unsupported request parameters.")
            }
            guard request.customAttributes == nil else { throw .badRequest(.insufficientPermission) }
            guard request.disableUser == nil else { throw .badRequest(.operationNotAllowed) }
            let (found, claims) = try await account(presenting: request.idToken)
            user = found
            session = AuthSessionRecord(
                uid: found.uid, family: SecureRandom.bytes(16), provider: claims.firebase.signInProvider,
                extraClaims: nil, authTime: claims.authTime)
        }
        let privileged = context.privileged && request.idToken == nil
        if let claims = request.customAttributes { try Self.checkCustomClaims(claims) }
        let now = clock.now()
        var revokes = false

        if let email = try Self.checkedEmail(request.email), email != user.email {
            user.email = email
            user.emailVerified = false
            revokes = true
        }
        if let password = request.password {
            user.passwordHash = try await hashNewPassword(password)
            user.passwordUpdatedAt = now
            revokes = true
        }
        if let name = request.displayName { user.displayName = name }
        if let photo = request.photoUrl { user.photoURL = photo }
        for attribute in request.deleteAttribute ?? [] {
            switch attribute {
            case "DISPLAY_NAME": user.displayName = nil
            case "PHOTO_URL": user.photoURL = nil
            case "EMAIL": user.email = nil; user.emailVerified = false; user.emailLinkSignin = false
            case "PASSWORD": user.passwordHash = nil
            case "USER_ATTRIBUTE_NAME_UNSPECIFIED": continue
            case "PROVIDER", "RAW_USER_INFO": throw .notImplemented("deleteAttribute: \(attribute)")
            default: throw .invalidArgument("Invalid value at 'delete_attribute' (TYPE_ENUM), \"\(attribute.prefix(40))\"")
            }
        }
        for provider in request.deleteProvider ?? [] {
            switch provider {
            case "password":
                user.email = nil
                user.emailVerified = false
                user.emailLinkSignin = false
                user.passwordHash = nil
            case "phone": user.phoneNumber = nil
            default: continue  // a provider the account cannot have is already unlinked
            }
        }
        if privileged {
            if let phone = try Self.checkedPhoneNumber(request.phoneNumber) { user.phoneNumber = phone }
            if let verified = request.emailVerified { user.emailVerified = verified }
            if let disabled = request.disableUser { user.disabled = disabled }
            if let claims = request.customAttributes { user.customAttributes = claims == "{}" ? nil : claims }
            // Dates from the request are bounded like validSince (1970 to the end of year 9999), so every later
            // conversion (to milliseconds, to JSON, to a token's claims) stays exact.
            if let created = request.createdAt {
                guard Self.requestMilliseconds.contains(created.value) else {
                    throw .invalidArgument("Invalid value at 'created_at': out of range")
                }
                user.createdAt = date(milliseconds: created.value)
            }
            if let login = request.lastLoginAt {
                guard Self.requestMilliseconds.contains(login.value) else {
                    throw .invalidArgument("Invalid value at 'last_login_at': out of range")
                }
                user.lastLoginAt = date(milliseconds: login.value)
            }
            if let validSince = request.validSince {
                guard Self.requestSeconds.contains(validSince.value) else {
                    throw .invalidArgument("Invalid value at 'valid_since': out of range")
                }
                user.validSince = Date(timeIntervalSince1970: TimeInterval(validSince.value))
                revokes = true
            }
        }
        if revokes, request.validSince == nil { user.validSince = now }
        let updated = user
        do throws(AuthStoreError) {
            try await store.saveUser(updated)
        } catch {
            throw Self.storeFailure(error)
        }
        var response = AuthWire.UpdateResponse(
            localId: user.uid, email: user.email, displayName: user.displayName, photoUrl: user.photoURL,
            emailVerified: user.emailVerified, providerUserInfo: Self.accountInfo(user).providerUserInfo,
            passwordHash: user.passwordHash == nil ? nil : "UkVEQUNURUQ=")
        if revokes {
            try await storeCall { try await self.store.revokeSessions(uid: updated.uid) }
            if let session {
                // The caller's session continues under a new refresh token; the old ones are revoked.
                let tokens = try await issue(session, for: updated, now: now)
                response.idToken = tokens.idToken
                response.refreshToken = tokens.refreshToken
                response.expiresIn = tokens.expiresIn
            }
        }
        return response
    }

    /// Applies a `VERIFY_EMAIL` code: `INVALID_OOB_CODE`, `EXPIRED_OOB_CODE`.
    private func applyVerification(_ code: String) async throws(AuthServiceError) -> AuthWire.UpdateResponse {
        let record = try await redeem(code, as: [.verifyEmail])
        guard var user = try await storeCall({ try await self.store.user(email: record.email) }) else {
            throw .badRequest(.invalidOobCode)
        }
        user.emailVerified = true
        let verified = user
        try await storeCall { try await self.store.saveUser(verified) }
        let info = Self.accountInfo(user)
        return AuthWire.UpdateResponse(
            localId: user.uid, email: user.email, displayName: user.displayName, photoUrl: user.photoURL,
            emailVerified: true, providerUserInfo: info.providerUserInfo, passwordHash: info.passwordHash)
    }

    /// Custom claims as Firebase accepts them: at most 1000 characters (`CLAIMS_TOO_LARGE`), a JSON object
    /// (`INVALID_CLAIMS`), no reserved name (`FORBIDDEN_CLAIM : <name>`).
    static func checkCustomClaims(_ text: String) throws(AuthServiceError) {
        guard text.count <= maximumCustomClaimsLength else { throw .badRequest(.claimsTooLarge) }
        guard let object = AuthJSON.parse(text)?.objectValue else { throw .badRequest(.invalidClaims) }
        try checkClaimNames(object)
    }

    static func checkClaimNames(_ object: [String: AuthJSON]) throws(AuthServiceError) {
        if let reserved = object.keys.sorted().first(where: IDTokenClaims.reservedClaimNames.contains) {
            throw .badRequest(.forbiddenClaim, reserved)
        }
    }
}
