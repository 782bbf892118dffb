import AuthEmulator

/// How the auth client's requests reach a Firebase-Auth-compatible service. Every transport carries the same
/// `AuthHTTPRequest` (emulator-style path, query with the API key, JSON body) and returns the service's
/// `AuthHTTPResponse`, so the client runs one code path whether the service is in-process, a served emulator,
/// or real Firebase.
public protocol AuthTransport: Sendable {
    /// Sends one request and returns the response, whatever its status; throws only when no response arrived.
    func send(_ request: AuthHTTPRequest) async throws(AuthClientError) -> AuthHTTPResponse
    /// Where requests go, for messages and for recording which service a session belongs to (e.g. `in-process`,
    /// `http://127.0.0.1:8545`). Never includes the API key.
    var backend: String { get }
}

/// Calls an `AuthEmulator` in this process, with exactly the bytes an HTTP transport would send.
public struct InProcessAuthTransport: AuthTransport {
    /// The service.
    public let emulator: AuthEmulator

    /// Creates a transport to `emulator`.
    public init(emulator: AuthEmulator) {
        self.emulator = emulator
    }

    /// `in-process`.
    public var backend: String { "in-process" }

    /// Hands the request to `emulator.handle(_:)`.
    public func send(_ request: AuthHTTPRequest) async throws(AuthClientError) -> AuthHTTPResponse {
        await emulator.handle(request)
    }
}
