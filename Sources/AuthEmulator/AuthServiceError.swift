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

    /// Creates an error from its wire fields.
    public init(httpStatus: Int, code: AuthErrorCode, message: String, reason: String, status: String?) {
        self.httpStatus = httpStatus
        self.code = code
        self.message = message
        self.reason = reason
        self.status = status
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
