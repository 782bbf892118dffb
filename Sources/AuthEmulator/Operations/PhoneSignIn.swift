import Foundation

extension AuthEmulator {
    /// `accounts:sendVerificationCode`: "sends" a 6-digit code to the number — as in the Firebase emulator no SMS
    /// leaves the machine; the code is listed at `GET /emulator/v1/projects/{p}/verificationCodes`. Errors:
    /// `INVALID_PHONE_NUMBER` (also for a missing number, as production answers), `UNSUPPORTED_FIRST_FACTOR` (the
    /// number is an account's second factor).
    public func sendVerificationCode(_ request: AuthWire.SendVerificationCodeRequest) async throws(AuthServiceError)
        -> AuthWire.SendVerificationCodeResponse
    {
        _ = try await enabledSettings()
        guard let phone = try Self.checkedPhoneNumber(request.phoneNumber) else {
            throw .badRequest(.invalidPhoneNumber, "Invalid format.")
        }
        if let user = try await storeCall({ try await self.store.user(phoneNumber: phone) }), !user.mfaEnrollments.isEmpty {
            throw .badRequest(
                .unsupportedFirstFactor, "A phone number cannot be set as a first factor on an SMS based MFA user.")
        }
        return AuthWire.SendVerificationCodeResponse(sessionInfo: try await sendPhoneCode(to: phone))
    }

    /// `accounts:signInWithPhoneNumber`: signs in to (or creates) the account of the verified number; with an ID
    /// token, links the number to that account. Errors: `MISSING_SESSION_INFO`, `MISSING_CODE`,
    /// `INVALID_SESSION_INFO`, `SESSION_EXPIRED`, `INVALID_CODE`, `MISSING_PHONE_NUMBER`, `INVALID_TEMPORARY_PROOF`,
    /// `PHONE_NUMBER_EXISTS`, `USER_DISABLED`, `UNSUPPORTED_FIRST_FACTOR`.
    public func signInWithPhoneNumber(_ request: AuthWire.SignInWithPhoneNumberRequest) async throws(AuthServiceError)
        -> AuthWire.SignInWithPhoneNumberResponse
    {
        _ = try await enabledSettings()
        let phone: String
        if let proof = request.temporaryProof {
            guard let number = request.phoneNumber, !number.isEmpty else { throw .badRequest(.missingPhoneNumber) }
            guard let challenge = try await storeCall({ try await self.store.challenge(token: proof, kind: "temporary-proof") }),
                challenge.payload["phoneNumber"]?.stringValue == number, clock.now() < challenge.expiresAt
            else { throw .badRequest(.invalidTemporaryProof) }
            phone = number
        } else {
            phone = try await verifyPhoneCode(session: request.sessionInfo, code: request.code)
        }
        let owner = try await storeCall { try await self.store.user(phoneNumber: phone) }
        var linking: AuthUserRecord?
        if let token = request.idToken { linking = try await account(presenting: token).0 }
        if let owner, let linking, owner.uid != linking.uid {
            guard request.temporaryProof == nil else { throw .badRequest(.phoneNumberExists) }
            // The number was verified, but another account holds it: a proof the client can use to sign in to it.
            let proof = SecureRandom.refreshToken()
            let now = clock.now()
            try await storeCall {
                try await self.store.insertChallenge(
                    PendingChallenge(
                        kind: "temporary-proof", uid: nil, payload: ["phoneNumber": .string(phone)], createdAt: now,
                        expiresAt: now.addingTimeInterval(3600)),
                    token: proof)
            }
            return AuthWire.SignInWithPhoneNumberResponse(
                phoneNumber: phone, temporaryProof: proof, temporaryProofExpiresIn: "3600")
        }
        let now = clock.now()
        var user: AuthUserRecord
        let isNew: Bool
        if let existing = linking ?? owner {
            guard !existing.disabled else { throw .badRequest(.userDisabled) }
            guard existing.mfaEnrollments.isEmpty || linking != nil else {
                throw .badRequest(
                    .unsupportedFirstFactor, "A phone number cannot be set as a first factor on an SMS based MFA user.")
            }
            user = existing
            user.phoneNumber = phone
            user.anonymous = false
            user.lastLoginAt = now
            try await save(user)
            isNew = false
        } else {
            user = AuthUserRecord(
                uid: SecureRandom.uid(), email: nil, phoneNumber: phone, passwordHash: nil, createdAt: now,
                lastLoginAt: now, passwordUpdatedAt: nil, validSince: now)
            try await insertWithFreshUID(&user)
            isNew = true
        }
        let tokens = try await startSession(for: user, provider: "phone", authTime: now)
        return AuthWire.SignInWithPhoneNumberResponse(
            idToken: tokens.idToken, refreshToken: tokens.refreshToken, expiresIn: tokens.expiresIn,
            localId: user.uid, isNewUser: isNew, phoneNumber: phone)
    }

    /// `GET /emulator/v1/projects/{p}/verificationCodes`: the unexpired SMS codes "sent".
    public func listVerificationCodes() async throws(AuthServiceError) -> AuthWire.VerificationCodesResponse {
        let now = clock.now()
        let challenges = try await storeCall { try await self.store.challenges(kind: "phone", at: now) }
        return AuthWire.VerificationCodesResponse(
            verificationCodes: challenges.compactMap { challenge in
                guard let code = challenge.payload["code"]?.stringValue,
                    let phone = challenge.payload["phoneNumber"]?.stringValue,
                    let session = challenge.payload["sessionInfo"]?.stringValue
                else { return nil }
                return AuthWire.VerificationCode(code: code, phoneNumber: phone, sessionInfo: session)
            })
    }

    // MARK: Codes

    /// Makes and keeps a 6-digit code for `phone`; returns its `sessionInfo`.
    func sendPhoneCode(to phone: String) async throws(AuthServiceError) -> String {
        let session = SecureRandom.refreshToken()
        var generator = SystemRandomNumberGenerator()
        let code = (0..<6).map { _ in String(Int.random(in: 0...9, using: &generator)) }.joined()
        let now = clock.now()
        let challenge = PendingChallenge(
            kind: "phone", uid: nil,
            payload: ["phoneNumber": .string(phone), "code": .string(code), "sessionInfo": .string(session)],
            createdAt: now, expiresAt: now.addingTimeInterval(TimeInterval(policy.oobCodeLifetime)))
        try await storeCall { try await self.store.insertChallenge(challenge, token: session) }
        return session
    }

    /// The number a code verifies, using the code up: `MISSING_SESSION_INFO`, `MISSING_CODE`,
    /// `INVALID_SESSION_INFO`, `SESSION_EXPIRED`, `INVALID_CODE`.
    func verifyPhoneCode(session: String?, code: String?) async throws(AuthServiceError) -> String {
        guard let session, !session.isEmpty else { throw .badRequest(.missingSessionInfo) }
        guard let code, !code.isEmpty else { throw .badRequest(.missingCode) }
        guard let challenge = try await storeCall({ try await self.store.challenge(token: session, kind: "phone") }),
            let expected = challenge.payload["code"]?.stringValue, let phone = challenge.payload["phoneNumber"]?.stringValue
        else { throw .badRequest(.invalidSessionInfo) }
        guard clock.now() < challenge.expiresAt else { throw .badRequest(.sessionExpired) }
        guard ConstantTime.equals(Array(expected.utf8), Array(code.utf8)) else { throw .badRequest(.invalidCode) }
        guard try await storeCall({ try await self.store.consumeChallenge(token: session) }) else {
            throw .badRequest(.invalidSessionInfo)
        }
        return phone
    }
}
