import Foundation

extension AuthEmulator {
    /// `accounts:signInWithIdp` (`verifyAssertion`): sign-in with an identity provider's credential, as the Firebase
    /// emulator takes it — the provider is not called; `requestUri` (with `postBody` and its fragment) carries
    /// `providerId` and an `id_token` (a JWT, whose claims are read unverified, or the claims as JSON) or, for
    /// `saml.*`, a `SAMLResponse` as JSON (`{"assertion":{"subject":{"nameId":…}}}`). The account is found by the
    /// provider's `sub`, else by a verified email (linking the provider to it), else created; with `idToken` the
    /// provider is linked to that account. Errors: `MISSING_REQUEST_URI`, `INVALID_REQUEST_URI`,
    /// `INVALID_CREDENTIAL_OR_PROVIDER_ID`, `INVALID_IDP_RESPONSE`, `FEDERATED_USER_ID_ALREADY_LINKED`,
    /// `EMAIL_EXISTS`, `OPERATION_NOT_ALLOWED` (a disabled OIDC/SAML configuration), `USER_DISABLED`; an unverified
    /// email that another account holds answers `needConfirmation`.
    public func signInWithIdp(_ request: AuthWire.SignInWithIdpRequest) async throws(AuthServiceError)
        -> AuthWire.SignInWithIdpResponse
    {
        _ = try await enabledSettings()
        if request.returnRefreshToken == true { throw .notImplemented("returnRefreshToken is not implemented yet.") }
        if request.pendingIdToken != nil { throw .notImplemented("pendingIdToken is not implemented yet.") }
        guard let uri = request.requestUri, !uri.isEmpty else { throw .badRequest(.missingRequestURI) }
        guard Self.isAbsoluteURL(uri), let components = URLComponents(string: uri) else {
            throw .badRequest(.invalidRequestURI)
        }
        var parameters: [String: String] = [:]
        for item in components.queryItems ?? [] { parameters[item.name] = item.value ?? "" }
        if let post = request.postBody { parameters.merge(FormEncoding.decode(post)) { _, new in new } }
        if let fragment = components.fragment { parameters.merge(FormEncoding.decode(fragment)) { _, new in new } }
        guard let providerId = parameters["providerId"]?.lowercased(), !providerId.isEmpty else {
            // The URI is named without its query and fragment, which may carry a provider's token.
            var named = components
            named.query = nil
            named.fragment = nil
            throw .badRequest(
                .invalidCredentialOrProviderID, "Invalid IdP response/credential: \((named.string ?? "").prefix(200))")
        }
        try await checkProviderEnabled(providerId)
        let idToken = parameters["id_token"].flatMap { $0.isEmpty ? nil : $0 }
        let accessToken = parameters["access_token"].flatMap { $0.isEmpty ? nil : $0 }
        var found = try Self.idpClaims(idToken)
        if found == nil { found = try Self.idpClaims(accessToken) }
        guard let claims = found else {
            if accessToken != nil {
                throw .notImplemented("This auth service only takes sign-in with \(providerId) using an id_token.")
            }
            throw .notImplemented("This auth service only supports sign-in with credentials (id_token required).")
        }
        var rawId = claims["sub"]?.stringValue ?? ""
        var email = claims["email"]?.stringValue.map(EmailAddress.normalize)
        var emailVerified = claims["email_verified"] == .bool(true) || claims["email_verified"] == .string("true")
        var rawUserInfo = AuthJSON.object(claims).description
        if providerId.hasPrefix("saml."), let samlText = parameters["SAMLResponse"] {
            guard let saml = AuthJSON.parse(samlText)?.objectValue, let assertion = saml["assertion"]?.objectValue,
                let nameId = assertion["subject"]?.objectValue?["nameId"]?.stringValue
            else { throw .badRequest(.invalidIDPResponse, "((Missing assertion.subject.nameId in SAMLResponse.))") }
            if EmailAddress.isValid(nameId) { email = EmailAddress.normalize(nameId) }
            emailVerified = true
            rawUserInfo = (assertion["attributeStatements"] ?? .null).description
            if rawId.isEmpty { rawId = nameId }
        }
        let federatedId = providerId == "google.com" ? "https://accounts.google.com/\(rawId)" : rawId
        let identity = FederatedIdentity(
            providerId: providerId, rawId: rawId, federatedId: rawId, email: email,
            displayName: claims["name"]?.stringValue, photoUrl: claims["picture"]?.stringValue,
            screenName: claims["screen_name"]?.stringValue)
        var response = AuthWire.SignInWithIdpResponse(
            providerId: providerId, federatedId: federatedId, email: email, emailVerified: emailVerified,
            displayName: identity.displayName, fullName: identity.displayName,
            firstName: claims["given_name"]?.stringValue, lastName: claims["family_name"]?.stringValue,
            photoUrl: identity.photoUrl, screenName: identity.screenName, rawUserInfo: rawUserInfo,
            oauthAccessToken: accessToken ?? "FirebaseAuthEmulatorFakeAccessToken_\(providerId)", oauthIdToken: idToken)
        response.tenantId = tenantId

        let linked = try await storeCall { try await self.store.user(providerId: providerId, rawId: rawId) }
        let now = clock.now()
        var user: AuthUserRecord
        var isNew = false
        do throws(AuthServiceError) {
            if let token = request.idToken {
                user = try await account(presenting: token).0
                guard linked == nil else { throw .badRequest(.federatedUserIDAlreadyLinked) }
                if let email, let owner = try await storeCall({ try await self.store.user(email: email) }),
                    owner.uid != user.uid
                {
                    throw .badRequest(.emailExists)
                }
                if user.email == nil, let email {
                    user.email = email
                    user.emailVerified = emailVerified
                } else if user.email == email, emailVerified {
                    user.emailVerified = true
                }
            } else if let linked {
                user = linked
            } else if let email, let owner = try await storeCall({ try await self.store.user(email: email) }) {
                guard emailVerified else {
                    response.needConfirmation = true
                    response.localId = owner.uid
                    response.verifiedProvider = owner.providers.map(\.providerId)
                    return response
                }
                user = owner
                if !owner.emailVerified {
                    // The email was never verified: its password, phone and providers may be someone else's.
                    user.passwordHash = nil
                    user.importedPassword = nil
                    user.phoneNumber = nil
                    user.providers = []
                    user.validSince = now
                }
                user.displayName = identity.displayName
                user.photoURL = identity.photoUrl
                user.emailVerified = true
            } else {
                user = AuthUserRecord(
                    uid: SecureRandom.uid(), email: email, displayName: identity.displayName,
                    photoURL: identity.photoUrl, passwordHash: nil, emailVerified: email != nil && emailVerified,
                    createdAt: now, lastLoginAt: now, passwordUpdatedAt: nil, validSince: now)
                isNew = true
            }
        } catch {
            if request.returnIdpCredential == true, error.httpStatus == 400 {
                response.errorMessage = error.message
                return response
            }
            throw error
        }
        guard !user.disabled else { throw .badRequest(.userDisabled) }
        user.providers.removeAll { $0.providerId == providerId }
        user.providers.append(identity)
        user.anonymous = false
        if isNew {
            try await insertWithFreshUID(&user)
        } else {
            try await save(user)
        }
        response.localId = user.uid
        response.isNewUser = isNew
        if user.email == email { response.emailVerified = user.emailVerified }
        if try await needsSecondFactor(user) {
            let pending = try await pendingSecondFactor(for: user, provider: providerId)
            response.mfaPendingCredential = pending.credential
            response.mfaInfo = pending.factors
            return response
        }
        try await storeCall { try await self.store.recordLogin(uid: user.uid, at: now) }
        let tokens = try await startSession(for: user, provider: providerId, authTime: now)
        response.idToken = tokens.idToken
        response.refreshToken = tokens.refreshToken
        response.expiresIn = tokens.expiresIn
        return response
    }

