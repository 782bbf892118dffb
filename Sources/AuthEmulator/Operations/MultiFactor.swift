import Foundation

extension AuthEmulator {
    /// How long an enrollment session or a pending second-factor sign-in lasts.
    static let secondFactorWindow: TimeInterval = 600
    /// The most second factors an account may have (Firebase's limit).
    static let maximumSecondFactors = 5
    /// First factors after which Firebase allows no second one.
    static let mfaIneligibleProviders: Set<String> = ["anonymous", "phone", "custom", "gc.apple.com"]

    /// `accounts/mfaEnrollment:start`. With `totpEnrollmentInfo`: a new TOTP secret (20 bytes, base32 for the
    /// authenticator app) and the session that finalizes it. With `phoneEnrollmentInfo`: an SMS code to the number
    /// (readable at `GET /emulator/v1/projects/{p}/verificationCodes`). Errors: `MISSING_ID_TOKEN` and the ID token
    /// errors, `UNSUPPORTED_FIRST_FACTOR`, `UNVERIFIED_EMAIL`, `OPERATION_NOT_ALLOWED` (the factor is not enabled),
    /// `INVALID_PHONE_NUMBER`, `SECOND_FACTOR_EXISTS`, `SECOND_FACTOR_LIMIT_EXCEEDED`.
    public func mfaEnrollmentStart(_ request: AuthWire.MFAEnrollmentStartRequest) async throws(AuthServiceError)
        -> AuthWire.MFAEnrollmentStartResponse
    {
        let settings = try await enabledSettings()
        guard request.idToken?.isEmpty == false else { throw .badRequest(.missingIDToken) }
        let (user, claims) = try await account(presenting: request.idToken)
        try Self.checkSecondFactorEligibility(user, provider: claims.firebase.signInProvider)
        let now = clock.now()
        if request.totpEnrollmentInfo != nil {
            guard settings.totpMFA else { throw .badRequest(.operationNotAllowed, "TOTP based MFA not enabled.") }
            let secret = SecureRandom.bytes(TOTP.secretLength)
            let session = SecureRandom.refreshToken()
            let expiry = now.addingTimeInterval(Self.secondFactorWindow)
            let challenge = PendingChallenge(
                kind: "totp-enrollment", uid: user.uid, payload: ["secret": .string(Base64URL.encode(secret))],
                createdAt: now, expiresAt: expiry)
            try await storeCall { try await self.store.insertChallenge(challenge, token: session) }
            return AuthWire.MFAEnrollmentStartResponse(
                totpSessionInfo: AuthWire.TOTPSessionInfo(
                    sharedSecretKey: TOTP.base32(secret), verificationCodeLength: TOTP.digits, hashingAlgorithm: "SHA1",
                    periodSec: Int(TOTP.period), sessionInfo: session, finalizeEnrollmentTime: rfc3339(expiry)))
        }
        guard let phoneInfo = request.phoneEnrollmentInfo else {
            throw .badRequest(
                AuthErrorCode(rawValue: "INVALID_ARGUMENT"), "((Missing phoneEnrollmentInfo or totpEnrollmentInfo.))")
        }
        guard settings.phoneMFA else { throw .badRequest(.operationNotAllowed, "SMS based MFA not enabled.") }
        guard let phone = try Self.checkedPhoneNumber(phoneInfo.phoneNumber) else {
            throw .badRequest(.invalidPhoneNumber, "Invalid format.")
        }
        guard !user.mfaEnrollments.contains(where: { $0.factor == .phone(phone) }) else {
            throw .badRequest(.secondFactorExists, "Phone number already enrolled as second factor for this account.")
        }
        let session = try await sendPhoneCode(to: phone)
        return AuthWire.MFAEnrollmentStartResponse(phoneSessionInfo: .init(sessionInfo: session))
    }

