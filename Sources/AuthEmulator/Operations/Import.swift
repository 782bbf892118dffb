import Foundation

extension AuthEmulator {
    /// The most accounts one import may carry (Firebase's limit).
    static let maximumImportSize = 1000

    /// `accounts:batchCreate` (the Admin SDKs' `import_users`): up to 1000 accounts with their uid, profile, custom
    /// claims, linked providers (`providerUserInfo`), second factors, and a password hash in any algorithm Firebase
    /// imports (`PasswordHashAlgorithm`), checked at sign-in and then replaced by this service's scrypt. Request
    /// errors: `MISSING_USER_ACCOUNT`, more than 1000 (`INVALID_ARGUMENT`), `MISSING_HASH_ALGORITHM`,
    /// `INVALID_HASH_ALGORITHM`, `MISSING_HASH_KEY`, `INVALID_HASH_ROUNDS`, `INVALID_HASH_MEMORY_COST`,
    /// `INVALID_HASH_PARAMETER`, and with `sanityCheck` `DUPLICATE_EMAIL` / `DUPLICATE_RAW_ID`; without
    /// `allowOverwrite`, `DUPLICATE_LOCAL_ID` for a uid listed twice. Per-account errors come back in `error`
    /// (`{index, message}`) and the other accounts are imported.
    public func batchCreate(_ request: AuthWire.BatchCreateRequest) async throws(AuthServiceError)
        -> AuthWire.BatchCreateResponse
    {
        _ = try await enabledSettings()
        guard let users = request.users, !users.isEmpty else { throw .badRequest(.missingUserAccount) }
        guard users.count <= Self.maximumImportSize else {
            throw .invalidArgument("at most \(Self.maximumImportSize) accounts may be imported at once")
        }
        let algorithm = try users.contains(where: { $0.passwordHash != nil }) ? Self.importAlgorithm(request) : nil
        if request.sanityCheck == true {
            var emails: Set<String> = []
            var identities: Set<String> = []
            for user in users {
                if let email = user.email.map(EmailAddress.normalize) {
                    guard emails.insert(email).inserted else { throw .badRequest(AuthErrorCode(rawValue: "DUPLICATE_EMAIL"), email) }
                }
                for info in user.providerUserInfo ?? [] {
                    guard identities.insert("\(info.providerId):\(info.rawId)").inserted else {
                        throw .badRequest(
                            AuthErrorCode(rawValue: "DUPLICATE_RAW_ID"),
                            "Provider id(\(info.providerId)), Raw id(\(info.rawId))")
                    }
                }
            }
        }
        if request.allowOverwrite != true {
            var uids: Set<String> = []
            for user in users {
                let uid = user.localId ?? ""
                guard uids.insert(uid).inserted else { throw .badRequest(.duplicateLocalID, uid) }
            }
        }
        var errors: [AuthWire.BatchCreateError] = []
        for (index, imported) in users.enumerated() {
            do throws(AuthServiceError) {
                try await importUser(imported, algorithm: algorithm, overwrite: request.allowOverwrite == true)
            } catch {
                errors.append(AuthWire.BatchCreateError(index: index, message: Self.importMessage(error)))
            }
        }
        return AuthWire.BatchCreateResponse(error: errors)
    }

