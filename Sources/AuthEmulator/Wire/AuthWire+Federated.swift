/// Bodies of the other sign-in methods (phone, identity providers, anonymous), the sign-in method probe
/// (`createAuthUri`), the project information clients read, and second factors (v2 `mfaEnrollment`, `mfaSignIn`).
extension AuthWire {
    /// `accounts:createAuthUri` request (`fetchSignInMethodsForEmail`).
    public struct CreateAuthUriRequest: Codable, Sendable, Equatable {
        public var identifier: String?
        public var continueUri: String?
        public var providerId: String?
        public var sessionId: String?
    }

    /// `accounts:createAuthUri` response; with email enumeration protection only `kind` and `sessionId`.
    public struct CreateAuthUriResponse: Codable, Sendable, Equatable {
        public var kind = "identitytoolkit#CreateAuthUriResponse"
        public var registered: Bool?
        public var allProviders: [String]?
        public var signinMethods: [String]?
        public var sessionId: String
    }

    /// `accounts:sendVerificationCode` request.
    public struct SendVerificationCodeRequest: Codable, Sendable, Equatable {
        public var phoneNumber: String?
        public var recaptchaToken: String?
    }

    /// `accounts:sendVerificationCode` response.
    public struct SendVerificationCodeResponse: Codable, Sendable, Equatable {
        public var sessionInfo: String
    }

    /// `accounts:signInWithPhoneNumber` request.
    public struct SignInWithPhoneNumberRequest: Codable, Sendable, Equatable {
        public var sessionInfo: String?
        public var code: String?
        public var phoneNumber: String?
        public var temporaryProof: String?
        public var idToken: String?
    }

    /// `accounts:signInWithPhoneNumber` response: tokens, or (linking a number another account holds) a temporary
    /// proof that the number was verified.
    public struct SignInWithPhoneNumberResponse: Codable, Sendable, Equatable {
        public var idToken: String?
        public var refreshToken: String?
        public var expiresIn: String?
        public var localId: String?
        public var isNewUser: Bool?
        public var phoneNumber: String?
        public var temporaryProof: String?
        public var temporaryProofExpiresIn: String?
    }

    /// `accounts:signInWithIdp` request (`verifyAssertion`).
    public struct SignInWithIdpRequest: Codable, Sendable, Equatable {
        public var requestUri: String?
        public var postBody: String?
        public var idToken: String?
        public var returnSecureToken: Bool?
        public var returnIdpCredential: Bool?
        public var returnRefreshToken: Bool?
        public var pendingIdToken: String?
        public var sessionId: String?
    }

    /// `accounts:signInWithIdp` response (`identitytoolkit#VerifyAssertionResponse`).
    public struct SignInWithIdpResponse: Codable, Sendable, Equatable {
        public var kind = "identitytoolkit#VerifyAssertionResponse"
        public var providerId: String
        public var federatedId: String?
        public var localId: String?
        public var email: String?
        public var emailVerified: Bool?
        public var displayName: String?
        public var fullName: String?
        public var firstName: String?
        public var lastName: String?
        public var photoUrl: String?
        public var screenName: String?
        public var rawUserInfo: String?
        public var oauthAccessToken: String?
        public var oauthIdToken: String?
        public var isNewUser: Bool?
        public var needConfirmation: Bool?
        public var verifiedProvider: [String]?
        public var emailRecycled: Bool?
        public var errorMessage: String?
        public var idToken: String?
        public var refreshToken: String?
        public var expiresIn: String?
        public var tenantId: String?
        public var mfaPendingCredential: String?
        public var mfaInfo: [MFAInfo]?
        public var context = ""
    }

    /// `GET /v1/projects` response.
    public struct ProjectInfo: Codable, Sendable, Equatable {
        public var projectId: String
        public var authorizedDomains: [String]
    }

    /// `GET /v1/recaptchaParams` response: placeholders, as the Firebase emulator answers (clients must not run
    /// reCAPTCHA against an emulator).
    public struct RecaptchaParams: Codable, Sendable, Equatable {
        public var kind = "identitytoolkit#GetRecaptchaParamResponse"
        public var recaptchaStoken = "This-is-a-fake-token__Dont-send-this-to-the-Recaptcha-service__The-Auth-Emulator-does-not-support-Recaptcha"
        public var recaptchaSiteKey = "Fake-key__Do-not-send-this-to-Recaptcha_"
    }