    /// `accounts/mfaEnrollment:finalize`: checks the TOTP code against the session's secret (RFC 6238, the realm's
    /// `adjacentIntervals` steps either side) or the SMS code, enrolls the factor and answers new tokens that
    /// carry it (`firebase.sign_in_second_factor`). Errors: as `mfaEnrollmentStart`, and `MISSING_SESSION_INFO`,
    /// `INVALID_SESSION_INFO`, `SESSION_EXPIRED`, `MISSING_CODE`, `INVALID_CODE`.
    public func mfaEnrollmentFinalize(_ request: AuthWire.MFAEnrollmentFinalizeRequest) async throws(AuthServiceError)
        -> AuthWire.MFATokensResponse
    {
        let settings = try await enabledSettings()
        guard request.idToken?.isEmpty == false else { throw .badRequest(.missingIDToken) }
        var (user, claims) = try await account(presenting: request.idToken)
        try Self.checkSecondFactorEligibility(user, provider: claims.firebase.signInProvider)
        let now = clock.now()
        let enrollment: MFAEnrollment
        let factorName: String
        if let totp = request.totpVerificationInfo {
            guard settings.totpMFA else { throw .badRequest(.operationNotAllowed, "TOTP based MFA not enabled.") }
            guard let session = totp.sessionInfo, !session.isEmpty else { throw .badRequest(.missingSessionInfo) }
            guard let code = totp.verificationCode, !code.isEmpty else { throw .badRequest(.missingCode) }
            guard let challenge = try await storeCall({ try await self.store.challenge(token: session, kind: "totp-enrollment") }),
                challenge.uid == user.uid, let secretText = challenge.payload["secret"]?.stringValue,
                let secret = Base64URL.decode(secretText)
            else { throw .badRequest(.invalidSessionInfo) }
            guard now < challenge.expiresAt else { throw .badRequest(.sessionExpired) }
            guard TOTP.verify(code, secret: secret, at: seconds(now), window: settings.totpAdjacentIntervals) else {
                throw .badRequest(.invalidCode)
            }
            guard try await storeCall({ try await self.store.consumeChallenge(token: session) }) else {
                throw .badRequest(.invalidSessionInfo)
            }
            enrollment = MFAEnrollment(
                id: SecureRandom.uid(), factor: .totp(secret: secret), displayName: request.displayName, enrolledAt: now)
            factorName = "totp"
        } else if let phone = request.phoneVerificationInfo {
            guard settings.phoneMFA else { throw .badRequest(.operationNotAllowed, "SMS based MFA not enabled.") }
            let number = try await verifyPhoneCode(session: phone.sessionInfo, code: phone.code)
            guard !user.mfaEnrollments.contains(where: { $0.factor == .phone(number) }) else {
                throw .badRequest(.secondFactorExists, "Phone number already enrolled as second factor for this account.")
            }
            enrollment = MFAEnrollment(
                id: SecureRandom.uid(), factor: .phone(number), displayName: request.displayName, enrolledAt: now)
            factorName = "phone"
        } else {
            throw .badRequest(
                AuthErrorCode(rawValue: "INVALID_ARGUMENT"), "((Missing phoneVerificationInfo or totpVerificationInfo.))")
        }
        guard user.mfaEnrollments.count < Self.maximumSecondFactors else {
            throw .badRequest(.secondFactorLimitExceeded)
        }
        user.mfaEnrollments.append(enrollment)
        try await save(user)
        let tokens = try await startSession(
            for: user, provider: claims.firebase.signInProvider, authTime: Date(timeIntervalSince1970: TimeInterval(claims.authTime)),
            secondFactor: "\(factorName):\(enrollment.id)")
        return AuthWire.MFATokensResponse(idToken: tokens.idToken, refreshToken: tokens.refreshToken)
    }

    /// `accounts/mfaEnrollment:withdraw`: removes a factor (`MFA_ENROLLMENT_NOT_FOUND`) and answers new tokens.
    public func mfaEnrollmentWithdraw(_ request: AuthWire.MFAWithdrawRequest) async throws(AuthServiceError)
        -> AuthWire.MFATokensResponse
    {
        _ = try await enabledSettings()
        guard request.idToken?.isEmpty == false else { throw .badRequest(.missingIDToken) }
        var (user, claims) = try await account(presenting: request.idToken)
        guard let index = user.mfaEnrollments.firstIndex(where: { $0.id == request.mfaEnrollmentId }) else {
            throw .badRequest(.mfaEnrollmentNotFound)
        }
        user.mfaEnrollments.remove(at: index)
        try await save(user)
        let tokens = try await startSession(
            for: user, provider: claims.firebase.signInProvider,
            authTime: Date(timeIntervalSince1970: TimeInterval(claims.authTime)))
        return AuthWire.MFATokensResponse(idToken: tokens.idToken, refreshToken: tokens.refreshToken)
    }

