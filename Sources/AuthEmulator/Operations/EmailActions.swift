import Foundation

extension AuthEmulator {
    /// `accounts:sendOobCode`: makes an email action code and its link, and — since nothing is emailed — keeps
    /// them for `GET /emulator/v1/projects/{p}/oobCodes`. An administrator with `returnOobLink` (the Admin SDK's
    /// `generate_password_reset_link`, `generate_email_verification_link`, `generate_sign_in_with_email_link`) gets
    /// the code and link in the answer. Errors: `MISSING_REQ_TYPE`, `INSUFFICIENT_PERMISSION` (`returnOobLink`
    /// from a client), `INVALID_CONTINUE_URI`, `INVALID_HOSTING_LINK_DOMAIN` (any `linkDomain`: no Hosting here), `MISSING_EMAIL`, `INVALID_EMAIL`, `EMAIL_NOT_FOUND` (a reset for an
    /// unknown email, only with email enumeration protection off: with it on the answer is the same as for a known
    /// email), `USER_NOT_FOUND` (an administrator's verification link for an unknown email), and the ID token
    /// errors for a client's `VERIFY_EMAIL`.
    public func sendOobCode(_ request: AuthWire.SendOobCodeRequest, context: AuthCallContext = .inProcess)
        async throws(AuthServiceError) -> AuthWire.SendOobCodeResponse
    {
        guard let rawType = request.requestType, !rawType.isEmpty, rawType != "OOB_REQ_TYPE_UNSPECIFIED" else {
            throw .badRequest(.missingRequestType)
        }
        let settings = try await enabledSettings()
        guard let type = OobRequestType(rawValue: rawType), type != .recoverEmail else {
            if ["RECOVER_EMAIL", "OLD_EMAIL_AGREE", "NEW_EMAIL_ACCEPT", "REVERT_SECOND_FACTOR_ADDITION"].contains(rawType) {
                throw .notImplemented(rawType)
            }
            throw .invalidArgument("Invalid value at 'request_type' (TYPE_ENUM), \"\(rawType.prefix(40))\"")
        }
        let returnLink = request.returnOobLink == true
        if returnLink, !context.privileged { throw .badRequest(.insufficientPermission) }
        if let continueURL = request.continueUrl, !Self.isAbsoluteURL(continueURL) {
            throw .badRequest(.invalidContinueURI, "((expected an absolute URI with valid scheme and host))")
        }
        // A link domain must be a custom domain the project's Firebase Hosting serves, never its default web.app or
        // firebaseapp.com one; an emulated project has no Hosting, so the service answers as Firebase does for a
        // project without that domain (the Admin SDK's integration suite, test_auth_error_parse, expects this).
        if let linkDomain = request.linkDomain, !linkDomain.isEmpty {
            throw .badRequest(
                .invalidHostingLinkDomain,
                "The provided hosting link domain is not configured in Firebase Hosting or is not owned by the current "
                    + "project. This cannot be a default hosting domain (web.app or firebaseapp.com).")
        }
        let email: String
        var newEmail: String?
        if type == .emailSignIn, !settings.enableEmailLinkSignin { throw .badRequest(.operationNotAllowed) }
        switch type {
        case .recoverEmail:
            throw .notImplemented(rawType)
        case .verifyAndChangeEmail:
            guard let raw = request.newEmail, !raw.isEmpty else { throw .badRequest(.missingNewEmail) }
            guard EmailAddress.isValid(raw) else { throw .badRequest(.invalidEmail) }
            newEmail = EmailAddress.normalize(raw)
            if returnLink, request.idToken == nil {
                guard let current = request.email, !current.isEmpty else { throw .badRequest(.missingEmail) }
                email = EmailAddress.normalize(current)
                guard try await storeCall({ try await self.store.user(email: email) }) != nil else {
                    throw .badRequest(.userNotFound)
                }
            } else {
                guard request.idToken?.isEmpty == false else { throw .badRequest(.missingIDToken) }
                let (user, _) = try await account(presenting: request.idToken)
                guard let address = user.email else { throw .badRequest(.missingEmail) }
                email = address
            }
            if try await storeCall({ try await self.store.user(email: newEmail ?? "") }) != nil {
                throw .badRequest(.emailExists)
            }
        case .passwordReset, .emailSignIn:
            guard let raw = request.email, !raw.isEmpty else { throw .badRequest(.missingEmail) }
            guard EmailAddress.isValid(raw) else { throw .badRequest(.invalidEmail) }
            email = EmailAddress.normalize(raw)
            if type == .passwordReset, try await storeCall({ try await self.store.user(email: email) }) == nil {
                let hidesExistence = try await improvedEmailPrivacy()
                if returnLink || !hidesExistence { throw .badRequest(.emailNotFound) }
                // Email enumeration protection: the same answer as for an account, and no code is made.
                return AuthWire.SendOobCodeResponse(email: email)
            }
        case .verifyEmail:
            if returnLink, request.idToken == nil {
                guard let raw = request.email, !raw.isEmpty else { throw .badRequest(.missingEmail) }
                email = EmailAddress.normalize(raw)
                guard try await storeCall({ try await self.store.user(email: email) }) != nil else {
                    throw .badRequest(.userNotFound)
                }
            } else {
                let (user, _) = try await account(presenting: request.idToken)
                guard let address = user.email else { throw .badRequest(.missingEmail) }
                email = address
            }
        }
        let record = try await makeOobCode(
            type, email: email, newEmail: newEmail, continueURL: request.continueUrl, context: context)
        return AuthWire.SendOobCodeResponse(
            email: email, oobCode: returnLink ? record.code : nil, oobLink: returnLink ? record.link : nil)
    }