    /// `GET /emulator/v1/projects/{p}/verificationCodes` response: the SMS codes "sent".
    public struct VerificationCodesResponse: Codable, Sendable, Equatable {
        public var verificationCodes: [VerificationCode]
    }

    /// One SMS code.
    public struct VerificationCode: Codable, Sendable, Equatable {
        public var code: String
        public var phoneNumber: String
        public var sessionInfo: String
    }

    // MARK: Second factors

    /// `accounts/mfaEnrollment:start`: `totpEnrollmentInfo` (`{}`) or `phoneEnrollmentInfo`.
    public struct MFAEnrollmentStartRequest: Codable, Sendable, Equatable {
        public var idToken: String?
        public var totpEnrollmentInfo: AuthJSON?
        public var phoneEnrollmentInfo: PhoneInfo?

        /// `phoneEnrollmentInfo` / `phoneSignInInfo`.
        public struct PhoneInfo: Codable, Sendable, Equatable {
            public var phoneNumber: String?
        }
    }

    /// `accounts/mfaEnrollment:start` response.
    public struct MFAEnrollmentStartResponse: Codable, Sendable, Equatable {
        public var totpSessionInfo: TOTPSessionInfo?
        public var phoneSessionInfo: SessionInfo?
    }

    /// The TOTP secret to show the user, and the session that finalizes the enrollment.
    public struct TOTPSessionInfo: Codable, Sendable, Equatable {
        /// The secret, base32 (RFC 4648, no padding).
        public var sharedSecretKey: String
        public var verificationCodeLength: Int
        public var hashingAlgorithm: String
        public var periodSec: Int
        public var sessionInfo: String
        /// RFC 3339: the enrollment must be finalized before this.
        public var finalizeEnrollmentTime: String
    }

    /// `{"sessionInfo": …}`.
    public struct SessionInfo: Codable, Sendable, Equatable {
        public var sessionInfo: String
    }

    /// `accounts/mfaEnrollment:finalize`.
    public struct MFAEnrollmentFinalizeRequest: Codable, Sendable, Equatable {
        public var idToken: String?
        public var displayName: String?
        public var totpVerificationInfo: TOTPVerificationInfo?
        public var phoneVerificationInfo: PhoneVerificationInfo?
    }

    /// A TOTP code (and, for an enrollment, its session).
    public struct TOTPVerificationInfo: Codable, Sendable, Equatable {
        public var sessionInfo: String?
        public var verificationCode: String?
    }

    /// An SMS code and its session.
    public struct PhoneVerificationInfo: Codable, Sendable, Equatable {
        public var sessionInfo: String?
        public var code: String?
    }

    /// The tokens a second-factor step returns.
    public struct MFATokensResponse: Codable, Sendable, Equatable {
        public var idToken: String
        public var refreshToken: String
    }

    /// `accounts/mfaEnrollment:withdraw`.
    public struct MFAWithdrawRequest: Codable, Sendable, Equatable {
        public var idToken: String?
        public var mfaEnrollmentId: String?
    }

    /// `accounts/mfaSignIn:start` (SMS factors; TOTP needs no start).
    public struct MFASignInStartRequest: Codable, Sendable, Equatable {
        public var mfaPendingCredential: String?
        public var mfaEnrollmentId: String?
        public var phoneSignInInfo: MFAEnrollmentStartRequest.PhoneInfo?
    }

    /// `accounts/mfaSignIn:start` response.
    public struct MFASignInStartResponse: Codable, Sendable, Equatable {
        public var phoneResponseInfo: SessionInfo
    }

    /// `accounts/mfaSignIn:finalize`.
    public struct MFASignInFinalizeRequest: Codable, Sendable, Equatable {
        public var mfaPendingCredential: String?
        public var mfaEnrollmentId: String?
        public var totpVerificationInfo: TOTPVerificationInfo?
        public var phoneVerificationInfo: PhoneVerificationInfo?
    }
}
