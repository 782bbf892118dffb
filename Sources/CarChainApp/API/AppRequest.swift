import EthereumPrimitives
import Foundation

/// One request to the app API, as the HTTP route hands it over (and the tests and benchmarks build it): the
/// method, the path under `/app/api/v1`, the query, the body and the `Authorization` header.
public struct AppRequest: Sendable {
    /// The largest body the API reads (a JSON object of a few fields).
    public static let maxBodyBytes = 64 * 1024

    public var method: String
    /// The path under `/app/api/v1`, e.g. `/cars`.
    public var path: String
    public var query: [String: String]
    public var body: [UInt8]
    public var authorization: String?

    public init(method: String, path: String, query: [String: String] = [:], body: [UInt8] = [], authorization: String? = nil) {
        self.method = method
        self.path = path
        self.query = query
        self.body = body
        self.authorization = authorization
    }

    /// The ID token of `Authorization: Bearer <token>`.
    var bearerToken: String? {
        guard let authorization else { return nil }
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }

    /// The path's segments (`/cars/6789BBB/position` → `["cars", "6789BBB", "position"]`), percent-decoded.
    var segments: [String] {
        path.split(separator: "/").map { String($0).removingPercentEncoding ?? String($0) }
    }

    /// The body as a JSON object; `BAD_REQUEST` when it is not one.
    func jsonBody() throws(AppAPIError) -> JSONBody {
        guard !body.isEmpty else { throw .badRequest("The request needs a JSON body.") }
        guard let value = try? JSONValue(parsing: body), case .object(let members) = value else {
            throw .badRequest("The request body is not a JSON object.")
        }
        return JSONBody(members: members)
    }
}

/// A request's JSON object, read field by field with errors that name the field.
struct JSONBody: Sendable {
    let members: [(key: String, value: JSONValue)]

    func value(_ name: String) -> JSONValue? { members.first { $0.key == name }?.value }

    /// A string field; `BAD_REQUEST` when present with another type, or missing and required.
    func string(_ name: String, required: Bool = true, maxBytes: Int = 4096) throws(AppAPIError) -> String? {
        guard let value = value(name), value != .null else {
            if required { throw .badRequest("The field \"\(name)\" is missing.") }
            return nil
        }
        guard let text = value.stringValue else { throw .badRequest("The field \"\(name)\" must be a string.") }
        guard text.utf8.count <= maxBytes else { throw .badRequest("The field \"\(name)\" is longer than \(maxBytes) bytes.") }
        return text
    }

    /// A number field as a `Double` (a position); `BAD_REQUEST` otherwise.
    func number(_ name: String) throws(AppAPIError) -> Double {
        guard let value = value(name) else { throw .badRequest("The field \"\(name)\" is missing.") }
        guard case .number(let text) = value, let number = Double(text), number.isFinite else {
            throw .badRequest("The field \"\(name)\" must be a number.")
        }
        return number
    }
}

/// What the API answers: a status and a JSON body.
public struct AppResponse: Sendable {
    public var status: Int
    public var body: JSONValue

    public init(status: Int = 200, body: JSONValue) {
        self.status = status
        self.body = body
    }
}
