/// Account bodies: the `UserInfo` every lookup and listing returns, `accounts:update`, `accounts:delete`, and the
/// Admin SDK's `accounts:batchGet` and `accounts:batchDelete` (Google's Identity Toolkit v1 reference).
extension AuthWire {
    /// One account (`UserInfo` in Google's reference). Fields an account does not have are absent.
    public struct AccountInfo: Codable, Sendable, Equatable {
        /// The uid.
        public var localId: String
        /// The canonical email.
        public var email: String?
        /// The display name.
        public var displayName: String?
        /// The photo URL.
        public var photoUrl: String?
        /// The phone number.
        public var phoneNumber: String?
        /// To an administrator, the scrypt hash (base64; empty for a hash imported with another algorithm that no
        /// sign-in has replaced yet, as Firebase exports it); to a client, the redacted marker `UkVEQUNURUQ=`.
        public var passwordHash: String?
        /// To an administrator, the password's salt (base64), as Firebase exports it.
        public var salt: String?
        /// Whether the email has been verified.
        public var emailVerified: Bool
        /// Present (true) only for a disabled account.
        public var disabled: Bool?
        /// When the password was last set, milliseconds since the epoch (a JSON number on the wire).
        public var passwordUpdatedAt: Int64?
        /// The sign-in providers: `password` (email and password) and `phone`.
        public var providerUserInfo: [ProviderUserInfo]
        /// Tokens issued before this time (seconds since the epoch, decimal string) are revoked.
        public var validSince: String
        /// Last sign-in, milliseconds since the epoch (decimal string).
        public var lastLoginAt: String?
        /// Creation time, milliseconds since the epoch (decimal string).
        public var createdAt: String
        /// Last token issue, RFC 3339 with milliseconds (`2024-01-01T00:00:00.000Z`).
        public var lastRefreshAt: String?
        /// Custom claims, as JSON object text.
        public var customAttributes: String?
        /// Present (true) when the account has signed in with an email link.
        public var emailLinkSignin: Bool?
        /// Second factors.
        public var mfaInfo: [MFAInfo]?
        /// The tenant of the account.
        public var tenantId: String?
        /// The email before the last change.
        public var initialEmail: String?
        /// Present (true) when the account has signed in with a custom token.
        public var customAuth: Bool?

        /// Creates an account entry.
        public init(
            localId: String, email: String?, displayName: String?, photoUrl: String? = nil, phoneNumber: String? = nil,
            passwordHash: String?, emailVerified: Bool, disabled: Bool? = nil, passwordUpdatedAt: Int64?,
            providerUserInfo: [ProviderUserInfo], validSince: String, lastLoginAt: String?, createdAt: String,
            lastRefreshAt: String?, customAttributes: String? = nil, emailLinkSignin: Bool? = nil
        ) {
            self.localId = localId
            self.email = email
            self.displayName = displayName
            self.photoUrl = photoUrl
            self.phoneNumber = phoneNumber
            self.passwordHash = passwordHash
            self.emailVerified = emailVerified
            self.disabled = disabled
            self.passwordUpdatedAt = passwordUpdatedAt
            self.providerUserInfo = providerUserInfo
            self.validSince = validSince
            self.lastLoginAt = lastLoginAt
            self.createdAt = createdAt
            self.lastRefreshAt = lastRefreshAt
            self.customAttributes = customAttributes
            self.emailLinkSignin = emailLinkSignin
        }
    }

    /// One sign-in provider of an account.
    public struct ProviderUserInfo: Codable, Sendable, Equatable {
        /// `password` or `phone`.
        public var providerId: String
        /// The provider's id for the user (the email, for `password`).
        public var federatedId: String?
        /// The email (`password`).
        public var email: String?
        /// The provider's raw id: the email (`password`) or the phone number (`phone`).
        public var rawId: String
        /// The display name.
        public var displayName: String?
        /// The photo URL.
        public var photoUrl: String?
        /// The phone number (`phone`).
        public var phoneNumber: String?
        /// The user's handle at the provider.
        public var screenName: String?

        /// Creates a provider entry.
        public init(
            providerId: String, federatedId: String?, email: String?, rawId: String, displayName: String?,
            photoUrl: String? = nil, phoneNumber: String? = nil, screenName: String? = nil
        ) {
            self.screenName = screenName
            self.providerId = providerId
            self.federatedId = federatedId
            self.email = email
            self.rawId = rawId
            self.displayName = displayName
            self.photoUrl = photoUrl
            self.phoneNumber = phoneNumber
        }
    }

