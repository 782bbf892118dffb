import Foundation

extension AuthEmulator {
    /// `accounts:signUp`. A client creates an email/password account and is signed in; checks, in order:
    /// `MISSING_EMAIL`, `MISSING_PASSWORD`, `INVALID_EMAIL`, `WEAK_PASSWORD`, the per-address sign-up limit
    /// (`TOO_MANY_ATTEMPTS_TRY_LATER`), then the password is hashed and the account inserted, so a taken email
    /// (`EMAIL_EXISTS`) costs the same scrypt work as a new one. An administrator (`projects/{p}/accounts`, the
    /// Admin SDK's `create_user`) may give any subset of email, password, uid, phone number, photo, verified and
    /// disabled flags, and gets no tokens (`createAccount`).
    public func signUp(_ request: AuthWire.SignUpRequest, context: AuthCallContext = .inProcess)
        async throws(AuthServiceError) -> AuthWire.SignUpResponse
    {
        let settings = try await enabledSettings()
        guard request.localId == nil else { throw .badRequest(.unexpectedParameter, "User ID") }
        guard let rawEmail = request.email, !rawEmail.isEmpty else { throw .badRequest(.missingEmail) }
        guard let password = request.password, !password.isEmpty else { throw .badRequest(.missingPassword) }
        guard settings.allowPasswordSignup else { throw .badRequest(.operationNotAllowed) }
        guard EmailAddress.isValid(rawEmail) else { throw .badRequest(.invalidEmail) }
        try Self.checkStrength(password)
        if let idToken = request.idToken { return try await linkPassword(idToken: idToken, email: rawEmail, password: password) }
        let email = EmailAddress.normalize(rawEmail)
        let now = clock.now()
        if let address = context.clientAddress {
            guard await limiter.attempt("signup:" + address, policy: policy.addressSignUpLimit, now: now) else {
                throw .badRequest(.tooManyAttempts, "Too many sign-ups from this address. Please try again later.")
            }
        }
        let hash = try await hashNewPassword(password)
        var user = AuthUserRecord(
            uid: SecureRandom.uid(), email: email, displayName: request.displayName.flatMap { $0.isEmpty ? nil : $0 },
            passwordHash: hash, createdAt: now, lastLoginAt: now, passwordUpdatedAt: now, validSince: now)
        try await insertWithFreshUID(&user)
        let tokens = try await startSession(for: user, provider: "password", authTime: now)
        return AuthWire.SignUpResponse(
            idToken: tokens.idToken, displayName: user.displayName, email: email, refreshToken: tokens.refreshToken,
            expiresIn: tokens.expiresIn, localId: user.uid)
    }

    /// `accounts:signUp` with neither email nor password: an anonymous account, signed in with provider
    /// `anonymous` (`ADMIN_ONLY_OPERATION` where the tenant does not allow anonymous users).
    public func signUpAnonymously(context: AuthCallContext = .inProcess) async throws(AuthServiceError)
        -> AuthWire.AnonymousSignUpResponse
    {
        let settings = try await enabledSettings()
        guard settings.enableAnonymousUser else { throw .badRequest(.adminOnlyOperation) }
        let now = clock.now()
        if let address = context.clientAddress {
            guard await limiter.attempt("signup:" + address, policy: policy.addressSignUpLimit, now: now) else {
                throw .badRequest(.tooManyAttempts, "Too many sign-ups from this address. Please try again later.")
            }
        }
        var user = AuthUserRecord(
            uid: SecureRandom.uid(), email: nil, passwordHash: nil, createdAt: now, lastLoginAt: now,
            passwordUpdatedAt: nil, validSince: now)
        user.anonymous = true
        try await insertWithFreshUID(&user)
        let tokens = try await startSession(for: user, provider: "anonymous", authTime: now)
        return AuthWire.AnonymousSignUpResponse(
            idToken: tokens.idToken, refreshToken: tokens.refreshToken, expiresIn: tokens.expiresIn, localId: user.uid)
    }

    /// `accounts:signUp` with an ID token: adds an email and password to that (typically anonymous) account, which
    /// keeps its uid; `EMAIL_EXISTS` when another account has the email.
    private func linkPassword(idToken: String, email rawEmail: String, password: String) async throws(AuthServiceError)
        -> AuthWire.SignUpResponse
    {
        var (user, _) = try await account(presenting: idToken)
        let email = EmailAddress.normalize(rawEmail)
        if let owner = try await storeCall({ try await self.store.user(email: email) }), owner.uid != user.uid {
            throw .badRequest(.emailExists)
        }
        let now = clock.now()
        user.email = email
        user.emailVerified = false
        user.passwordHash = try await hashNewPassword(password)
        user.importedPassword = nil
        user.passwordUpdatedAt = now
        user.anonymous = false
        user.validSince = now
        try await save(user)
        try await storeCall { try await self.store.revokeSessions(uid: user.uid) }
        let tokens = try await startSession(for: user, provider: "password", authTime: now)
        return AuthWire.SignUpResponse(
            idToken: tokens.idToken, displayName: user.displayName, email: email, refreshToken: tokens.refreshToken,
            expiresIn: tokens.expiresIn, localId: user.uid)
    }