    /// `accounts/mfaSignIn:start`, for an SMS factor: sends a code to its number. Errors:
    /// `MISSING_MFA_PENDING_CREDENTIAL`, `MISSING_MFA_ENROLLMENT_ID`, `INVALID_MFA_PENDING_CREDENTIAL`,
    /// `MFA_ENROLLMENT_NOT_FOUND`; a TOTP factor needs no start (`INVALID_ARGUMENT`).
    public func mfaSignInStart(_ request: AuthWire.MFASignInStartRequest) async throws(AuthServiceError)
        -> AuthWire.MFASignInStartResponse
    {
        _ = try await enabledSettings()
        guard let pending = request.mfaPendingCredential, !pending.isEmpty else {
            throw .badRequest(.missingMFAPendingCredential, "Request does not have MFA pending credential.")
        }
        guard let enrollmentId = request.mfaEnrollmentId, !enrollmentId.isEmpty else {
            throw .badRequest(.missingMFAEnrollmentID, "No second factor identifier is provided.")
        }
        let (user, _) = try await pendingSignIn(pending)
        guard let enrollment = user.mfaEnrollments.first(where: { $0.id == enrollmentId }) else {
            throw .badRequest(.mfaEnrollmentNotFound)
        }
        guard case .phone(let number) = enrollment.factor else {
            throw .badRequest(
                AuthErrorCode(rawValue: "INVALID_ARGUMENT"),
                "a TOTP factor needs no start: call mfaSignIn:finalize with totpVerificationInfo")
        }
        return AuthWire.MFASignInStartResponse(phoneResponseInfo: .init(sessionInfo: try await sendPhoneCode(to: number)))
    }

    /// `accounts/mfaSignIn:finalize`: completes a sign-in that answered `mfaPendingCredential`, with a TOTP code
    /// (`totpVerificationInfo.verificationCode` and `mfaEnrollmentId`) or an SMS code; answers the tokens, which
    /// carry the factor. Errors: `MISSING_CREDENTIAL`, `INVALID_MFA_PENDING_CREDENTIAL` (unknown, used or expired),
    /// `MISSING_MFA_ENROLLMENT_ID`, `MFA_ENROLLMENT_NOT_FOUND`, `MISSING_CODE`, `INVALID_CODE`, the SMS session
    /// errors, `USER_DISABLED`.
    public func mfaSignInFinalize(_ request: AuthWire.MFASignInFinalizeRequest) async throws(AuthServiceError)
        -> AuthWire.MFATokensResponse
    {
        let settings = try await enabledSettings()
        guard let pending = request.mfaPendingCredential, !pending.isEmpty else {
            throw .badRequest(AuthErrorCode(rawValue: "MISSING_CREDENTIAL"), "Please set MFA Pending Credential.")
        }
        let (user, challenge) = try await pendingSignIn(pending)
        let enrollment: MFAEnrollment
        let factorName: String
        if let totp = request.totpVerificationInfo {
            guard let enrollmentId = request.mfaEnrollmentId, !enrollmentId.isEmpty else {
                throw .badRequest(.missingMFAEnrollmentID, "No second factor identifier is provided.")
            }
            guard let found = user.mfaEnrollments.first(where: { $0.id == enrollmentId }),
                case .totp(let secret) = found.factor
            else { throw .badRequest(.mfaEnrollmentNotFound) }
            guard let code = totp.verificationCode, !code.isEmpty else { throw .badRequest(.missingCode) }
            guard TOTP.verify(code, secret: secret, at: seconds(clock.now()), window: settings.totpAdjacentIntervals)
            else { throw .badRequest(.invalidCode) }
            enrollment = found
            factorName = "totp"
        } else if let phone = request.phoneVerificationInfo {
            let number = try await verifyPhoneCode(session: phone.sessionInfo, code: phone.code)
            guard let found = user.mfaEnrollments.first(where: { $0.factor == .phone(number) }) else {
                throw .badRequest(.mfaEnrollmentNotFound)
            }
            enrollment = found
            factorName = "phone"
        } else {
            throw .badRequest(AuthErrorCode(rawValue: "INVALID_ARGUMENT"), "MFA provider not supported!")
        }
        guard try await storeCall({ try await self.store.consumeChallenge(token: pending) }) else {
            throw .badRequest(.invalidMFAPendingCredential)
        }
        guard !user.disabled else { throw .badRequest(.userDisabled) }
        let now = clock.now()
        try await storeCall { try await self.store.recordLogin(uid: user.uid, at: now) }
        let tokens = try await startSession(
            for: user, provider: challenge.payload["provider"]?.stringValue ?? "password",
            extraClaims: challenge.payload["extraClaims"]?.stringValue, authTime: now,
            secondFactor: "\(factorName):\(enrollment.id)")
        return AuthWire.MFATokensResponse(idToken: tokens.idToken, refreshToken: tokens.refreshToken)
    }