    /// `accounts:resetPassword`: with `newPassword`, sets the password of a `PASSWORD_RESET` code's account (the
    /// email counts as verified, since the user read the mail) and revokes all its sessions; without, only reports
    /// what the code is for (`verifyPasswordResetCode`, `checkActionCode`) and leaves it usable. Errors:
    /// `MISSING_OOB_CODE`, `INVALID_OOB_CODE`, `EXPIRED_OOB_CODE`, `WEAK_PASSWORD`.
    public func resetPassword(_ request: AuthWire.ResetPasswordRequest) async throws(AuthServiceError)
        -> AuthWire.ResetPasswordResponse
    {
        guard let code = request.oobCode, !code.isEmpty else { throw .badRequest(.missingOobCode) }
        guard let newPassword = request.newPassword else {
            let record = try await validOobCode(code)
            return AuthWire.ResetPasswordResponse(
                requestType: record.requestType.rawValue,
                email: record.requestType == .emailSignIn ? nil : record.email, newEmail: record.newEmail)
        }
        let peek = try await validOobCode(code)
        guard peek.requestType == .passwordReset else { throw .badRequest(.invalidOobCode) }
        let hash = try await hashNewPassword(newPassword)
        let record = try await redeem(code, as: [.passwordReset])
        guard var user = try await storeCall({ try await self.store.user(email: record.email) }) else {
            throw .badRequest(.invalidOobCode)
        }
        let now = clock.now()
        user.passwordHash = hash
        user.importedPassword = nil
        user.passwordUpdatedAt = now
        user.emailVerified = true
        user.validSince = now
        let updated = user
        try await storeCall { try await self.store.saveUser(updated) }
        try await storeCall { try await self.store.revokeSessions(uid: updated.uid) }
        return AuthWire.ResetPasswordResponse(requestType: record.requestType.rawValue, email: record.email)
    }

    /// `accounts:signInWithEmailLink`: signs in to (or creates) the account of an `EMAIL_SIGNIN` code's email;
    /// the email counts as verified. With an ID token, links the email to that account instead (`EMAIL_EXISTS`
    /// when another account has it). Errors: `MISSING_EMAIL`, `MISSING_OOB_CODE`, `INVALID_OOB_CODE`,
    /// `EXPIRED_OOB_CODE`, `INVALID_EMAIL` (not the code's email), `USER_DISABLED`; `OPERATION_NOT_ALLOWED` for an
    /// account with second factors (the REST route answers `mfaPendingCredential` instead, see `emailLinkSignIn`).
    public func signInWithEmailLink(_ request: AuthWire.SignInWithEmailLinkRequest) async throws(AuthServiceError)
        -> AuthWire.SignInResponse
    {
        switch try await emailLinkSignIn(request) {
        case .signedIn(let response): return response
        case .secondFactorRequired:
            throw .badRequest(
                .operationNotAllowed,
                "the account has second factors: sign in over the REST API, which answers mfaPendingCredential")
        }
    }

    /// What a valid email link leads to: tokens, or (an account with second factors) a pending credential.
    enum EmailLinkSignInOutcome: Sendable {
        case signedIn(AuthWire.SignInResponse)
        case secondFactorRequired(AuthWire.MFAPendingResponse)
    }

