/// An error the auth service answers with, in Google's API error shape:
/// `{"error":{"code":400,"message":"EMAIL_EXISTS","errors":[{"message":"EMAIL_EXISTS","domain":"global",
/// "reason":"invalid"}]}}` (plus `"status"` for the request-level errors, as Google's front end adds it).
public struct AuthServiceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status (400, 403, 404, 500).
    public let httpStatus: Int
    /// The Firebase code.
    public let code: AuthErrorCode
    /// The full wire message, e.g. `WEAK_PASSWORD : Password should be at least 6 characters`.
    public let message: String
    /// The `reason` of the single entry in `errors` (`invalid`, `forbidden`, `notFound`, `parseError`).
    public let reason: String
    /// Google's canonical status (`PERMISSION_DENIED`, `INVALID_ARGUMENT`, `NOT_FOUND`), absent for
    /// Firebase's own 400s.
    public let status: String?
    /// The `errors` entry's own message when it differs from `message` (`Invalid Credentials` for a 401).
    public let itemMessage: String?
    /// The `errors` entry's `location` (`Authorization` for a 401).
    public let location: String?

    /// Creates an error from its wire fields.
    public init(
        httpStatus: Int, code: AuthErrorCode, message: String, reason: String, status: String?,
        itemMessage: String? = nil, location: String? = nil
    ) {
        self.httpStatus = httpStatus
        self.code = code
        self.message = message
        self.reason = reason
        self.status = status
        self.itemMessage = itemMessage
        self.location = location
    }

    /// A Firebase 400 whose message is `CODE` or `CODE : detail`.
    public static func badRequest(_ code: AuthErrorCode, _ detail: String? = nil) -> AuthServiceError {
        AuthServiceError(
            httpStatus: 400, code: code, message: detail.map { "\(code.rawValue) : \($0)" } ?? code.rawValue,
            reason: "invalid", status: nil)
    }

    /// The 403 for a request without an API key, worded as the Firebase emulator and Google's front end word it.
    public static let missingAPIKey = AuthServiceError(
        httpStatus: 403, code: .permissionDenied, message: "The request is missing a valid API key.",
        reason: "forbidden", status: "PERMISSION_DENIED")

    /// The 401 for an `Authorization` header that is not `Bearer owner` (nor a Google OAuth token), worded as the
    /// Firebase emulator words it.
    public static let invalidCredentials = AuthServiceError(
        httpStatus: 401, code: .unauthenticated,
        message: "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or "
            + "other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.",
        reason: "authError", status: "UNAUTHENTICATED", itemMessage: "Invalid Credentials", location: "Authorization")

    /// The 401 for an administrator-only endpoint called without credentials.
    public static let missingCredentials = AuthServiceError(
        httpStatus: 401, code: .unauthenticated,
        message: "Request is missing required authentication credential. Expected OAuth 2 access token, login "
            + "cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.",
        reason: "required", status: "UNAUTHENTICATED", itemMessage: "Login Required.", location: "Authorization")

    /// The 501 for what the service does not implement.
    public static func notImplemented(_ what: String) -> AuthServiceError {
        AuthServiceError(
            httpStatus: 501, code: .notImplemented, message: what, reason: "unimplemented", status: "NOT_IMPLEMENTED")
    }

    /// A Google-front-end 400 (`INVALID_ARGUMENT`), e.g. a field of the wrong type or an unknown enum value.
    public static func invalidArgument(_ detail: String) -> AuthServiceError {
        AuthServiceError(
            httpStatus: 400, code: .invalidArgument, message: detail, reason: "invalid", status: "INVALID_ARGUMENT")
    }

    /// The 404 for a path that names no endpoint.
    public static let notFound = AuthServiceError(
        httpStatus: 404, code: .notFound, message: "Not Found", reason: "notFound", status: "NOT_FOUND")

    /// The 400 for a body that does not parse.
    public static func invalidJSON(_ detail: String) -> AuthServiceError {
        AuthServiceError(
            httpStatus: 400, code: .invalidArgument, message: "Invalid JSON payload received. \(detail)",
            reason: "parseError", status: "INVALID_ARGUMENT")
    }

    /// A 500; `detail` must not contain secrets (it is sent to the caller).
    public static func internalFailure(_ detail: String) -> AuthServiceError {
        AuthServiceError(
            httpStatus: 500, code: .internalError, message: "INTERNAL : \(detail)", reason: "internal",
            status: "INTERNAL")
    }

    /// `<status> <message>`.
    public var description: String { "auth service error \(httpStatus): \(message)" }
}
