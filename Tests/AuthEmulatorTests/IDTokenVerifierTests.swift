import AuthEmulator
import Foundation
import Testing

/// The verifier a backend uses against real Firebase, fed the JWK set document the emulator serves (the same bytes
/// Google's endpoint would give): it accepts the emulator's ID tokens and refuses tampered, unsigned, foreign and
/// expired ones, naming why.
@Suite("ID token verifier (published keys)")
struct IDTokenVerifierTests {
    private func verifier(_ emulator: AuthEmulator, projectId: String = "demo-carchain") async throws -> IDTokenVerifier {
        let document = await emulator.handle(AuthHTTPRequest(method: "GET", path: AuthRoute.jwksPath))
        return try await IDTokenVerifier(jwksJSON: String(decoding: document.body, as: UTF8.self), projectId: projectId)
    }

    @Test("the emulator's token verifies with its published keys; the claims are the account's")
    func accepts() async throws {
        let clock = ManualAuthClock(start: Date())
        let emulator = try await makeEmulator(clock: clock)
        let session = try await emulator.signUp(.init(email: "Ver@Example.com", password: "secret-pw"))
        let claims = try await verifier(emulator).verify(session.idToken, now: clock.now())
        #expect(claims.userId == session.localId && claims.subject == session.localId)
        #expect(claims.email == "ver@example.com" && claims.audience == "demo-carchain")
    }

    @Test("tampered, unsigned, another project's, expired and future tokens are refused with their reason")
    func refuses() async throws {
        let clock = ManualAuthClock(start: Date())
        let emulator = try await makeEmulator(clock: clock)
        let token = try await emulator.signUp(.init(email: "t@example.com", password: "secret-pw")).idToken
        let keys = try await verifier(emulator)
        func reason(_ token: String, now: Date? = nil, with verifier: IDTokenVerifier? = nil) async -> IDTokenError? {
            do {
                _ = try await (verifier ?? keys).verify(token, now: now ?? clock.now())
                return nil
            } catch {
                return error
            }
        }
        // Another payload under the same signature: the uid changed.
        let parts = token.split(separator: ".").map(String.init)
        let payloadBytes = try #require(Base64URL.decode(parts[1]))
        var payload = try #require(try JSONSerialization.jsonObject(with: Data(payloadBytes)) as? [String: Any])
        payload["user_id"] = "someone-else"
        payload["sub"] = "someone-else"
        let forged = parts[0] + "." + Base64URL.encode(Array(try JSONSerialization.data(withJSONObject: payload))) + "." + parts[2]
        #expect(await reason(forged) == .badSignature)
        // alg none, as an unsigned custom token would say.
        let none = Base64URL.encode(Array("{\"alg\":\"none\",\"typ\":\"JWT\"}".utf8)) + "." + parts[1] + "."
        #expect(await reason(none) == .unsupportedAlgorithm("none"))
        #expect(await reason("abc") == .malformed("expected 3 dot-separated parts, found 1"))
        // The right signature for another project.
        let foreign = try await verifier(emulator, projectId: "demo-other")
        if case .wrongClaim(let why)? = await reason(token, with: foreign) {
            #expect(why.contains("expected https://securetoken.google.com/demo-other"))
        } else {
            Issue.record("a token of demo-carchain was accepted for demo-other")
        }
        // An hour and a second later it has expired; six minutes earlier it was not issued yet.
        #expect(await reason(token, now: clock.now().addingTimeInterval(3601))?.isExpiry == true)
        #expect(await reason(token, now: clock.now().addingTimeInterval(-360)) == .issuedInFuture)
        // A key set without this token's key.
        let other = try await IDTokenVerifier(keySet: AuthWire.JSONWebKeySet(keys: []), projectId: "demo-carchain")
        #expect(await reason(token, with: other) != nil)
    }
}
