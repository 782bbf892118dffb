import Foundation

/// The JSON bodies of the Firebase Auth REST v1 API, field for field (see Google's Identity Toolkit reference:
/// `SignUpResponse`, `SignInWithPasswordResponse`, `GetAccountInfoResponse`, and the Secure Token API's token
/// response). Requests accept camelCase and snake_case keys, as Google's REST mapping does.
public enum AuthWire {
    /// `accounts:signUp` request (and the Admin SDK's `projects/{p}/accounts` create, which adds the privileged
    /// fields: `localId`, `phoneNumber`, `emailVerified`, `disabled`).
    public struct SignUpRequest: Codable, Sendable, Equatable {
        /// The new account's email.
        public var email: String?
        /// The new account's password.
        public var password: String?
        /// An optional display name.
        public var displayName: String?
        /// Accepted for compatibility; tokens are returned for client sign-ups.
        public var returnSecureToken: Bool?
        /// Admin only: the uid to give the account (1–128 characters).
        public var localId: String?
        /// Admin only: a photo URL.
        public var photoUrl: String?
        /// Admin only: an E.164 phone number (`+…`).
        public var phoneNumber: String?
        /// Admin only: whether the email counts as verified.
        public var emailVerified: Bool?
        /// Admin only: create the account disabled.
        public var disabled: Bool?
        /// Adds the email and password to this (anonymous) account instead of creating one.
        public var idToken: String?

        /// Creates a request.
        public init(
            email: String?, password: String?, displayName: String? = nil, returnSecureToken: Bool? = true,
            localId: String? = nil, photoUrl: String? = nil, phoneNumber: String? = nil, emailVerified: Bool? = nil,
            disabled: Bool? = nil
        ) {
            self.email = email
            self.password = password
            self.displayName = displayName
            self.returnSecureToken = returnSecureToken
            self.localId = localId
            self.photoUrl = photoUrl
            self.phoneNumber = phoneNumber
            self.emailVerified = emailVerified
            self.disabled = disabled
        }
    }

    /// `accounts:signUp` response to a client (an administrator's create gets `CreateAccountResponse`).
    public struct SignUpResponse: Codable, Sendable, Equatable {
        /// `identitytoolkit#SignupNewUserResponse`.
        public var kind: String
        /// The ID token (JWT).
        public var idToken: String
        /// The display name, when one was given.
        public var displayName: String?
        /// The canonical (lowercased) email.
        public var email: String
        /// The refresh token.
        public var refreshToken: String
        /// Seconds until the ID token expires, as a decimal string ("3600").
        public var expiresIn: String
        /// The new account's uid.
        public var localId: String

        /// Creates a response.
        public init(
            kind: String = "identitytoolkit#SignupNewUserResponse", idToken: String, displayName: String?,
            email: String, refreshToken: String, expiresIn: String, localId: String
        ) {
            self.kind = kind
            self.idToken = idToken
            self.displayName = displayName
            self.email = email
            self.refreshToken = refreshToken
            self.expiresIn = expiresIn
            self.localId = localId
        }
    }

    /// `accounts:signUp` response for an anonymous account (no email).
    public struct AnonymousSignUpResponse: Codable, Sendable, Equatable {
        public var kind = "identitytoolkit#SignupNewUserResponse"
        public var idToken: String
        public var refreshToken: String
        public var expiresIn: String
        public var localId: String
    }

    /// `accounts:signInWithPassword` request.
    public struct SignInWithPasswordRequest: Codable, Sendable, Equatable {
        /// The account's email.
        public var email: String?
        /// The password.
        public var password: String?
        /// Accepted for compatibility; tokens are always returned.
        public var returnSecureToken: Bool?

        /// Creates a request.
        public init(email: String?, password: String?, returnSecureToken: Bool? = true) {
            self.email = email
            self.password = password
            self.returnSecureToken = returnSecureToken
        }
    }

    /// `accounts:signInWithPassword` response.
    public struct SignInWithPasswordResponse: Codable, Sendable, Equatable {
        /// `identitytoolkit#VerifyPasswordResponse`.
        public var kind: String
        /// The account's uid.
        public var localId: String
        /// The canonical email.
        public var email: String
        /// The display name ("" when none).
        public var displayName: String
        /// The ID token (JWT).
        public var idToken: String
        /// Always true for a successful sign-in.
        public var registered: Bool
        /// The refresh token.
        public var refreshToken: String
        /// Seconds until the ID token expires ("3600").
        public var expiresIn: String

        /// Creates a response.
        public init(
            kind: String = "identitytoolkit#VerifyPasswordResponse", localId: String, email: String,
            displayName: String, idToken: String, registered: Bool = true, refreshToken: String, expiresIn: String
        ) {
            self.kind = kind
            self.localId = localId
            self.email = email
            self.displayName = displayName
            self.idToken = idToken
            self.registered = registered
            self.refreshToken = refreshToken
            self.expiresIn = expiresIn
        }
    }

    /// `accounts:signInWithPassword` (and the other first factors) for an account with second factors: no tokens,
    /// a credential for `accounts/mfaSignIn:finalize` and the factors to choose from.
    public struct MFAPendingResponse: Codable, Sendable, Equatable {
        public var kind = "identitytoolkit#VerifyPasswordResponse"
        public var localId: String
        public var email: String
        /// Password sign-in's `registered: true`; absent after an email link.
        public var registered: Bool? = true
        /// Email-link sign-in's `isNewUser`; absent after a password.
        public var isNewUser: Bool?
        public var mfaPendingCredential: String
        public var mfaInfo: [MFAInfo]
    }