    private func importUser(_ imported: AuthWire.ImportedUser, algorithm: PasswordHashAlgorithm?, overwrite: Bool)
        async throws(AuthServiceError)
    {
        guard let uid = imported.localId, !uid.isEmpty else { throw .badRequest(.missingLocalID, "localId is missing") }
        try Self.checkUID(uid)
        if let tenant = imported.tenantId, tenant != tenantId {
            throw .badRequest(
                AuthErrorCode(rawValue: "INVALID_TENANT"), "Tenant id in userInfo does not match the tenant id in request.")
        }
        let now = clock.now()
        var user = AuthUserRecord(
            uid: uid, email: nil, displayName: imported.displayName, photoURL: imported.photoUrl, passwordHash: nil,
            emailVerified: imported.emailVerified ?? false, disabled: imported.disabled ?? false, createdAt: now,
            lastLoginAt: nil, passwordUpdatedAt: nil, validSince: now)
        if let created = imported.createdAt {
            guard Self.requestMilliseconds.contains(created.value) else { throw .badRequest(.invalidArgument, "createdAt") }
            user.createdAt = date(milliseconds: created.value)
        }
        if let login = imported.lastLoginAt {
            guard Self.requestMilliseconds.contains(login.value) else { throw .badRequest(.invalidArgument, "lastLoginAt") }
            user.lastLoginAt = date(milliseconds: login.value)
        }
        if let email = imported.email, !email.isEmpty {
            guard EmailAddress.isValid(email) else { throw .badRequest(.invalidEmail, "email is invalid") }
            user.email = EmailAddress.normalize(email)
        }
        if let phone = imported.phoneNumber, !phone.isEmpty {
            user.phoneNumber = try Self.checkedPhoneNumber(phone)
        }
        if let claims = imported.customAttributes, !claims.isEmpty {
            try Self.checkCustomClaims(claims)
            user.customAttributes = claims == "{}" ? nil : claims
        }
        if let hash = imported.passwordHash?.bytes {
            guard let algorithm else { throw .badRequest(.missingHashAlgorithm) }
            let salt = imported.salt?.bytes ?? []
            guard ImportedPasswordHash.hashLengths.contains(hash.count), ImportedPasswordHash.saltLengths.contains(salt.count)
            else {
                throw .badRequest(.invalidArgument, "passwordHash must be 1-1024 bytes and salt at most 1024 bytes")
            }
            if algorithm == .bcrypt {
                guard let setting = Bcrypt.parse(String(decoding: hash, as: UTF8.self)), setting.hash != nil,
                    setting.cost <= Bcrypt.maximumCost
                else {
                    throw .badRequest(
                        .invalidArgument,
                        "a BCRYPT passwordHash is a $2a$, $2b$ or $2y$ string of cost 4-\(Bcrypt.maximumCost)")
                }
            }
            user.importedPassword = ImportedPasswordHash(algorithm: algorithm, salt: salt, hash: hash)
            user.passwordUpdatedAt = now
        } else if let raw = imported.rawPassword {
            user.passwordHash = try await hashNewPassword(raw)
            user.passwordUpdatedAt = now
        }
        for info in imported.providerUserInfo ?? [] where info.providerId != "password" && info.providerId != "phone" {
            guard !info.providerId.isEmpty, !info.rawId.isEmpty else {
                throw .badRequest(.invalidArgument, "federatedId or (providerId & rawId) is required")
            }
            user.providers.removeAll { $0.providerId == info.providerId }
            user.providers.append(
                FederatedIdentity(
                    providerId: info.providerId, rawId: info.rawId, federatedId: info.federatedId ?? info.rawId,
                    email: info.email.map(EmailAddress.normalize), displayName: info.displayName,
                    photoUrl: info.photoUrl, screenName: info.screenName, phoneNumber: info.phoneNumber))
        }
        for factor in imported.mfaInfo ?? [] {
            guard user.email != nil, user.emailVerified else {
                throw .badRequest(.unverifiedEmail, "Second factor account requires email to be verified.")
            }
            let id = factor.mfaEnrollmentId ?? SecureRandom.uid()
            guard !user.mfaEnrollments.contains(where: { $0.id == id }) else {
                throw .badRequest(AuthErrorCode(rawValue: "DUPLICATE_MFA_ENROLLMENT_ID"))
            }
            let enrolledAt = factor.enrolledAt.flatMap(parseRFC3339) ?? now
            if let secretText = factor.totpInfo?.sharedSecretKey {
                guard let secret = TOTP.decodeBase32(secretText), secret.count >= 10 else {
                    throw .badRequest(.invalidArgument, "totpInfo.sharedSecretKey must be base32 of at least 10 bytes")
                }
                user.mfaEnrollments.append(
                    MFAEnrollment(id: id, factor: .totp(secret: secret), displayName: factor.displayName, enrolledAt: enrolledAt))
            } else {
                guard let phone = try Self.checkedPhoneNumber(factor.phoneInfo) else {
                    throw .badRequest(.invalidPhoneNumber, "Phone number format is invalid")
                }
                user.mfaEnrollments.append(
                    MFAEnrollment(id: id, factor: .phone(phone), displayName: factor.displayName, enrolledAt: enrolledAt))
            }
        }
        guard user.mfaEnrollments.count <= Self.maximumSecondFactors else { throw .badRequest(.secondFactorLimitExceeded) }
        if let email = user.email, let owner = try await storeCall({ try await self.store.user(email: email) }),
            owner.uid != uid
        {
            throw .badRequest(.emailExists, "email exists in other account in database")
        }
        for identity in user.providers {
            if let owner = try await storeCall({ try await self.store.user(providerId: identity.providerId, rawId: identity.rawId) }),
                owner.uid != uid
            {
                throw .badRequest(.federatedUserIDAlreadyLinked, "raw id exists in other account in database")
            }
        }
        let exists = try await storeCall { try await self.store.user(uid: uid) } != nil
        if exists, !overwrite {
            throw .badRequest(.duplicateLocalID, "localId belongs to an existing account - can not overwrite.")
        }
        let record = user
        do throws(AuthStoreError) {
            if exists { try await store.replaceUser(record) } else { try await store.insertUser(record) }
        } catch {
            throw Self.storeFailure(error)
        }
    }

