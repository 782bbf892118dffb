/// Bodies of the email action codes (`accounts:sendOobCode`, `accounts:resetPassword`), the other sign-in methods
/// (`accounts:signInWithEmailLink`, `accounts:signInWithCustomToken`), session cookies, sign-out
/// (`accounts:revokeToken`) and the emulator-only endpoints.
extension AuthWire {
    /// `accounts:sendOobCode` request.
    public struct SendOobCodeRequest: Codable, Sendable, Equatable {
        /// `PASSWORD_RESET`, `VERIFY_EMAIL` or `EMAIL_SIGNIN`.
        public var requestType: String?
        public var email: String?
        /// `VERIFY_EMAIL` from a client: the signed-in user's ID token names the email.
        public var idToken: String?
        /// Where the action page sends the user afterwards (an absolute URL).
        public var continueUrl: String?
        public var canHandleCodeInApp: Bool?
        /// The custom Firebase Hosting domain a mobile app opens the link on (`ActionCodeSettings.linkDomain`).
        public var linkDomain: String?
        /// Admin only: answer the code and the link instead of "sending" them.
        public var returnOobLink: Bool?
        /// `VERIFY_AND_CHANGE_EMAIL`: the email to change to once it is verified.
        public var newEmail: String?

        /// Creates a request.
        public init(requestType: String?, email: String? = nil, idToken: String? = nil, continueUrl: String? = nil) {
            self.requestType = requestType
            self.email = email
            self.idToken = idToken
            self.continueUrl = continueUrl
        }
    }

    /// `accounts:sendOobCode` response.
    public struct SendOobCodeResponse: Codable, Sendable, Equatable {
        public var kind = "identitytoolkit#GetOobConfirmationCodeResponse"
        public var email: String?
        public var oobCode: String?
        public var oobLink: String?
    }

    /// `accounts:resetPassword` request: without `newPassword` it only checks the code (the JS SDK's
    /// `verifyPasswordResetCode` / `checkActionCode`).
    public struct ResetPasswordRequest: Codable, Sendable, Equatable {
        public var oobCode: String?
        public var newPassword: String?

        /// Creates a request.
        public init(oobCode: String?, newPassword: String? = nil) {
            self.oobCode = oobCode
            self.newPassword = newPassword
        }
    }

    /// `accounts:resetPassword` response.
    public struct ResetPasswordResponse: Codable, Sendable, Equatable {
        public var kind = "identitytoolkit#ResetPasswordResponse"
        public var requestType: String
        /// The code's email (withheld for `EMAIL_SIGNIN` codes: the user must type it).
        public var email: String?
        /// A `VERIFY_AND_CHANGE_EMAIL` code's new email.
        public var newEmail: String?
    }

    /// `accounts:signInWithEmailLink` request.
    public struct SignInWithEmailLinkRequest: Codable, Sendable, Equatable {
        public var email: String?
        public var oobCode: String?
        /// Links the email to the signed-in account instead of signing in to the email's.
        public var idToken: String?

        /// Creates a request.
        public init(email: String?, oobCode: String?, idToken: String? = nil) {
            self.email = email
            self.oobCode = oobCode
            self.idToken = idToken
        }
    }

    /// Tokens and the account of a sign-in by email link (`identitytoolkit#EmailLinkSigninResponse`) or custom
    /// token (`identitytoolkit#VerifyCustomTokenResponse`).
    public struct SignInResponse: Codable, Sendable, Equatable {
        public var kind: String
        public var localId: String?
        public var email: String?
        public var isNewUser: Bool
        public var idToken: String
        public var refreshToken: String
        public var expiresIn: String
    }

    /// `accounts:signInWithCustomToken` request.
    public struct SignInWithCustomTokenRequest: Codable, Sendable, Equatable {
        /// The custom token (a JWT from the Admin SDK's `create_custom_token`).
        public var token: String?
        public var returnSecureToken: Bool?

        /// Creates a request.
        public init(token: String?, returnSecureToken: Bool? = true) {
            self.token = token
            self.returnSecureToken = returnSecureToken
        }
    }

    /// `projects/{p}:createSessionCookie` request.
    public struct CreateSessionCookieRequest: Codable, Sendable, Equatable {
        public var idToken: String?
        /// Seconds, 300 … 1,209,600 (two weeks, the default).
        public var validDuration: WireInt64?

        /// Creates a request.
        public init(idToken: String?, validDuration: WireInt64?) {
            self.idToken = idToken
            self.validDuration = validDuration
        }
    }

    /// `projects/{p}:createSessionCookie` response.
    public struct CreateSessionCookieResponse: Codable, Sendable, Equatable {
        public var sessionCookie: String
    }

    /// `accounts:revokeToken` request: with `tokenType` `REFRESH_TOKEN` this service ends the session the refresh
    /// token belongs to (sign-out); `idToken` proves the caller is that session's user.
    public struct RevokeTokenRequest: Codable, Sendable, Equatable {
        public var providerId: String?
        public var tokenType: String?
        public var token: String?
        public var idToken: String?

        /// Creates a request.
        public init(tokenType: String? = "REFRESH_TOKEN", token: String?, idToken: String?) {
            self.providerId = "password"
            self.tokenType = tokenType
            self.token = token
            self.idToken = idToken
        }
    }

    /// The emulator's project settings (`/emulator/v1/projects/{p}/config`).
    public struct EmulatorConfig: Codable, Sendable, Equatable {
        public var signIn: SignInConfig?
        public var emailPrivacyConfig: EmailPrivacyConfig?

        /// Creates a configuration (or a partial update of one).
        public init(signIn: SignInConfig?, emailPrivacyConfig: EmailPrivacyConfig?) {
            self.signIn = signIn
            self.emailPrivacyConfig = emailPrivacyConfig
        }

        /// `allowDuplicateEmails` (always false here: one account per email).
        public struct SignInConfig: Codable, Sendable, Equatable {
            public var allowDuplicateEmails: Bool?

            /// Creates the section.
            public init(allowDuplicateEmails: Bool?) {
                self.allowDuplicateEmails = allowDuplicateEmails
            }
        }

        /// `enableImprovedEmailPrivacy`: email enumeration protection.
        public struct EmailPrivacyConfig: Codable, Sendable, Equatable {
            public var enableImprovedEmailPrivacy: Bool?

            /// Creates the section.
            public init(enableImprovedEmailPrivacy: Bool?) {
                self.enableImprovedEmailPrivacy = enableImprovedEmailPrivacy
            }
        }
    }

    /// `/emulator/v1/projects/{p}/oobCodes` response.
    public struct OobCodesResponse: Codable, Sendable, Equatable {
        public var oobCodes: [OobCodeEntry]
    }

    /// One code the emulator "sent".
    public struct OobCodeEntry: Codable, Sendable, Equatable {
        public var email: String
        public var oobCode: String
        public var oobLink: String
        public var requestType: String
        public var newEmail: String?
    }
}