    /// `accounts:createAuthUri` (the client SDKs' `fetchSignInMethodsForEmail`): whether the email has an account
    /// and its sign-in methods (`password`, `emailLink`, providers). With email enumeration protection on (the
    /// default) only `sessionId` is answered, as Firebase does. Errors: `MISSING_IDENTIFIER`, `MISSING_CONTINUE_URI`,
    /// `INVALID_IDENTIFIER`, `INVALID_CONTINUE_URI`; with `providerId` (the redirect flow) 501.
    public func createAuthUri(_ request: AuthWire.CreateAuthUriRequest) async throws(AuthServiceError)
        -> AuthWire.CreateAuthUriResponse
    {
        _ = try await enabledSettings()
        let sessionId = request.sessionId ?? SecureRandom.alphanumericString(length: 27)
        if request.providerId != nil { throw .notImplemented("Sign-in with IDP is not yet supported.") }
        guard let identifier = request.identifier, !identifier.isEmpty else { throw .badRequest(.missingIdentifier) }
        guard let continueUri = request.continueUri, !continueUri.isEmpty else {
            throw .badRequest(.missingContinueURI)
        }
        guard EmailAddress.isValid(identifier) else { throw .badRequest(.invalidIdentifier) }
        guard Self.isAbsoluteURL(continueUri) else { throw .badRequest(.invalidContinueURI) }
        if try await improvedEmailPrivacy() { return AuthWire.CreateAuthUriResponse(sessionId: sessionId) }
        let email = EmailAddress.normalize(identifier)
        let users = try await storeCall { try await self.store.users(emailOrProviderEmail: email) }
        var providers: [String] = []
        var methods: [String] = []
        if let user = users.first {
            if user.email != nil, user.hasPassword || user.emailLinkSignin {
                providers.append("password")
                if user.hasPassword { methods.append("password") }
                if user.emailLinkSignin { methods.append("emailLink") }
            }
            for identity in user.providers {
                providers.append(identity.providerId)
                methods.append(identity.providerId)
            }
        }
        return AuthWire.CreateAuthUriResponse(
            registered: !users.isEmpty, allProviders: providers, signinMethods: methods, sessionId: sessionId)
    }

