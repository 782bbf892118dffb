/// One HTTP request to the auth service, reduced to what the Firebase Auth REST API reads: method, path, query,
/// headers and body. The HTTP server and the in-process client transport both hand the service this value, so
/// the embedded default and the served emulator run the same code on the same bytes.
public struct AuthHTTPRequest: Sendable, Equatable {
    /// The HTTP method, e.g. `POST`.
    public var method: String
    /// The path without the query, e.g. `/identitytoolkit.googleapis.com/v1/accounts:signUp`.
    public var path: String
    /// Query parameters, percent-decoded (`key` carries the API key).
    public var query: [String: String]
    /// Header fields with lowercased names (`content-type`, `x-goog-api-key`, `authorization`, `host`, `origin`).
    public var headers: [String: String]
    /// The raw body: JSON, or form-encoded for the token endpoint.
    public var body: [UInt8]
    /// The client's IP address as the server saw it (the socket's peer, never a forwarded header), for the
    /// per-address limits; nil in process.
    public var clientAddress: String?

    /// The header fields the service reads; servers copy only these into `headers`.
    public static let readHeaders: Set<String> = [
        "content-type", "x-goog-api-key", "authorization", "host", "origin", "access-control-request-headers",
    ]

    /// Creates a request from its parts; header names are lowercased.
    public init(
        method: String = "POST", path: String, query: [String: String] = [:], headers: [String: String] = [:],
        body: [UInt8] = [], clientAddress: String? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
        self.body = body
        self.clientAddress = clientAddress
    }

    /// Creates a request from a request target such as `/path?key=abc`.
    public init(
        method: String = "POST", target: String, headers: [String: String] = [:], body: [UInt8] = [],
        clientAddress: String? = nil
    ) {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        self.init(
            method: method, path: String(parts[0]),
            query: parts.count > 1 ? FormEncoding.decode(String(parts[1])) : [:], headers: headers, body: body,
            clientAddress: clientAddress)
    }

    /// The API key from the `key` query parameter or the `x-goog-api-key` header; nil when both are absent or
    /// empty.
    public var apiKey: String? {
        if let key = query["key"], !key.isEmpty { return key }
        if let key = headers["x-goog-api-key"], !key.isEmpty { return key }
        return nil
    }
}

/// The service's answer: a status, headers (content type, CORS, `location` for a redirect) and a JSON body.
public struct AuthHTTPResponse: Sendable, Equatable {
    /// The HTTP status code.
    public var status: Int
    /// Header fields with lowercased names.
    public var headers: [String: String]
    /// The JSON body.
    public var body: [UInt8]

    /// The content type Google's APIs answer with.
    public static let jsonContentType = "application/json; charset=UTF-8"

    /// Creates a response; the content type defaults to JSON.
    public init(status: Int, headers: [String: String] = ["content-type": jsonContentType], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}