    /// The Admin SDK's `create_user`: `DUPLICATE_LOCAL_ID`, `INVALID_LOCAL_ID`, `INVALID_EMAIL`, `EMAIL_EXISTS`,
    /// `INVALID_PHONE_NUMBER`, `PHONE_NUMBER_EXISTS`, `WEAK_PASSWORD`.
    public func createAccount(_ request: AuthWire.SignUpRequest) async throws(AuthServiceError)
        -> AuthWire.CreateAccountResponse
    {
        _ = try await enabledSettings()
        if let uid = request.localId {
            try Self.checkUID(uid)
            if try await storeCall({ try await self.store.user(uid: uid) }) != nil {
                throw .badRequest(.duplicateLocalID)
            }
        }
        let email = try Self.checkedEmail(request.email)
        let phone = try Self.checkedPhoneNumber(request.phoneNumber)
        let hash: PasswordHash? = try await request.password.asyncMap { password throws(AuthServiceError) in
            try await self.hashNewPassword(password)
        }
        let now = clock.now()
        var user = AuthUserRecord(
            uid: request.localId ?? SecureRandom.uid(), email: email, displayName: request.displayName,
            photoURL: request.photoUrl, phoneNumber: phone, passwordHash: hash,
            emailVerified: request.emailVerified ?? false, disabled: request.disabled ?? false, createdAt: now,
            lastLoginAt: nil, passwordUpdatedAt: hash == nil ? nil : now, validSince: now)
        if request.localId == nil {
            try await insertWithFreshUID(&user)
        } else {
            try await insert(user)
        }
        return AuthWire.CreateAccountResponse(localId: user.uid, email: user.email, displayName: user.displayName)
    }

    /// Inserts `user`, drawing a new uid on the (practically impossible: 62^28) collision.
    func insertWithFreshUID(_ user: inout AuthUserRecord) async throws(AuthServiceError) {
        for _ in 0..<3 {
            do throws(AuthStoreError) {
                try await store.insertUser(user)
                return
            } catch .uidTaken {
                user.uid = SecureRandom.uid()
            } catch {
                throw Self.storeFailure(error)
            }
        }
        throw .internalFailure("could not draw a free uid")
    }

    func insert(_ user: AuthUserRecord) async throws(AuthServiceError) {
        do throws(AuthStoreError) {
            try await store.insertUser(user)
        } catch {
            throw Self.storeFailure(error)
        }
    }

    /// The wire error for a store failure: the constraint's Firebase code, or a 500 that names no file.
    static func storeFailure(_ error: AuthStoreError) -> AuthServiceError {
        switch error {
        case .emailTaken: return .badRequest(.emailExists)
        case .phoneNumberTaken: return .badRequest(.phoneNumberExists)
        case .uidTaken: return .badRequest(.duplicateLocalID)
        case .providerTaken: return .badRequest(.federatedUserIDAlreadyLinked)
        default: return .internalFailure("account storage failed")
        }
    }

    /// A uid of 1–128 characters (Firebase's bound), else `INVALID_LOCAL_ID`.
    static func checkUID(_ uid: String) throws(AuthServiceError) {
        guard !uid.isEmpty, uid.count <= 128 else {
            throw .badRequest(.invalidLocalID, "The uid must be a non-empty string of at most 128 characters")
        }
    }

    /// The canonical email, nil when absent or empty; `INVALID_EMAIL` when malformed.
    static func checkedEmail(_ email: String?) throws(AuthServiceError) -> String? {
        guard let email, !email.isEmpty else { return nil }
        guard EmailAddress.isValid(email) else { throw .badRequest(.invalidEmail) }
        return EmailAddress.normalize(email)
    }

    /// An E.164 number (`+`, then 1–15 digits), nil when absent or empty; `INVALID_PHONE_NUMBER` otherwise.
    static func checkedPhoneNumber(_ phone: String?) throws(AuthServiceError) -> String? {
        guard let phone, !phone.isEmpty else { return nil }
        let digits = phone.dropFirst()
        guard phone.first == "+", (1...15).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber })
        else { throw .badRequest(.invalidPhoneNumber, "Invalid format.") }
        return phone
    }
}

extension Optional {
    /// `map` for an async transform with a typed error.
    func asyncMap<U, E: Error>(_ transform: (Wrapped) async throws(E) -> U) async throws(E) -> U? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
