import AuthEmulator
import DevNode
import EthereumPrimitives
import Foundation

extension FuzzHarness {
    /// The auth REST handler (`AuthEmulator.handle`, what the HTTP routes and the in-process client call) on a
    /// fresh in-memory store, driven by a structured input: up to six requests, each to one of the four
    /// endpoints (or a near miss), with or without an API key, a JSON, form or raw body whose fields (email,
    /// password, tokens, grant type) come from hostile strings and from tokens earlier answers issued, and the
    /// clock moved past token expiry and rate-limit windows between them. Invariants: the status is 200, 400, 403
    /// or 404 (a 500 means the service failed on input it should have refused); the body is JSON; an error body
    /// is Google's shape with `error.code` equal to the status.
    static func auth(_ data: [UInt8]) async throws(FuzzInvariantFailure) {
        var input = FuzzInput(data)
        let clock = ManualAuthClock()
        let emulator: AuthEmulator
        do {
            emulator = try AuthEmulator(
                store: try AuthStore.inMemory(), signer: try await AuthFixture.shared.signer(), clock: clock,
                projectId: AuthEmulator.defaultProjectId, policy: AuthFixture.policy)
        } catch {
            throw FuzzInvariantFailure(.auth, "cannot create the service: \(error)")
        }
        var tokens: [String] = []
        var emails: [String] = []
        for _ in 0..<(1 + input.index(6)) {
            let request = AuthFixture.request(&input, tokens: tokens, emails: emails)
            let response = await emulator.handle(request)
            let object: JSONValue
            do { object = try JSONParser.parse(response.body) } catch {
                throw FuzzInvariantFailure(.auth, "body is not JSON (\(error)) for \(request.path)")
            }
            switch response.status {
            case 200:
                guard case .object = object else { throw FuzzInvariantFailure(.auth, "200 body is not an object") }
                for key in ["idToken", "refreshToken", "refresh_token", "id_token"] {
                    if let token = object[key]?.stringValue { tokens.append(token) }
                }
                if let email = object["email"]?.stringValue { emails.append(email) }
            case 400, 403, 404:
                guard case .number(let code)? = object["error"]?["code"], code == String(response.status),
                    object["error"]?["message"]?.stringValue != nil
                else {
                    throw FuzzInvariantFailure(.auth, "error body without code \(response.status) and message: \(object)")
                }
            default:
                throw FuzzInvariantFailure(
                    .auth, "status \(response.status) for \(request.method) \(request.path): \(object.description.prefix(300))")
            }
            clock.advance(by: input.pick([0, 1, 59, 61, 3599, 3601, 86_400, 1e9]))
        }
    }
}

/// The auth harness's fixed parts: one RSA signing key for every input (generating one takes longer than many
/// executions), cheap scrypt parameters, and the request builder.
actor AuthFixture {
    static let shared = AuthFixture()
    static let policy = AuthPolicy(scrypt: ScryptParameters(logN: 4, r: 1, p: 1))

    private var cached: TokenSigner?

    func signer() async throws -> TokenSigner {
        if let cached { return cached }
        let signer = try await TokenSigner.generate().signer
        cached = signer
        return signer
    }

    static let paths = FirebaseAuthEndpoint.allCases.map(\.path) + [
        "/identitytoolkit.googleapis.com/v1/accounts:signUp/", "/identitytoolkit.googleapis.com/v1/accounts:delete",
        "/identitytoolkit.googleapis.com/v1/accounts:", "/", "", "/securetoken.googleapis.com/v1/token?key=x",
        "/IDENTITYTOOLKIT.googleapis.com/v1/accounts:signUp",
    ]

    static let strings = [
        "", "a@b.co", "user@example.com", "USER@EXAMPLE.COM", " user@example.com", "user@", "@example.com",
        "a@b", "ü@例え.jp", "a\u{0}@b.co", "password", "12345", "123456", String(repeating: "a", count: 5000) + "@x.io",
        "refresh_token", "refreshtoken", "eyJhbGciOiJSUzI1NiJ9.e30.", "eyJ.eyJ.sig", "a.b.c", "...", "%00", "é",
        "\u{1F600}\u{1F600}\u{1F600}", String(repeating: "x", count: 100_000),
    ]

    static func request(_ input: inout FuzzInput, tokens: [String], emails: [String]) -> AuthHTTPRequest {
        let path = input.pick(paths)
        let method = input.chance(230) ? "POST" : input.pick(["GET", "post", "PUT", ""])
        var query: [String: String] = [:]
        var headers: [String: String] = [:]
        switch input.index(6) {
        case 0: break
        case 1: headers["x-goog-api-key"] = input.chance(128) ? "fake-api-key" : ""
        case 2: query["key"] = ""
        default: query["key"] = "fake-api-key"
        }
        if input.chance(200) {
            headers["content-type"] = input.pick([
                "application/json", "application/x-www-form-urlencoded", "text/plain", "application/JSON; charset=utf-8",
            ])
        }
        func text() -> String {
            switch input.index(8) {
            case 0 where !tokens.isEmpty: return input.pick(tokens)
            case 1 where !emails.isEmpty: return input.pick(emails)
            case 2: return String(decoding: input.bytes(maxCount: 32), as: UTF8.self)
            default: return input.pick(strings)
            }
        }
        func value() -> JSONValue {
            switch input.index(10) {
            case 0: return .number(input.pick(["0", "-1", "1e999", "18446744073709551616", "1.5"]))
            case 1: return .bool(input.chance(128))
            case 2: return .null
            case 3: return .array([.string(text())])
            case 4: return .object([("email", .string(text()))])
            default: return .string(text())
            }
        }
        let keys = [
            "email", "password", "returnSecureToken", "displayName", "idToken", "grant_type", "refresh_token", "grantType",
            "refreshToken", "tenantId", "localId",
        ]
        let body: [UInt8]
        switch input.index(8) {
        case 0:
            body = input.bytes(maxCount: 200)
        case 1:
            var fields: [String] = []
            for _ in 0..<input.index(4) {
                let key = input.pick(keys)
                let raw = input.chance(128) ? text() : String(decoding: input.bytes(maxCount: 12), as: UTF8.self)
                let encoded = raw.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? raw
                fields.append(input.chance(220) ? "\(key)=\(encoded)" : raw)
            }
            body = Array(fields.joined(separator: input.chance(230) ? "&" : ";").utf8)
        default:
            var members: [(key: String, value: JSONValue)] = []
            for _ in 0..<input.index(6) { members.append((input.pick(keys), value())) }
            // The common shapes, so that most requests reach the operation: a sign-up or sign-in, a lookup, a refresh.
            switch input.index(4) {
            case 0: members += [("email", .string(text())), ("password", .string(text()))]
            case 1: members.append(("idToken", .string(text())))
            case 2: members += [("grant_type", .string("refresh_token")), ("refresh_token", .string(text()))]
            default: break
            }
            body = Array(JSONValue.object(members).description.utf8)
        }
        return AuthHTTPRequest(method: method, path: path, query: query, headers: headers, body: body)
    }
}