    /// `accounts:signInWithEmailLink` as the REST API answers it. The code is spent and the email marked verified
    /// either way; an account with second factors then gets `mfaPendingCredential` and `mfaInfo` instead of tokens
    /// (as after a password: the link is a first factor), and its last sign-in is recorded only once the second
    /// factor is given.
    func emailLinkSignIn(_ request: AuthWire.SignInWithEmailLinkRequest) async throws(AuthServiceError)
        -> EmailLinkSignInOutcome
    {
        guard try await enabledSettings().enableEmailLinkSignin else { throw .badRequest(.operationNotAllowed) }
        var linking: AuthUserRecord?
        if request.idToken != nil { linking = try await account(presenting: request.idToken).0 }
        guard let raw = request.email, !raw.isEmpty else { throw .badRequest(.missingEmail) }
        let email = EmailAddress.normalize(raw)
        guard let code = request.oobCode, !code.isEmpty else { throw .badRequest(.missingOobCode) }
        let peek = try await validOobCode(code)
        guard peek.requestType == .emailSignIn else { throw .badRequest(.invalidOobCode) }
        guard peek.email == email else {
            throw .badRequest(.invalidEmail, "The email provided does not match the sign-in email address.")
        }
        _ = try await redeem(code, as: [.emailSignIn])
        let owner = try await storeCall { try await self.store.user(email: email) }
        if let linking, let owner, owner.uid != linking.uid { throw .badRequest(.emailExists) }
        let now = clock.now()
        var user: AuthUserRecord
        let isNew: Bool
        if let existing = linking ?? owner {
            guard !existing.disabled else { throw .badRequest(.userDisabled) }
            user = existing
            isNew = false
        } else {
            user = AuthUserRecord(
                uid: SecureRandom.uid(), email: email, passwordHash: nil, createdAt: now, lastLoginAt: now,
                passwordUpdatedAt: nil, validSince: now)
            isNew = true
        }
        user.email = email
        user.emailVerified = true
        user.emailLinkSignin = true
        if isNew {
            try await insertWithFreshUID(&user)
        } else {
            let updated = user
            do throws(AuthStoreError) { try await store.saveUser(updated) } catch { throw Self.storeFailure(error) }
        }
        if try await needsSecondFactor(user) {
            let pending = try await pendingSecondFactor(for: user, provider: "password")
            return .secondFactorRequired(
                AuthWire.MFAPendingResponse(
                    kind: "identitytoolkit#EmailLinkSigninResponse", localId: user.uid, email: email, registered: nil,
                    isNewUser: isNew, mfaPendingCredential: pending.credential, mfaInfo: pending.factors))
        }
        try await storeCall { try await self.store.recordLogin(uid: user.uid, at: now) }
        let tokens = try await startSession(for: user, provider: "password", authTime: now)
        return .signedIn(
            AuthWire.SignInResponse(
                kind: "identitytoolkit#EmailLinkSigninResponse", localId: user.uid, email: email, isNewUser: isNew,
                idToken: tokens.idToken, refreshToken: tokens.refreshToken, expiresIn: tokens.expiresIn))
    }

    /// `GET /emulator/v1/projects/{p}/oobCodes`: the unexpired codes "sent".
    public func listOobCodes() async throws(AuthServiceError) -> AuthWire.OobCodesResponse {
        let now = clock.now()
        let records = try await storeCall { try await self.store.oobCodes(at: now) }
        return AuthWire.OobCodesResponse(
            oobCodes: records.map {
                AuthWire.OobCodeEntry(
                    email: $0.email, oobCode: $0.code, oobLink: $0.link, requestType: $0.requestType.rawValue,
                    newEmail: $0.newEmail)
            })
    }

    // MARK: Codes

    /// Makes and stores a code; its link is the emulator's action page on this server
    /// (`<base>/emulator/action?mode=…&lang=en&oobCode=…&apiKey=fake-api-key[&continueUrl=…]`).
    func makeOobCode(
        _ type: OobRequestType, email: String, newEmail: String? = nil, continueURL: String?, context: AuthCallContext
    ) async throws(AuthServiceError) -> OobCodeRecord {
        let code = SecureRandom.alphanumericString(length: 54)
        var query = [("mode", type.mode), ("lang", "en"), ("oobCode", code), ("apiKey", "fake-api-key")]
        if let continueURL { query.append(("continueUrl", continueURL)) }
        if projectId != Self.defaultProjectId || tenantId != nil { query.append(("projectId", projectId)) }
        if let tenantId { query.append(("tenantId", tenantId)) }
        let link = context.baseURL + AuthRoute.emulatorAction + "?" + FormEncoding.encode(query)
        let now = clock.now()
        let record = OobCodeRecord(
            code: code, requestType: type, email: email, newEmail: newEmail, link: link,
            expiresAt: now.addingTimeInterval(TimeInterval(policy.oobCodeLifetime)))
        try await storeCall { try await self.store.insertOobCode(record, at: now) }
        return record
    }

    /// The code if it exists and has not expired: `INVALID_OOB_CODE`, `EXPIRED_OOB_CODE`.
    func validOobCode(_ code: String) async throws(AuthServiceError) -> OobCodeRecord {
        guard let record = try await storeCall({ try await self.store.oobCode(code) }) else {
            throw .badRequest(.invalidOobCode)
        }
        guard clock.now() < record.expiresAt else { throw .badRequest(.expiredOobCode) }
        return record
    }

    /// Uses a code of one of `types` up: afterwards nobody can use it again, even a request racing this one.
    func redeem(_ code: String, as types: Set<OobRequestType>) async throws(AuthServiceError) -> OobCodeRecord {
        let record = try await validOobCode(code)
        guard types.contains(record.requestType) else { throw .badRequest(.invalidOobCode) }
        guard try await storeCall({ try await self.store.consumeOobCode(code) }) else {
            throw .badRequest(.invalidOobCode)
        }
        return record
    }

    static func isAbsoluteURL(_ text: String) -> Bool {
        guard let url = URLComponents(string: text), let scheme = url.scheme, !scheme.isEmpty,
            let host = url.host, !host.isEmpty
        else { return false }
        return true
    }
}
