import AuthEmulator

/// Errors from the auth client: the service's own Firebase error codes, or a failure to reach or understand it.
/// No case carries a password, a token or an API key.
public enum AuthClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The service answered with a Firebase error, e.g. `INVALID_LOGIN_CREDENTIALS`.
    case service(code: AuthErrorCode, message: String, httpStatus: Int)
    /// The request did not complete (connection refused, timeout, TLS).
    case transport(endpoint: String, reason: String)
    /// The service answered something that is not the Firebase JSON for this endpoint.
    case malformedResponse(endpoint: String, reason: String)
    /// The client is set up wrongly (an unusable `--auth-url`, a missing API key).
    case invalidConfiguration(String)

    /// The Firebase code, when the service answered with one.
    public var code: AuthErrorCode? {
        if case .service(let code, _, _) = self { return code }
        return nil
    }

    /// A sentence a person can act on, e.g. "the email or password is incorrect (INVALID_LOGIN_CREDENTIALS)".
    public var description: String {
        switch self {
        case .service(let code, let message, _):
            let detail = message.split(separator: " : ", maxSplits: 1).dropFirst().first.map { ": \($0)" } ?? ""
            return "\(code.readableDescription) (\(code.rawValue)\(detail))"
        case .transport(let endpoint, let reason):
            return "could not reach the auth service at \(endpoint): \(reason)"
        case .malformedResponse(let endpoint, let reason):
            return "the auth service at \(endpoint) answered something that is not Firebase Auth JSON: \(reason)"
        case .invalidConfiguration(let reason):
            return "auth client configuration: \(reason)"
        }
    }
}
