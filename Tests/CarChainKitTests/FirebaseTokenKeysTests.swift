import AuthEmulator
import CarChainKit
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// The key set an auth service serves, changed by the test (a rotation), and how often it was fetched.
private actor ServedKeys {
    var keys: [AuthWire.JSONWebKey]
    var fetches = 0

    init(_ keys: [AuthWire.JSONWebKey]) { self.keys = keys }

    func set(_ keys: [AuthWire.JSONWebKey]) { self.keys = keys }

    func fetched() throws -> String {
        fetches += 1
        return String(decoding: try JSONEncoder().encode(AuthWire.JSONWebKeySet(keys: keys)), as: UTF8.self)
    }
}

/// `carchain app --rpc`'s token check (issue 33): the keys the auth service publishes, fetched over HTTP as a backend
/// fetches Google's, kept for their max-age, fetched again when a token names a key the set lacks (at most once per
/// interval).
@Suite("FirebaseTokenKeys") struct FirebaseTokenKeysTests {
    @Test("the key set's URL: Google's for real Firebase, the same path on an emulator's host; max-age kept between a minute and a day")
    func urlsAndLifetimes() {
        // Google's documented JWK set for Firebase ID tokens.
        #expect(FirebaseTokenKeys.keySetURL(authURL: "https://identitytoolkit.googleapis.com")
            == "https://www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com")
        #expect(FirebaseTokenKeys.keySetURL(authURL: "http://127.0.0.1:9099/")
            == "http://127.0.0.1:9099/www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com")
        #expect(FirebaseTokenKeys.keySetURL(authURL: "ftp://example.org") == nil)
        #expect(FirebaseTokenKeys.keySetURL(authURL: "127.0.0.1:9099") == nil)
        #expect(throws: FirebaseTokenKeys.FetchError.self) { try FirebaseTokenKeys(authURL: "not a url", projectId: "demo-carchain") }
        // Google answers with e.g. "public, max-age=19302, must-revalidate, no-transform".
        #expect(FirebaseTokenKeys.cacheLifetime("public, max-age=19302, must-revalidate, no-transform") == .seconds(19302))
        #expect(FirebaseTokenKeys.cacheLifetime(nil) == .seconds(3600))
        #expect(FirebaseTokenKeys.cacheLifetime("no-cache") == .seconds(3600))
        #expect(FirebaseTokenKeys.cacheLifetime("max-age=5") == .seconds(60))
        #expect(FirebaseTokenKeys.cacheLifetime("Max-Age=99999999") == .seconds(86_400))
        #expect(FirebaseTokenKeys.cacheLifetime("max-age=-1, max-age=x") == .seconds(60))
    }

    @Test("fetched once and kept; a rotated key is fetched again (never sooner than the interval); a forged token and a missing key set are refused")
    func rotation() async throws {
        let fast = AuthPolicy(scrypt: ScryptParameters(logN: 10, r: 8, p: 1))
        let old = try await AuthEmulator.ephemeral(policy: fast)
        let new = try await AuthEmulator.ephemeral(policy: fast)
        let forger = try await AuthEmulator.ephemeral(policy: fast)
        let tokenOld = try await AuthClient.inProcess(old).signUp(email: "ana@example.com", password: "password1").idToken
        let tokenNew = try await AuthClient.inProcess(new).signUp(email: "bob@example.com", password: "password1").idToken
        let forged = try await AuthClient.inProcess(forger).signUp(email: "eve@example.com", password: "password1").idToken

        let served = ServedKeys([old.signer.jwk])
        let router = Router()
        router.get(RouterPath(AuthRoute.jwksPath)) { _, _ -> Response in
            Response(
                status: .ok, headers: [.contentType: "application/json", .cacheControl: "public, max-age=3600"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: try await served.fetched())))
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            let base = "http://127.0.0.1:\(try #require(client.port))"
            let patient = try FirebaseTokenKeys(authURL: base, projectId: "demo-carchain")
            let eager = try FirebaseTokenKeys(authURL: base, projectId: "demo-carchain", refetchInterval: .zero)

            #expect(try await patient.verify(tokenOld).email == "ana@example.com")
            #expect(try await patient.verify(tokenOld).email == "ana@example.com")
            #expect(await served.fetches == 1, "kept for its max-age")
            #expect(try await eager.verify(tokenOld).email == "ana@example.com")
            #expect(await served.fetches == 2)

            // The service rotates: tokens now name the new key.
            await served.set([old.signer.jwk, new.signer.jwk])
            await #expect(throws: (any Error).self, "within the interval the old set decides") { try await patient.verify(tokenNew) }
            #expect(await served.fetches == 2)
            #expect(try await eager.verify(tokenNew).email == "bob@example.com")
            #expect(await served.fetches == 3)
            #expect(try await eager.verify(tokenOld).email == "ana@example.com")
            #expect(await served.fetches == 3, "a known key needs no fetch")

            // A key nobody publishes: asked once more, then refused.
            await #expect(throws: (any Error).self) { try await eager.verify(forged) }
            #expect(await served.fetches == 4)

            // No key set where the URL says: said at start, with the URL and the status.
            let nowhere = try FirebaseTokenKeys(authURL: base + "/elsewhere", projectId: "demo-carchain")
            do {
                try await nowhere.prefetch()
                Issue.record("a missing key set was accepted")
            } catch let error as FirebaseTokenKeys.FetchError {
                #expect(error.description.contains("/elsewhere/www.googleapis.com/") && error.description.contains("HTTP 404"), "\(error)")
            }
        }
    }
}
