import AsyncHTTPClient
import AuthEmulator
import EthereumRPC
import Foundation

/// Sends auth requests over HTTP with async-http-client, to a served emulator or to real Firebase.
///
/// - Emulator base URL (`http://127.0.0.1:8545`): the request path is appended as it is
///   (`http://127.0.0.1:8545/identitytoolkit.googleapis.com/v1/accounts:signUp`), the layout the Firebase Auth
///   emulator serves.
/// - Google base URL (a host under `googleapis.com`, e.g. `https://identitytoolkit.googleapis.com`): each
///   endpoint goes to its own production host (`https://identitytoolkit.googleapis.com/v1/accounts:signUp`,
///   `https://securetoken.googleapis.com/v1/token`), whatever host the base URL names.
public struct HTTPAuthTransport: AuthTransport {
    /// The base URL without a trailing slash.
    public let baseURL: String
    /// Whether requests go to Google's production hosts.
    public let isProduction: Bool
    /// Per-request deadline in seconds.
    public let timeout: Int64
    private let client: HTTPClient

    /// Creates a transport for `baseURL` (http or https). Uses the shared async-http-client unless given one.
    public init(baseURL: String, httpClient: HTTPClient = .shared, timeout: Int64 = 30) throws(AuthClientError) {
        // NIO counts the timeout in 64-bit nanoseconds: a day at most keeps that exact (and means a mistake anyway).
        guard (1...86_400).contains(timeout) else {
            throw .invalidConfiguration("the auth request timeout must be 1 to 86400 seconds, not \(timeout)")
        }
        var trimmed = baseURL
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let components = URLComponents(string: trimmed), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty,
            components.query == nil
        else {
            throw .invalidConfiguration("auth URL \(baseURL) is not an http(s) URL like http://127.0.0.1:8545")
        }
        self.baseURL = trimmed
        self.isProduction = host.lowercased().hasSuffix("googleapis.com")
        self.timeout = timeout
        self.client = httpClient
    }

    /// The base URL.
    public var backend: String { baseURL }

    /// The URL `request` goes to, query included.
    public func url(for request: AuthHTTPRequest) -> String {
        let location: String
        if isProduction, let endpoint = FirebaseAuthEndpoint(path: request.path) {
            location = "https://\(endpoint.productionHost)\(endpoint.productionPath)"
        } else {
            location = baseURL + request.path
        }
        if request.query.isEmpty { return location }
        return location + "?" + FormEncoding.encode(request.query.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }

    /// Sends the request; any HTTP status is returned as a response, only transport failures throw.
    public func send(_ request: AuthHTTPRequest) async throws(AuthClientError) -> AuthHTTPResponse {
        let url = url(for: request)
        // Error messages name the URL without its query: the query carries the API key.
        let endpoint = String(url.prefix { $0 != "?" })
        var outgoing = HTTPClientRequest(url: url)
        outgoing.method = .init(rawValue: request.method)
        for (name, value) in request.headers { outgoing.headers.add(name: name, value: value) }
        outgoing.body = .bytes(request.body)
        do {
            let end = ContinuousClock.now + .seconds(timeout)
            let response = try await client.execute(outgoing, timeout: .seconds(timeout))
            // The client's timeout covers the head only; the body must arrive within the same limit.
            let body = try await HTTPTransport.collect(
                response.body, upTo: authEmulatorMaxBodySize, before: end, timeout: Double(timeout))
            var headers: [String: String] = [:]
            for header in response.headers { headers[header.name.lowercased()] = header.value }
            return AuthHTTPResponse(status: Int(response.status.code), headers: headers, body: Array(body.readableBytesView))
        } catch {
            throw .transport(endpoint: endpoint, reason: String(describing: error))
        }
    }
}
