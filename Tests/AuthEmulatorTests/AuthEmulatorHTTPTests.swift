import AuthEmulator
import Foundation
import Hummingbird
import HummingbirdTesting
import HTTPTypes
import Testing

/// The emulator served by Hummingbird, checked against the Firebase Auth REST API's request and response shapes,
/// through Hummingbird's router test framework and through a live server on loopback.
@Suite("Firebase Auth emulator over HTTP")
struct AuthEmulatorHTTPTests {
    enum Setup: String, CaseIterable, Sendable {
        case router, live
        var testing: TestingSetup { self == .router ? .router : .live }
    }

    private func withApp(
        _ setup: Setup, clock: ManualAuthClock = ManualAuthClock(),
        _ body: @Sendable @escaping (any TestClientProtocol, AuthEmulator) async throws -> Void
    ) async throws {
        let emulator = try await makeEmulator(clock: clock)
        let router = Router()
        addAuthEmulatorRoutes(to: router, emulator: emulator)
        router.post("/") { _, _ in "json-rpc lives here" }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(setup.testing) { client in try await body(client, emulator) }
    }

    private func send(
        _ client: any TestClientProtocol, _ endpoint: FirebaseAuthEndpoint, _ body: String,
        query: String = "?key=fake-api-key", contentType: String = "application/json", headers: HTTPFields = [:]
    ) async throws -> (status: Int, json: JSON, raw: String, contentType: String?) {
        var fields = headers
        fields[.contentType] = contentType
        let response = try await client.execute(
            uri: endpoint.path + query, method: .post, headers: fields, body: ByteBuffer(string: body))
        let bytes = Array(response.body.readableBytesView)
        return (Int(response.status.code), try JSON.parse(bytes), String(decoding: bytes, as: UTF8.self), response.headers[.contentType])
    }

