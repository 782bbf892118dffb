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
        _ = try await enabledSettings()
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

        var changedEmail = false
        if let email = try Self.checkedEmail(request.email), email != user.email {
            if session?.provider != "anonymous", let old = user.email, user.initialEmail == nil { user.initialEmail = old }
            user.email = email
            user.emailVerified = false
            revokes = true
            changedEmail = true
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
            default: user.providers.removeAll { $0.providerId == provider }
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
        if request.password != nil { user.importedPassword = nil; user.anonymous = false }
        let updated = user
        do throws(AuthStoreError) {
            try await store.saveUser(updated)
        } catch {
            throw Self.storeFailure(error)
        }
        var response = AuthWire.UpdateResponse(
            localId: user.uid, email: user.email, displayName: user.displayName, photoUrl: user.photoURL,
            emailVerified: user.emailVerified, providerUserInfo: accountInfo(user, administrator: false).providerUserInfo,
            passwordHash: user.hasPassword ? "UkVEQUNURUQ=" : nil)
        if changedEmail, let initial = updated.initialEmail, session?.provider != "anonymous" {
            // Firebase emails the previous address a link that undoes the change.
            _ = try await makeOobCode(.recoverEmail, email: initial, continueURL: nil, context: context)
        }
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

    /// Applies an email action code: `VERIFY_EMAIL` marks the email verified; `VERIFY_AND_CHANGE_EMAIL` changes the
    /// email to the verified new one; `RECOVER_EMAIL` restores the email from before a change. Errors:
    /// `INVALID_OOB_CODE`, `EXPIRED_OOB_CODE`, `EMAIL_EXISTS`.
    private func applyVerification(_ code: String) async throws(AuthServiceError) -> AuthWire.UpdateResponse {
        let peek = try await validOobCode(code)
        var user: AuthUserRecord
        var newEmail: String?
        switch peek.requestType {
        case .verifyEmail:
            let record = try await redeem(code, as: [.verifyEmail])
            guard let found = try await storeCall({ try await self.store.user(email: record.email) }) else {
                throw .badRequest(.invalidOobCode)
            }
            user = found
            user.emailVerified = true
        case .verifyAndChangeEmail:
            guard let target = peek.newEmail else { throw .badRequest(.invalidOobCode) }
            guard try await storeCall({ try await self.store.user(email: target) }) == nil else {
                throw .badRequest(.emailExists)
            }
            let record = try await redeem(code, as: [.verifyAndChangeEmail])
            guard let found = try await storeCall({ try await self.store.user(email: record.email) }) else {
                throw .badRequest(.invalidOobCode)
            }
            user = found
            if user.initialEmail == nil { user.initialEmail = user.email }
            user.email = target
            user.emailVerified = true
            user.validSince = clock.now()
            newEmail = target
        case .recoverEmail:
            guard try await storeCall({ try await self.store.user(email: peek.email) }) == nil else {
                throw .badRequest(.emailExists)
            }
            let record = try await redeem(code, as: [.recoverEmail])
            guard let found = try await storeCall({ try await self.store.allUsers() }).first(where: { $0.initialEmail == record.email })
            else { throw .badRequest(.invalidOobCode) }
            user = found
            user.email = record.email
            user.emailVerified = true
            user.validSince = clock.now()
        default:
            throw .badRequest(.invalidOobCode)
        }
        try await save(user)
        if newEmail != nil || peek.requestType == .recoverEmail {
            try await storeCall { try await self.store.revokeSessions(uid: user.uid) }
        }
        let info = accountInfo(user, administrator: false)
        var response = AuthWire.UpdateResponse(
            localId: user.uid, email: user.email, displayName: user.displayName, photoUrl: user.photoURL,
            emailVerified: user.emailVerified, providerUserInfo: info.providerUserInfo, passwordHash: info.passwordHash)
        response.newEmail = newEmail
        return response
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