    /// `accounts:lookup` request: an ID token (client), or lists of uids, emails and phone numbers (Admin SDK).
    public struct LookupRequest: Codable, Sendable, Equatable {
        /// The ID token whose account to return.
        public var idToken: String?
        /// Admin only: uids to look up.
        public var localId: [String]?
        /// Admin only: emails to look up.
        public var email: [String]?
        /// Admin only: phone numbers to look up.
        public var phoneNumber: [String]?
        /// Admin only: identity provider users to look up (`{providerId, rawId}`).
        public var federatedUserId: [FederatedUserID]?

        /// One identity provider user.
        public struct FederatedUserID: Codable, Sendable, Equatable {
            public var providerId: String?
            public var rawId: String?
        }

        /// Creates a request.
        public init(idToken: String?, localId: [String]? = nil, email: [String]? = nil, phoneNumber: [String]? = nil) {
            self.idToken = idToken
            self.localId = localId
            self.email = email
            self.phoneNumber = phoneNumber
        }
    }

    /// `accounts:lookup` response; `users` is absent when nothing matched (as the Firebase emulator answers).
    public struct LookupResponse: Codable, Sendable, Equatable {
        /// `identitytoolkit#GetAccountInfoResponse`.
        public var kind: String
        /// The accounts found.
        public var users: [AccountInfo]?

        /// Creates a response.
        public init(kind: String = "identitytoolkit#GetAccountInfoResponse", users: [AccountInfo]?) {
            self.kind = kind
            self.users = users
        }
    }

    /// Secure Token API request (`grant_type=refresh_token&refresh_token=…`, form-encoded or JSON).
    public struct TokenRequest: Codable, Sendable, Equatable {
        /// Must be `refresh_token`.
        public var grantType: String?
        /// The refresh token to exchange.
        public var refreshToken: String?

        /// Creates a request.
        public init(grantType: String? = "refresh_token", refreshToken: String?) {
            self.grantType = grantType
            self.refreshToken = refreshToken
        }
    }

    /// Secure Token API response; its keys are snake_case on the wire.
    public struct TokenResponse: Codable, Sendable, Equatable {
        /// The new ID token (same value as `id_token`, as Google's API returns it).
        public var accessToken: String
        /// Seconds until the ID token expires ("3600").
        public var expiresIn: String
        /// `Bearer`.
        public var tokenType: String
        /// The refresh token (the one that was presented; refresh tokens are long-lived).
        public var refreshToken: String
        /// The new ID token.
        public var idToken: String
        /// The account's uid.
        public var userId: String
        /// The project number.
        public var projectId: String

        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token"
            case expiresIn = "expires_in"
            case tokenType = "token_type"
            case refreshToken = "refresh_token"
            case idToken = "id_token"
            case userId = "user_id"
            case projectId = "project_id"
        }

        /// Creates a response.
        public init(
            accessToken: String, expiresIn: String, tokenType: String = "Bearer", refreshToken: String,
            idToken: String, userId: String, projectId: String
        ) {
            self.accessToken = accessToken
            self.expiresIn = expiresIn
            self.tokenType = tokenType
            self.refreshToken = refreshToken
            self.idToken = idToken
            self.userId = userId
            self.projectId = projectId
        }
    }

    /// The error envelope: `{"error":{…}}`.
    public struct ErrorResponse: Codable, Sendable, Equatable {
        /// The error.
        public var error: ErrorBody

        /// Creates an envelope.
        public init(error: ErrorBody) {
            self.error = error
        }
    }

    /// Google's API error body.
    public struct ErrorBody: Codable, Sendable, Equatable {
        /// The HTTP status.
        public var code: Int
        /// `CODE` or `CODE : detail`.
        public var message: String
        /// One entry repeating the message.
        public var errors: [ErrorItem]?
        /// Google's canonical status for request-level errors (`PERMISSION_DENIED`, …).
        public var status: String?

        /// Creates an error body.
        public init(code: Int, message: String, errors: [ErrorItem]?, status: String?) {
            self.code = code
            self.message = message
            self.errors = errors
            self.status = status
        }
    }

    /// One entry of `errors`.
    public struct ErrorItem: Codable, Sendable, Equatable {
        /// The message.
        public var message: String
        /// `global`.
        public var domain: String?
        /// `invalid`, `forbidden`, `notFound`, `parseError`, `authError`, `required`.
        public var reason: String?
        /// `Authorization` for credential errors.
        public var location: String?
        /// `header` for credential errors.
        public var locationType: String?

        /// Creates an entry.
        public init(message: String, domain: String?, reason: String?, location: String? = nil, locationType: String? = nil) {
            self.message = message
            self.domain = domain
            self.reason = reason
            self.location = location
            self.locationType = locationType
        }
    }

    /// Encodes a body as compact JSON with sorted keys (so equal values give byte-identical bodies).
    public static func encode(_ value: some Encodable) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return [UInt8](try encoder.encode(value))
    }

    /// Decodes a request body, accepting snake_case keys as their camelCase equivalents; an empty body is `{}`.
    public static func decodeRequest<T: Decodable>(_ type: T.Type, from body: [UInt8]) throws -> T {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(T.self, from: Data(body.isEmpty ? Array("{}".utf8) : body))
    }

    /// Decodes a response body exactly as the keys are spelled.
    public static func decodeResponse<T: Decodable>(_ type: T.Type, from body: [UInt8]) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(body))
    }

    /// The wire form of a service error.
    public static func errorResponse(for error: AuthServiceError) -> ErrorResponse {
        ErrorResponse(
            error: ErrorBody(
                code: error.httpStatus, message: error.message,
                errors: [
                    ErrorItem(
                        message: error.itemMessage ?? error.message, domain: "global", reason: error.reason,
                        location: error.location, locationType: error.location.map { _ in "header" })
                ],
                status: error.status))
    }
}