    /// An OIDC or SAML provider whose configuration exists here must be enabled (`OPERATION_NOT_ALLOWED`).
    private func checkProviderEnabled(_ providerId: String) async throws(AuthServiceError) {
        let kind: ProviderConfigKind? =
            providerId.hasPrefix("oidc.") ? .oidc : providerId.hasPrefix("saml.") ? .saml : nil
        guard let kind, let config = try await storeCall({ try await self.store.providerConfig(kind: kind.rawValue, id: providerId) })
        else { return }
        if config["enabled"]?.boolValue == false {
            throw .badRequest(.operationNotAllowed, "The identity provider configuration is disabled.")
        }
    }

    /// The claims of a fake provider credential: JSON, or a JWT's payload (unverified); nil when absent or not a JWT.
    static func idpClaims(_ credential: String?) throws(AuthServiceError) -> [String: AuthJSON]? {
        guard let credential else { return nil }
        let claims: [String: AuthJSON]
        if credential.hasPrefix("{") {
            guard let object = AuthJSON.parse(credential)?.objectValue else {
                throw .badRequest(
                    .invalidIDPResponse,
                    "Unable to parse id_token: ((Auth Emulator failed to parse fake id_token as strict JSON.))")
            }
            claims = object
        } else {
            guard let object = unverifiedClaims(credential) else { return nil }
            claims = object
        }
        guard let sub = claims["sub"] else {
            throw .badRequest(
                .invalidIDPResponse,
                "Invalid Idp Response: id_token missing required fields. ((Missing \"sub\" field. This field is "
                    + "required and must be a unique identifier.))")
        }
        guard sub.stringValue?.isEmpty == false else {
            throw .badRequest(.invalidIDPResponse, "((The \"sub\" field must be a string.))")
        }
        return claims
    }
}