    // MARK: Shared

    /// Whether `user` must pass a second factor in this realm (MFA enabled and a factor enrolled).
    func needsSecondFactor(_ user: AuthUserRecord) async throws(AuthServiceError) -> Bool {
        guard !user.mfaEnrollments.isEmpty else { return false }
        return try await settings().mfaEnabled
    }

    /// The answer to a first factor that needs a second: a pending credential (kept `secondFactorWindow` seconds)
    /// and the account's factors, secrets left out and phone numbers masked.
    func pendingSecondFactor(for user: AuthUserRecord, provider: String, extraClaims: String? = nil)
        async throws(AuthServiceError) -> (credential: String, factors: [AuthWire.MFAInfo])
    {
        let token = SecureRandom.refreshToken()
        let now = clock.now()
        var payload: [String: AuthJSON] = ["provider": .string(provider)]
        if let extraClaims { payload["extraClaims"] = .string(extraClaims) }
        let challenge = PendingChallenge(
            kind: "mfa-sign-in", uid: user.uid, payload: payload, createdAt: now,
            expiresAt: now.addingTimeInterval(Self.secondFactorWindow))
        try await storeCall { try await self.store.insertChallenge(challenge, token: token) }
        return (token, user.mfaEnrollments.map { Self.mfaInfo($0, masked: true) })
    }

    private func pendingSignIn(_ token: String) async throws(AuthServiceError) -> (AuthUserRecord, PendingChallenge) {
        guard let challenge = try await storeCall({ try await self.store.challenge(token: token, kind: "mfa-sign-in") }),
            clock.now() < challenge.expiresAt, let uid = challenge.uid,
            let user = try await storeCall({ try await self.store.user(uid: uid) })
        else { throw .badRequest(.invalidMFAPendingCredential) }
        return (user, challenge)
    }

    static func checkSecondFactorEligibility(_ user: AuthUserRecord, provider: String) throws(AuthServiceError) {
        guard !mfaIneligibleProviders.contains(provider) else {
            throw .badRequest(.unsupportedFirstFactor, "MFA is not available for the given first factor.")
        }
        guard user.emailVerified else {
            throw .badRequest(.unverifiedEmail, "Need to verify email first before enrolling second factors.")
        }
    }

    /// A factor on the wire: TOTP as `totpInfo: {}`, a phone number masked to its last four digits for clients.
    static func mfaInfo(_ enrollment: MFAEnrollment, masked: Bool) -> AuthWire.MFAInfo {
        var info = AuthWire.MFAInfo(
            mfaEnrollmentId: enrollment.id, displayName: enrollment.displayName, enrolledAt: rfc3339(enrollment.enrolledAt))
        switch enrollment.factor {
        case .totp: info.totpInfo = AuthWire.Empty()
        case .phone(let number):
            info.phoneInfo = masked ? maskedPhoneNumber(number) : number
            if !masked { info.unobfuscatedPhoneInfo = number }
        }
        return info
    }

    /// All but the last four digits replaced by `*`, as Firebase shows a second factor's number.
    static func maskedPhoneNumber(_ number: String) -> String {
        var digits = 0
        return String(
            number.reversed().map { character -> Character in
                guard character.isNumber else { return character }
                digits += 1
                return digits > 4 ? "*" : character
            }.reversed())
    }

    func save(_ user: AuthUserRecord) async throws(AuthServiceError) {
        do throws(AuthStoreError) {
            try await store.saveUser(user)
        } catch {
            throw Self.storeFailure(error)
        }
    }
}

extension AuthWire.MFAInfo {
    init(mfaEnrollmentId: String, displayName: String?, enrolledAt: String) {
        self.mfaEnrollmentId = mfaEnrollmentId
        self.displayName = displayName
        self.enrolledAt = enrolledAt
    }
}
