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
        let stored = user?.passwordHash ?? hasher.unmatchableHash()
        let matches = try await passwordWork("password verification failed") { () throws(PasswordHasherError) in
            try hasher.verify(password, against: stored)
        }
        guard let user, matches, user.passwordHash != nil else {
            if try await improvedEmailPrivacy() { throw .badRequest(.invalidLoginCredentials) }
            throw .badRequest(user == nil ? .emailNotFound : .invalidPassword)
        }
        if let addressKey { await limiter.refund(addressKey) }
        await limiter.refund(passwordKey)
        try await storeCall { try await self.store.clearLoginFailures(email: email) }
        guard !user.disabled else { throw .badRequest(.userDisabled) }

        try await storeCall { try await self.store.recordLogin(uid: user.uid, at: now) }
        let tokens = try await startSession(for: user, provider: "password", authTime: now)
        return AuthWire.SignInWithPasswordResponse(
            localId: user.uid, email: email, displayName: user.displayName ?? "", idToken: tokens.idToken,
            refreshToken: tokens.refreshToken, expiresIn: tokens.expiresIn)
    }
}