    /// The algorithm of an import, checked as Firebase checks it.
    static func importAlgorithm(_ request: AuthWire.BatchCreateRequest) throws(AuthServiceError) -> PasswordHashAlgorithm {
        guard let name = request.hashAlgorithm, !name.isEmpty else { throw .badRequest(.missingHashAlgorithm) }
        let order: PasswordHashAlgorithm.Order?
        switch request.passwordHashOrder {
        case nil, "", "UNSPECIFIED_ORDER": order = nil
        case let text?:
            guard let parsed = PasswordHashAlgorithm.Order(rawValue: text) else {
                throw .invalidArgument("Invalid value at 'password_hash_order' (TYPE_ENUM), \"\(text.prefix(40))\"")
            }
            order = parsed
        }
        let rounds = request.rounds.map { Int(clamping: $0.value) }
        func digestRounds() throws(AuthServiceError) -> Int {
            let value = rounds ?? 0
            guard PasswordHashAlgorithm.digestRounds.contains(value) else { throw .badRequest(.invalidHashRounds) }
            return value
        }
        func key() throws(AuthServiceError) -> [UInt8] {
            guard let key = request.signerKey?.bytes, !key.isEmpty else { throw .badRequest(.missingHashKey) }
            return key
        }
        let digests: [String: PasswordHashAlgorithm.Digest] = ["SHA1": .sha1, "SHA256": .sha256, "SHA512": .sha512]
        let hmacs: [String: PasswordHashAlgorithm.Digest] = [
            "HMAC_MD5": .md5, "HMAC_SHA1": .sha1, "HMAC_SHA256": .sha256, "HMAC_SHA512": .sha512,
        ]
        switch name {
        case "MD5": return .md5(rounds: try digestRounds())
        case "BCRYPT": return .bcrypt
        case "PBKDF_SHA1", "PBKDF2_SHA256":
            let value = rounds ?? 0
            guard PasswordHashAlgorithm.pbkdfRounds.contains(value) else { throw .badRequest(.invalidHashRounds) }
            return .pbkdf2(name == "PBKDF_SHA1" ? .sha1 : .sha256, rounds: value)
        case "SCRYPT":
            let signerKey = try key()
            guard let value = rounds, PasswordHashAlgorithm.firebaseScryptRounds.contains(value) else {
                throw .badRequest(.invalidHashRounds)
            }
            guard let memory = request.memoryCost.map({ Int(clamping: $0.value) }),
                PasswordHashAlgorithm.firebaseScryptMemoryCost.contains(memory)
            else { throw .badRequest(.invalidHashMemoryCost) }
            return .firebaseScrypt(
                signerKey: signerKey, saltSeparator: request.saltSeparator?.bytes ?? [], rounds: value,
                memoryCost: memory)
        case "STANDARD_SCRYPT":
            let algorithm = PasswordHashAlgorithm.standardScrypt(
                cpuMemCost: request.cpuMemCost.map { Int(clamping: $0.value) } ?? 0,
                blockSize: request.blockSize.map { Int(clamping: $0.value) } ?? 0,
                parallelization: request.parallelization.map { Int(clamping: $0.value) } ?? 0,
                keyLength: request.dkLen.map { Int(clamping: $0.value) } ?? 0)
            guard algorithm.isWithinBounds else {
                throw .badRequest(
                    .invalidHashParameter,
                    "STANDARD_SCRYPT takes cpuMemCost a power of two, blockSize, parallelization 1-16 and dkLen "
                        + "1-1024 within 64 MiB")
            }
            return algorithm
        default:
            if let family = digests[name] {
                let value = try digestRounds()
                guard value >= 1 else { throw .badRequest(.invalidHashRounds) }
                return .sha(family, rounds: value, order: order ?? .saltFirst)
            }
            if let family = hmacs[name] { return .hmac(family, key: try key(), order: order ?? .passwordFirst) }
            throw .badRequest(.invalidHashAlgorithm, String(name.prefix(40)))
        }
    }

