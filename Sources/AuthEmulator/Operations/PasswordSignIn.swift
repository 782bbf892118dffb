import Foundation

extension AuthEmulator {
    /// `accounts:signInWithPassword`. Checks `MISSING_EMAIL`, `INVALID_EMAIL`, `MISSING_PASSWORD`, then three
    /// limits before any scrypt work, each answering `TOO_MANY_ATTEMPTS_TRY_LATER`: failures from the client's
    /// address (`policy.addressFailureLimit`), failures with this password across all emails
    /// (`policy.passwordSprayLimit`), and failures for this email (`policy.rateLimit`, counted whether or not the
    /// account exists). An unknown email and a wrong password then cost the same scrypt work and, with email
    /// enumeration protection on (the default), answer the same `INVALID_LOGIN_CREDENTIALS`; with it off,
    /// `EMAIL_NOT_FOUND` and `INVALID_PASSWORD`, as Firebase answers. `USER_DISABLED` only after the password
    /// matched. A success takes the attempt back from every counter.
    public func signInWithPassword(
        _ request: AuthWire.SignInWithPasswordRequest, context: AuthCallContext = .inProcess
    ) async throws(AuthServiceError) -> AuthWire.SignInWithPasswordResponse {
        switch try await passwordSignIn(request, context: context) {
        case .signedIn(let response): return response
        case .secondFactorRequired:
            throw .badRequest(
                .operationNotAllowed,
                "the account has second factors: sign in over the REST API, which answers mfaPendingCredential")
        }
    }

    /// What a correct password leads to: tokens, or (an account with second factors) a pending credential.
    enum PasswordSignInOutcome: Sendable {
        case signedIn(AuthWire.SignInWithPasswordResponse)
        case secondFactorRequired(AuthWire.MFAPendingResponse)
    }

    /// `accounts:signInWithPassword` as the REST API answers it. A password imported in another algorithm is
    /// checked with it and, once it matches, replaced by this service's scrypt (as Firebase rehashes on the first
    /// sign-in); when it does not match, the service's scrypt runs as well, so a wrong password takes as long as
    /// against a native hash. An account with second factors gets `mfaPendingCredential` and `mfaInfo` instead of tokens.
    func passwordSignIn(_ request: AuthWire.SignInWithPasswordRequest, context: AuthCallContext)
        async throws(AuthServiceError) -> PasswordSignInOutcome
    {
        let settings = try await enabledSettings()
        guard settings.allowPasswordSignup else { throw .badRequest(.passwordLoginDisabled) }
        guard let rawEmail = request.email, !rawEmail.isEmpty else { throw .badRequest(.missingEmail) }
        guard EmailAddress.isValid(rawEmail) else { throw .badRequest(.invalidEmail) }
        guard let password = request.password, !password.isEmpty else { throw .badRequest(.missingPassword) }
        guard password.utf8.count <= AuthPolicy.maximumPasswordLength else {
            throw .badRequest(.invalidLoginCredentials)
        }
        let email = EmailAddress.normalize(rawEmail)
        let now = clock.now()
        let tooMany = AuthServiceError.badRequest(
            .tooManyAttempts, "Too many unsuccessful login attempts. Please try again later.")

        let addressKey = context.clientAddress.map { "failed-sign-in:" + $0 }
        if let addressKey {
            guard await limiter.attempt(addressKey, policy: policy.addressFailureLimit, now: now) else { throw tooMany }
        }
        let passwordKey = await limiter.passwordKey(password)
        guard await limiter.attempt(passwordKey, policy: policy.passwordSprayLimit, now: now) else {
            if let addressKey { await limiter.refund(addressKey) }
            throw tooMany
        }
        let decision = try await storeCall {
            try await self.store.beginLoginAttempt(email: email, at: now, policy: self.policy.rateLimit)
        }
        guard decision == .allowed else { throw tooMany }

        let user = try await storeCall { try await self.store.user(email: email) }
        let hasher = self.hasher
        let matches: Bool
        if let imported = user?.importedPassword {
            matches = try await passwordWork("password verification failed") { () throws(PasswordHasherError) in
                imported.verify(password)
            }
            if !matches {
                // A wrong password costs an account with an imported hash (MD5 or HMAC take microseconds) the same
                // scrypt work as any other account and an unknown email, so timing does not tell them apart.
                _ = try await passwordWork("password verification failed") { () throws(PasswordHasherError) in
                    try hasher.verify(password, against: hasher.unmatchableHash())
                }
            }
        } else {
            let stored = user?.passwordHash ?? hasher.unmatchableHash()
            matches = try await passwordWork("password verification failed") { () throws(PasswordHasherError) in
                try hasher.verify(password, against: stored)
            }
        }
        guard var user, matches, user.hasPassword else {
            if try await improvedEmailPrivacy() { throw .badRequest(.invalidLoginCredentials) }
            throw .badRequest(user == nil ? .emailNotFound : .invalidPassword)
        }
        if let addressKey { await limiter.refund(addressKey) }
        await limiter.refund(passwordKey)
        try await storeCall { try await self.store.clearLoginFailures(email: email) }
        guard !user.disabled else { throw .badRequest(.userDisabled) }
        if user.importedPassword != nil {
            user.passwordHash = try await hashNewPassword(password, checkStrength: false)
            user.importedPassword = nil
            try await save(user)
        }
        if try await needsSecondFactor(user) {
            let pending = try await pendingSecondFactor(for: user, provider: "password")
            return .secondFactorRequired(
                AuthWire.MFAPendingResponse(
                    localId: user.uid, email: email, mfaPendingCredential: pending.credential, mfaInfo: pending.factors))
        }
        try await storeCall { try await self.store.recordLogin(uid: user.uid, at: now) }
        let tokens = try await startSession(for: user, provider: "password", authTime: now)
        return .signedIn(
            AuthWire.SignInWithPasswordResponse(
                localId: user.uid, email: email, displayName: user.displayName ?? "", idToken: tokens.idToken,
                refreshToken: tokens.refreshToken, expiresIn: tokens.expiresIn))
    }
}