    /// A second factor as the API shows it: `phoneInfo` (masked to clients) or `totpInfo` (`{}`), never a secret.
    public struct MFAInfo: Codable, Sendable, Equatable {
        public var mfaEnrollmentId: String
        public var displayName: String?
        /// RFC 3339.
        public var enrolledAt: String
        public var phoneInfo: String?
        public var unobfuscatedPhoneInfo: String?
        public var totpInfo: Empty?
    }

    /// The answer to an administrator's create (`projects/{p}/accounts`, the Admin SDK's `create_user`): the
    /// account, no tokens.
    public struct CreateAccountResponse: Codable, Sendable, Equatable {
        public var kind = "identitytoolkit#SignupNewUserResponse"
        public var localId: String
        public var email: String?
        public var displayName: String?
    }

    /// `accounts:update` request: by ID token (the user), by `oobCode` (applying an email verification), or by
    /// `localId` (Admin SDK, which may also set the privileged fields).
    public struct UpdateRequest: Codable, Sendable, Equatable {
        public var idToken: String?
        public var localId: String?
        public var oobCode: String?
        public var email: String?
        public var password: String?
        public var displayName: String?
        public var photoUrl: String?
        public var phoneNumber: String?
        /// `DISPLAY_NAME`, `PHOTO_URL`, `EMAIL`, `PASSWORD` (the API's `UserAttributeName`).
        public var deleteAttribute: [String]?
        /// Provider ids to unlink: `password`, `phone`.
        public var deleteProvider: [String]?
        public var emailVerified: Bool?
        public var disableUser: Bool?
        public var customAttributes: String?
        public var validSince: WireInt64?
        public var createdAt: WireInt64?
        public var lastLoginAt: WireInt64?
        public var returnSecureToken: Bool?

        /// Creates an empty request.
        public init(idToken: String? = nil, localId: String? = nil, oobCode: String? = nil) {
            self.idToken = idToken
            self.localId = localId
            self.oobCode = oobCode
        }
    }

    /// `accounts:update` response; tokens are included when the update revoked the caller's (password or email
    /// change by ID token), so the client stays signed in.
    public struct UpdateResponse: Codable, Sendable, Equatable {
        public var kind = "identitytoolkit#SetAccountInfoResponse"
        public var localId: String
        public var email: String?
        public var displayName: String?
        public var photoUrl: String?
        public var emailVerified: Bool
        public var providerUserInfo: [ProviderUserInfo]
        public var passwordHash: String?
        public var idToken: String?
        public var refreshToken: String?
        public var expiresIn: String?
        /// The email a `VERIFY_AND_CHANGE_EMAIL` code changed to.
        public var newEmail: String?
    }

    /// `accounts:delete` request: the user's own ID token, or (Admin SDK) a `localId`.
    public struct DeleteRequest: Codable, Sendable, Equatable {
        public var idToken: String?
        public var localId: String?

        /// Creates a request.
        public init(idToken: String? = nil, localId: String? = nil) {
            self.idToken = idToken
            self.localId = localId
        }
    }

    /// A response that carries only its `kind` (`accounts:delete`).
    public struct KindResponse: Codable, Sendable, Equatable {
        public var kind: String
    }

    /// `accounts:batchGet` response (the Admin SDK's `list_users`): accounts in uid order, and a token for the
    /// next page when there is one.
    public struct BatchGetResponse: Codable, Sendable, Equatable {
        public var kind = "identitytoolkit#DownloadAccountResponse"
        public var users: [AccountInfo]?
        public var nextPageToken: String?
    }

    /// `accounts:batchDelete` request.
    public struct BatchDeleteRequest: Codable, Sendable, Equatable {
        public var localIds: [String]?
        /// Delete enabled accounts too (otherwise they fail with `NOT_DISABLED`).
        public var force: Bool?

        /// Creates a request.
        public init(localIds: [String]?, force: Bool?) {
            self.localIds = localIds
            self.force = force
        }
    }

    /// `accounts:batchDelete` response: one entry per account that was not deleted.
    public struct BatchDeleteResponse: Codable, Sendable, Equatable {
        public var errors: [BatchDeleteError]?
    }

    /// Why one account of a batch was not deleted.
    public struct BatchDeleteError: Codable, Sendable, Equatable {
        public var index: Int
        public var localId: String
        public var message: String

        /// Creates an entry.
        public init(index: Int, localId: String, message: String) {
            self.index = index
            self.localId = localId
            self.message = message
        }
    }

    /// An empty JSON object (`{}`), the answer of operations with nothing to report.
    public struct Empty: Codable, Sendable, Equatable {
        public init() {}
    }
}
