import Foundation

/// Bodies of the administrator's bulk operations: `accounts:batchCreate` (the Admin SDKs' `import_users`),
/// `accounts:query` / `:queryAccounts`, and Google's `bytes` fields (base64).
extension AuthWire {
    /// `accounts:batchCreate` request (Identity Toolkit's `UploadAccountRequest`).
    public struct BatchCreateRequest: Codable, Sendable, Equatable {
        public var users: [ImportedUser]?
        public var hashAlgorithm: String?
        public var signerKey: WireBytes?
        public var saltSeparator: WireBytes?
        public var rounds: WireInt64?
        public var memoryCost: WireInt64?
        public var cpuMemCost: WireInt64?
        public var blockSize: WireInt64?
        public var parallelization: WireInt64?
        public var dkLen: WireInt64?
        /// `SALT_AND_PASSWORD` or `PASSWORD_AND_SALT`.
        public var passwordHashOrder: String?
        public var allowOverwrite: Bool?
        public var sanityCheck: Bool?
        public var tenantId: String?
        public var targetProjectId: String?

        /// Creates a request of `users` with no hash settings.
        public init(users: [ImportedUser]?) {
            self.users = users
        }
    }

    /// One account to import (`UserInfo`).
    public struct ImportedUser: Codable, Sendable, Equatable {
        public var localId: String?
        public var email: String?
        public var emailVerified: Bool?
        public var displayName: String?
        public var photoUrl: String?
        public var phoneNumber: String?
        public var disabled: Bool?
        public var passwordHash: WireBytes?
        public var salt: WireBytes?
        /// Emulator-only: a plain password, hashed with the service's own scrypt.
        public var rawPassword: String?
        public var customAttributes: String?
        public var createdAt: WireInt64?
        public var lastLoginAt: WireInt64?
        public var providerUserInfo: [ProviderUserInfo]?
        public var mfaInfo: [ImportedMFAInfo]?
        public var tenantId: String?

        /// Creates an account with a uid.
        public init(localId: String?) {
            self.localId = localId
        }
    }

    /// A second factor to import: a phone number (`phoneInfo`) or a TOTP secret (`totpInfo.sharedSecretKey`, base32
    /// — an extension: Firebase imports phone factors only).
    public struct ImportedMFAInfo: Codable, Sendable, Equatable {
        public var mfaEnrollmentId: String?
        public var displayName: String?
        public var enrolledAt: String?
        public var phoneInfo: String?
        public var totpInfo: TOTPInfo?

        /// `totpInfo`.
        public struct TOTPInfo: Codable, Sendable, Equatable {
            public var sharedSecretKey: String?
        }
    }

    /// `accounts:batchCreate` response: one entry per account that was not imported.
    public struct BatchCreateResponse: Codable, Sendable, Equatable {
        public var kind = "identitytoolkit#UploadAccountResponse"
        public var error: [BatchCreateError]
    }

    /// Why one account of an import failed.
    public struct BatchCreateError: Codable, Sendable, Equatable {
        public var index: Int
        public var message: String
    }

    /// `accounts:query` request (`QueryUserInfoRequest`).
    public struct QueryRequest: Codable, Sendable, Equatable {
        public var returnUserInfo: Bool?
        public var limit: WireInt64?
        public var offset: WireInt64?
        public var expression: [AuthJSON]?
        /// `ASC` or `DESC`.
        public var order: String?
        /// `USER_ID`, `NAME`, `CREATED_AT`, `LAST_LOGIN_AT`, `USER_EMAIL`.
        public var sortBy: String?
        public var tenantId: String?
    }

    /// `accounts:query` response.
    public struct QueryResponse: Codable, Sendable, Equatable {
        public var recordsCount: String
        public var userInfo: [AccountInfo]?
    }
}

/// A `bytes` field of Google's REST mapping: standard or URL-safe base64, padded or not.
public struct WireBytes: Codable, Sendable, Equatable {
    /// The bytes.
    public var bytes: [UInt8]

    /// Wraps bytes.
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Decodes base64 in either alphabet; anything else is a type mismatch.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let bytes = Self.decode(text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "expected base64 bytes"))
        }
        self.bytes = bytes
    }

    /// Encodes standard base64 with padding, as Google answers.
    public func encode(to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        try single.encode(Data(bytes).base64EncodedString())
    }

    /// Standard or URL-safe base64, padded or not; nil otherwise.
    public static func decode(_ text: String) -> [UInt8]? {
        Base64URL.decode(text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_"))
    }
}