    @Test("signUp → signInWithPassword → lookup → token, with Firebase's field names", arguments: Setup.allCases)
    func happyPath(_ setup: Setup) async throws {
        try await withApp(setup) { client, emulator in
            let signUp = try await send(client, .signUp, #"{"email":"vic@example.com","password":"secret-pw","returnSecureToken":true}"#)
            #expect(signUp.status == 200)
            #expect(signUp.contentType == "application/json; charset=UTF-8")
            #expect(signUp.json.keys == ["kind", "idToken", "email", "refreshToken", "expiresIn", "localId"])
            #expect(signUp.json["kind"] == .string("identitytoolkit#SignupNewUserResponse"))
            #expect(signUp.json["expiresIn"] == .string("3600"))
            let uid = try #require(signUp.json["localId"]?.string)

            let signIn = try await send(client, .signInWithPassword, #"{"email":"vic@example.com","password":"secret-pw","returnSecureToken":true}"#)
            #expect(signIn.status == 200)
            #expect(signIn.json.keys == ["kind", "localId", "email", "displayName", "idToken", "registered", "refreshToken", "expiresIn"])
            #expect(signIn.json["registered"] == .bool(true))
            #expect(signIn.json["localId"] == .string(uid))
            let idToken = try #require(signIn.json["idToken"]?.string)
            let refreshToken = try #require(signIn.json["refreshToken"]?.string)

            let lookup = try await send(client, .lookup, #"{"idToken":"\#(idToken)"}"#)
            #expect(lookup.status == 200)
            #expect(lookup.json.keys == ["kind", "users"])
            let user = try #require(lookup.json["users"]?[0])
            #expect(user.keys == [
                "localId", "email", "passwordHash", "emailVerified", "passwordUpdatedAt", "providerUserInfo",
                "validSince", "lastLoginAt", "createdAt", "lastRefreshAt",
            ])
            #expect(user["emailVerified"] == .bool(false))
            guard case .number = user["passwordUpdatedAt"] else { Issue.record("passwordUpdatedAt is not a number"); return }
            guard case .string = user["createdAt"] else { Issue.record("createdAt is not a string"); return }
            #expect(user["providerUserInfo"]?[0]?.keys == ["providerId", "federatedId", "email", "rawId"])

            // Firebase SDKs post the token request form-encoded.
            let token = try await send(
                client, .token, "grant_type=refresh_token&refresh_token=\(FormEncoding.escape(refreshToken))",
                contentType: "application/x-www-form-urlencoded")
            #expect(token.status == 200)
            #expect(token.json.keys == ["access_token", "expires_in", "token_type", "refresh_token", "id_token", "user_id", "project_id"])
            #expect(token.json["token_type"] == .string("Bearer"))
            #expect(token.json["user_id"] == .string(uid))
            // The refresh token rotates: the answer carries the next one.
            var current = try #require(token.json["refresh_token"]?.string)
            #expect(current != refreshToken)

            // …and JSON works too, in snake_case or camelCase.
            for template in [#"{"grant_type":"refresh_token","refresh_token":"TOKEN"}"#,
                             #"{"grantType":"refresh_token","refreshToken":"TOKEN"}"#] {
                let jsonToken = try await send(client, .token, template.replacingOccurrences(of: "TOKEN", with: current))
                #expect(jsonToken.status == 200, "\(jsonToken.raw)")
                current = try #require(jsonToken.json["refresh_token"]?.string)
            }
            _ = emulator
        }
    }

    @Test("error envelope is Firebase's, byte for byte", arguments: Setup.allCases)
    func errorEnvelope(_ setup: Setup) async throws {
        try await withApp(setup) { client, _ in
            _ = try await send(client, .signUp, #"{"email":"wes@example.com","password":"secret-pw"}"#)
            let exists = try await send(client, .signUp, #"{"email":"wes@example.com","password":"secret-pw"}"#)
            #expect(exists.status == 400)
            #expect(exists.raw == #"{"error":{"code":400,"errors":[{"domain":"global","message":"EMAIL_EXISTS","reason":"invalid"}],"message":"EMAIL_EXISTS"}}"#)

            let weak = try await send(client, .signUp, #"{"email":"xan@example.com","password":"12345"}"#)
            #expect(weak.json["error"]?["message"] == .string("WEAK_PASSWORD : Password should be at least 6 characters"))

            let cases: [(FirebaseAuthEndpoint, String, String)] = [
                (.signUp, #"{"email":"bad","password":"secret-pw"}"#, "INVALID_EMAIL"),
                (.signUp, #"{"password":"secret-pw"}"#, "MISSING_EMAIL"),
                (.signInWithPassword, #"{"email":"wes@example.com","password":"wrong-pw"}"#, "INVALID_LOGIN_CREDENTIALS"),
                (.signInWithPassword, #"{"email":"nobody@example.com","password":"wrong-pw"}"#, "INVALID_LOGIN_CREDENTIALS"),
                (.lookup, #"{}"#, "MISSING_ID_TOKEN"),
                (.lookup, #"{"idToken":"x.y.z"}"#, "INVALID_ID_TOKEN"),
                (.token, #"{"grant_type":"refresh_token","refresh_token":"nope"}"#, "INVALID_REFRESH_TOKEN"),
                (.token, #"{"grant_type":"client_credentials"}"#, "INVALID_GRANT_TYPE"),
            ]
            for (endpoint, body, message) in cases {
                let response = try await send(client, endpoint, body)
                #expect(response.status == 400)
                #expect(response.json["error"]?["message"] == .string(message), "\(endpoint) \(body)")
                #expect(response.json["error"]?["code"] == .number(400))
            }
        }
    }

    @Test("the API key is required: 403 PERMISSION_DENIED without it; x-goog-api-key works", arguments: Setup.allCases)
    func apiKey(_ setup: Setup) async throws {
        try await withApp(setup) { client, _ in
            let missing = try await send(client, .signUp, #"{"email":"yui@example.com","password":"secret-pw"}"#, query: "")
            #expect(missing.status == 403)
            #expect(missing.raw == #"{"error":{"code":403,"errors":[{"domain":"global","message":"The request is missing a valid API key.","reason":"forbidden"}],"message":"The request is missing a valid API key.","status":"PERMISSION_DENIED"}}"#)
            let empty = try await send(client, .signUp, #"{"email":"yui@example.com","password":"secret-pw"}"#, query: "?key=")
            #expect(empty.status == 403)
            var headers = HTTPFields()
            headers[try #require(HTTPField.Name("x-goog-api-key"))] = "fake-api-key"
            let viaHeader = try await send(client, .signUp, #"{"email":"yui@example.com","password":"secret-pw"}"#, query: "", headers: headers)
            #expect(viaHeader.status == 200)
        }
    }

    @Test("malformed JSON is 400 INVALID_ARGUMENT; other routes are untouched", arguments: Setup.allCases)
    func malformed(_ setup: Setup) async throws {
        try await withApp(setup) { client, _ in
            let broken = try await send(client, .signUp, #"{"email":"#)
            #expect(broken.status == 400)
            #expect(broken.json["error"]?["status"] == .string("INVALID_ARGUMENT"))
            #expect(broken.json["error"]?["message"]?.string?.hasPrefix("Invalid JSON payload received.") == true)
            let wrongType = try await send(client, .signUp, #"{"email":42,"password":"secret-pw"}"#)
            #expect(wrongType.status == 400)
            #expect(wrongType.json["error"]?["message"] == .string("Invalid JSON payload received. Invalid value at 'email' (String)"))

            let rpc = try await client.execute(uri: "/", method: .post, body: ByteBuffer(string: "{}"))
            #expect(String(decoding: Array(rpc.body.readableBytesView), as: UTF8.self) == "json-rpc lives here")
            let get = try await client.execute(uri: FirebaseAuthEndpoint.signUp.path + "?key=k", method: .get)
            #expect(get.status != .ok)
        }
    }

    @Test("handle(_:) answers 404 NOT_FOUND for unknown paths and methods")
    func notFound() async throws {
        let emulator = try await makeEmulator()
        let unknown = await emulator.handle(AuthHTTPRequest(target: "/identitytoolkit.googleapis.com/v1/accounts:noSuchThing?key=k"))
        #expect(unknown.status == 404)
        #expect(try JSON.parse(unknown.body)["error"]?["status"] == .string("NOT_FOUND"))
        let get = await emulator.handle(AuthHTTPRequest(method: "GET", target: FirebaseAuthEndpoint.signUp.path + "?key=k"))
        #expect(get.status == 404)
    }
}