    /// A per-account error's message as the Firebase emulator words it: the sentence alone where there is one
    /// (`email is invalid`), Firebase's friendlier wording for claims, else the code.
    private static func importMessage(_ error: AuthServiceError) -> String {
        switch error.code {
        case .invalidClaims: return "Invalid custom claims provided."
        case .claimsTooLarge: return "Custom claims provided are too large."
        case .forbiddenClaim: return "Custom claims provided include a reserved claim."
        default:
            let parts = error.message.components(separatedBy: " : ")
            return parts.count > 1 ? parts.dropFirst().joined(separator: " : ") : error.message
        }
    }

    /// `accounts:query` / `projects/{p}:queryAccounts` (the Admin SDK's user search): every account, or the count
    /// (`returnUserInfo: false`), sorted by `USER_ID`, `CREATED_AT`, `LAST_LOGIN_AT`, `NAME` or `USER_EMAIL`,
    /// `ASC`/`DESC`, with `limit` (default and most 500) and `offset`; `expression` filters on `email`, `userId` or
    /// `phoneNumber` (exact match).
    public func query(_ request: AuthWire.QueryRequest) async throws(AuthServiceError) -> AuthWire.QueryResponse {
        _ = try await enabledSettings()
        var users = try await storeCall { try await self.store.allUsers() }
        if let expressions = request.expression, !expressions.isEmpty {
            var matched: [AuthUserRecord] = []
            for expression in expressions {
                guard let object = expression.objectValue else { throw .invalidArgument("expression") }
                for user in users where !matched.contains(where: { $0.uid == user.uid }) {
                    var keep = true
                    if let email = object["email"]?.stringValue { keep = keep && user.email == EmailAddress.normalize(email) }
                    if let uid = object["userId"]?.stringValue { keep = keep && user.uid == uid }
                    if let phone = object["phoneNumber"]?.stringValue { keep = keep && user.phoneNumber == phone }
                    if keep { matched.append(user) }
                }
            }
            users = matched
        }
        if request.returnUserInfo == false { return AuthWire.QueryResponse(recordsCount: String(users.count)) }
        let key: (AuthUserRecord) -> String
        switch request.sortBy ?? "USER_ID" {
        case "USER_ID", "SORT_BY_FIELD_UNSPECIFIED": key = { $0.uid }
        case "NAME": key = { $0.displayName ?? "" }
        case "USER_EMAIL": key = { $0.email ?? "" }
        case "CREATED_AT": key = { String(format: "%020lld", milliseconds($0.createdAt)) }
        case "LAST_LOGIN_AT": key = { String(format: "%020lld", $0.lastLoginAt.map(milliseconds) ?? 0) }
        case let other: throw .invalidArgument("Invalid value at 'sort_by' (TYPE_ENUM), \"\(other.prefix(40))\"")
        }
        users.sort { key($0) == key($1) ? $0.uid < $1.uid : key($0) < key($1) }
        switch request.order ?? "ASC" {
        case "ASC", "ORDER_UNSPECIFIED": break
        case "DESC": users.reverse()
        case let other: throw .invalidArgument("Invalid value at 'order' (TYPE_ENUM), \"\(other.prefix(40))\"")
        }
        let total = users.count
        let offset = Int(clamping: request.offset?.value ?? 0)
        let limit = Int(clamping: request.limit?.value ?? 500)
        guard offset >= 0, (0...500).contains(limit) else { throw .invalidArgument("limit is 0-500, offset at least 0") }
        let page = users.dropFirst(offset).prefix(limit == 0 ? 500 : limit)
        return AuthWire.QueryResponse(
            recordsCount: String(total), userInfo: page.map { accountInfo($0, administrator: true) })
    }
}

/// An RFC 3339 timestamp, with or without fractional seconds.
func parseRFC3339(_ text: String) -> Date? {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    if let date = formatter.date(from: text) { return date }
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.date(from: text)
}
