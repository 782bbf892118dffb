import AuthEmulator
import Foundation
import JWTKit
import Testing

@Suite("ID tokens, accounts:lookup and token refresh")
struct AuthTokenTests {
    @Test("ID token: RS256 header with kid, Firebase claims, one-hour expiry")
    func idTokenClaims() async throws {
        let clock = ManualAuthClock()
        let emulator = try await makeEmulator(clock: clock)
        let created = try await emulator.signUp(.init(email: "kim@example.com", password: "secret-pw"))
        let parts = created.idToken.split(separator: ".")
        let header = try JSON.parse(try #require(Base64URL.decode(parts[0])))
        #expect(header == .object(["alg": .string("RS256"), "kid": .string(emulator.signer.keyID), "typ": .string("JWT")]))
        let payload = try JSON.parse(try #require(Base64URL.decode(parts[1])))
        let now = clock.now().timeIntervalSince1970
        #expect(payload["iss"] == .string("https://securetoken.google.com/demo-carchain"))
        #expect(payload["aud"] == .string("demo-carchain"))
        #expect(payload["sub"] == .string(created.localId))
        #expect(payload["user_id"] == .string(created.localId))
        #expect(payload["email"] == .string("kim@example.com"))
        #expect(payload["email_verified"] == .bool(false))
        #expect(payload["auth_time"] == .number(now))
        #expect(payload["iat"] == .number(now))
        #expect(payload["exp"] == .number(now + 3600))
        #expect(payload["firebase"] == .object([
            "identities": .object(["email": .array([.string("kim@example.com")])]),
            "sign_in_provider": .string("password"),
        ]))
    }

    @Test("the public key alone verifies the signature (jwt-kit, independently of the service)")
    func verifiesWithPublicKey() async throws {
        let emulator = try await makeEmulator()
        let created = try await emulator.signUp(.init(email: "lee@example.com", password: "secret-pw"))
        let keys = JWTKeyCollection()
        await keys.add(rsa: try Insecure.RSA.PublicKey(pem: emulator.signer.publicKeyPEM), digestAlgorithm: .sha256)
        let payload = try await keys.verify(created.idToken, as: RawClaims.self)
        #expect(payload.sub == created.localId)
        #expect(payload.aud == "demo-carchain")
        #expect(payload.exp - payload.iat == 3600)

        // Flip one payload character: the signature no longer verifies.
        var parts = created.idToken.split(separator: ".").map(String.init)
        var claims = try #require(Base64URL.decode(parts[1]))
        claims[try #require(claims.firstIndex(of: UInt8(ascii: "@")))] = UInt8(ascii: "#")
        parts[1] = Base64URL.encode(claims)
        await #expect(throws: (any Error).self) { _ = try await keys.verify(parts.joined(separator: "."), as: RawClaims.self) }
    }

    @Test("lookup returns the account in Firebase's shape")
    func lookup() async throws {
        let clock = ManualAuthClock()
        let emulator = try await makeEmulator(clock: clock)
        let created = try await emulator.signUp(.init(email: "max@example.com", password: "secret-pw", displayName: "Max"))
        let response = try await emulator.lookup(.init(idToken: created.idToken))
        #expect(response.kind == "identitytoolkit#GetAccountInfoResponse")
        let user = try #require(response.users?.first)
        let millis = Int64(clock.now().timeIntervalSince1970 * 1000)
        #expect(user.localId == created.localId)
        #expect(user.email == "max@example.com")
        #expect(user.displayName == "Max")
        #expect(user.passwordHash == "UkVEQUNURUQ=")
        #expect(user.emailVerified == false)
        #expect(user.passwordUpdatedAt == millis)
        #expect(user.createdAt == String(millis))
        #expect(user.lastLoginAt == String(millis))
        #expect(user.validSince == String(millis / 1000))
        #expect(user.lastRefreshAt == "2023-11-14T22:13:20.000Z")
        #expect(user.providerUserInfo == [
            .init(providerId: "password", federatedId: "max@example.com", email: "max@example.com", rawId: "max@example.com", displayName: "Max")
        ])
    }

    @Test("lookup: MISSING_ID_TOKEN and INVALID_ID_TOKEN for garbage, tampering, a foreign key or project")
    func lookupInvalid() async throws {
        let emulator = try await makeEmulator()
        let created = try await emulator.signUp(.init(email: "ned@example.com", password: "secret-pw"))
        #expect(await serviceError { try await emulator.lookup(.init(idToken: nil)) }?.message == "MISSING_ID_TOKEN")

        var tampered = created.idToken.split(separator: ".").map(String.init)
        tampered[1] = Base64URL.encode(Array(#"{"sub":"x"}"#.utf8))
        let otherKey = try await TokenSigner.generate().signer
        let foreignKeyToken = try await otherKey.sign(try await emulator.verifyIDToken(created.idToken))
        let otherProject = try await makeEmulator(projectId: "other-project")
        let otherProjectToken = try await otherProject.signUp(.init(email: "ned@example.com", password: "secret-pw")).idToken
        let unsigned = Base64URL.encode(Array(#"{"alg":"none","typ":"JWT"}"#.utf8)) + "." + created.idToken.split(separator: ".")[1] + "."

        for token in ["not-a-jwt", "a.b.c", tampered.joined(separator: "."), foreignKeyToken, otherProjectToken, unsigned] {
            let error = await serviceError { try await emulator.lookup(.init(idToken: token)) }
            #expect(error?.message == "INVALID_ID_TOKEN", "token \(token.prefix(20))…")
        }
    }

    @Test("TOKEN_EXPIRED an hour after issue; refresh issues a working token and the next refresh token")
    func expiryAndRefresh() async throws {
        let clock = ManualAuthClock()
        let emulator = try await makeEmulator(clock: clock)
        let created = try await emulator.signUp(.init(email: "oli@example.com", password: "secret-pw"))
        clock.advance(by: 3599)
        _ = try await emulator.lookup(.init(idToken: created.idToken))
        clock.advance(by: 1)
        #expect(await serviceError { try await emulator.lookup(.init(idToken: created.idToken)) }?.message == "TOKEN_EXPIRED")

        let refreshed = try await emulator.refresh(.init(refreshToken: created.refreshToken))
        #expect(refreshed.userId == created.localId)
        #expect(refreshed.refreshToken != created.refreshToken)
        #expect(refreshed.tokenType == "Bearer")
        #expect(refreshed.expiresIn == "3600")
        #expect(refreshed.accessToken == refreshed.idToken)
        #expect(refreshed.projectId == "12345")
        let claims = try await emulator.verifyIDToken(refreshed.idToken)
        #expect(claims.issuedAt == Int64(clock.now().timeIntervalSince1970))
        // auth_time stays the time of the password sign-in.
        #expect(claims.authTime == Int64(clock.now().timeIntervalSince1970) - 3600)
        _ = try await emulator.lookup(.init(idToken: refreshed.idToken))
    }

    @Test("token: MISSING_GRANT_TYPE, INVALID_GRANT_TYPE, MISSING_REFRESH_TOKEN, INVALID_REFRESH_TOKEN")
    func refreshErrors() async throws {
        let emulator = try await makeEmulator()
        let created = try await emulator.signUp(.init(email: "pat@example.com", password: "secret-pw"))
        #expect(await serviceError { try await emulator.refresh(.init(grantType: nil, refreshToken: created.refreshToken)) }?.message == "MISSING_GRANT_TYPE")
        #expect(await serviceError { try await emulator.refresh(.init(grantType: "password", refreshToken: created.refreshToken)) }?.message == "INVALID_GRANT_TYPE")
        #expect(await serviceError { try await emulator.refresh(.init(refreshToken: nil)) }?.message == "MISSING_REFRESH_TOKEN")
        #expect(await serviceError { try await emulator.refresh(.init(refreshToken: "made-up")) }?.message == "INVALID_REFRESH_TOKEN")
        var almost = Array(created.refreshToken.utf8)
        almost[almost.count - 1] = almost.last == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        #expect(await serviceError { try await emulator.refresh(.init(refreshToken: String(decoding: almost, as: UTF8.self))) }?.message == "INVALID_REFRESH_TOKEN")
    }

    @Test("revocation: old ID tokens and refresh tokens TOKEN_EXPIRED; deleted account USER_NOT_FOUND")
    func revocationAndDeletion() async throws {
        let clock = ManualAuthClock()
        let emulator = try await makeEmulator(clock: clock)
        let created = try await emulator.signUp(.init(email: "quinn@example.com", password: "secret-pw"))
        clock.advance(by: 5)
        try await emulator.revokeTokens(uid: created.localId)
        #expect(await serviceError { try await emulator.lookup(.init(idToken: created.idToken)) }?.message == "TOKEN_EXPIRED")
        #expect(await serviceError { try await emulator.refresh(.init(refreshToken: created.refreshToken)) }?.message == "TOKEN_EXPIRED")
        let again = try await emulator.signInWithPassword(.init(email: "quinn@example.com", password: "secret-pw"))
        _ = try await emulator.lookup(.init(idToken: again.idToken))

        try await emulator.store.deleteUser(uid: created.localId)
        #expect(await serviceError { try await emulator.lookup(.init(idToken: again.idToken)) }?.message == "USER_NOT_FOUND")
        #expect(await serviceError { try await emulator.refresh(.init(refreshToken: again.refreshToken)) }?.message == "INVALID_REFRESH_TOKEN")
    }

    @Test("USER_DISABLED on lookup and refresh")
    func disabled() async throws {
        let emulator = try await makeEmulator()
        let created = try await emulator.signUp(.init(email: "ray@example.com", password: "secret-pw"))
        try await emulator.store.setDisabled(uid: created.localId, true)
        #expect(await serviceError { try await emulator.lookup(.init(idToken: created.idToken)) }?.message == "USER_DISABLED")
        #expect(await serviceError { try await emulator.refresh(.init(refreshToken: created.refreshToken)) }?.message == "USER_DISABLED")
    }
}

/// The claims as plain JSON fields, decoded by jwt-kit without the service's own types.
private struct RawClaims: JWTPayload {
    var iss: String
    var aud: String
    var sub: String
    var iat: Int
    var exp: Int
    var auth_time: Int
    var email: String

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
