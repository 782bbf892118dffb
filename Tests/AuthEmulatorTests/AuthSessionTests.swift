import AuthEmulator
import Foundation
import Testing

/// Refresh tokens as sessions: rotation, reuse detection, expiry, revocation by sign-out and password change;
/// custom-token sessions and their developer claims.
@Suite("sessions: rotating refresh tokens, revocation, custom tokens")
struct AuthSessionTests {
    @Test("each refresh returns the next token; replaying a used one ends the whole session")
    func rotationAndReuse() async throws {
        let emulator = try await makeEmulator()
        let created = try await emulator.signUp(.init(email: "rot@example.com", password: "secret-pw"))
        let other = try await emulator.signInWithPassword(.init(email: "rot@example.com", password: "secret-pw"))
        let first = try await emulator.refresh(.init(refreshToken: created.refreshToken))
        let second = try await emulator.refresh(.init(refreshToken: first.refreshToken))
        #expect(Set([created.refreshToken, first.refreshToken, second.refreshToken]).count == 3)
        #expect(await serviceError { try await emulator.refresh(.init(refreshToken: first.refreshToken)) }?.code == .invalidRefreshToken)
        #expect(await serviceError { try await emulator.refresh(.init(refreshToken: second.refreshToken)) }?.code == .invalidRefreshToken)
        // Another sign-in of the same account is another session, untouched.
        _ = try await emulator.refresh(.init(refreshToken: other.refreshToken))
    }

    @Test("a refresh token expires after the refresh lifetime without use; each use renews it")
    func expiry() async throws {
        let clock = ManualAuthClock()
        var policy = fastPolicy
        policy.refreshTokenLifetime = 7 * 86_400
        let emulator = try await makeEmulator(clock: clock, policy: policy)
        let created = try await emulator.signUp(.init(email: "exp@example.com", password: "secret-pw"))
        clock.advance(by: 6 * 86_400)
        let renewed = try await emulator.refresh(.init(refreshToken: created.refreshToken))
        clock.advance(by: 6 * 86_400)
        let again = try await emulator.refresh(.init(refreshToken: renewed.refreshToken))
        clock.advance(by: 7 * 86_400)
        let expired = await serviceError { try await emulator.refresh(.init(refreshToken: again.refreshToken)) }
        #expect(expired?.code == .tokenExpired)
        #expect(try await emulator.store.activeSessionCount(uid: created.localId) == 0)
    }

    @Test("a password change revokes the other sessions and continues the caller's with new tokens")
    func passwordChange() async throws {
        let clock = ManualAuthClock()
        let emulator = try await makeEmulator(clock: clock)
        let mine = try await emulator.signUp(.init(email: "pw@example.com", password: "old-password"))
        let theirs = try await emulator.signInWithPassword(.init(email: "pw@example.com", password: "old-password"))
        clock.advance(by: 2)
        var change = AuthWire.UpdateRequest(idToken: mine.idToken)
        change.password = "new-password"
        let changed = try await emulator.update(change)
        let idToken = try #require(changed.idToken)
        let refreshToken = try #require(changed.refreshToken)
        #expect(await serviceError { try await emulator.refresh(.init(refreshToken: theirs.refreshToken)) }?.code == .tokenExpired)
        #expect(await serviceError { try await emulator.refresh(.init(refreshToken: mine.refreshToken)) }?.code == .tokenExpired)
        #expect(await serviceError { try await emulator.lookup(.init(idToken: theirs.idToken)) }?.code == .tokenExpired)
        _ = try await emulator.lookup(.init(idToken: idToken))
        let next = try await emulator.refresh(.init(refreshToken: refreshToken))
        // The continued session keeps its sign-in time.
        #expect(try await emulator.verifyIDToken(next.idToken).authTime == (try await emulator.verifyIDToken(mine.idToken)).authTime)
        #expect(await serviceError { try await emulator.signInWithPassword(.init(email: "pw@example.com", password: "old-password")) }?.code == .invalidLoginCredentials)
    }

    @Test("sign-out (accounts:revokeToken) ends one session; someone else's token is refused")
    func signOut() async throws {
        let emulator = try await makeEmulator()
        let a = try await emulator.signUp(.init(email: "a@example.com", password: "secret-pw"))
        let a2 = try await emulator.signInWithPassword(.init(email: "a@example.com", password: "secret-pw"))
        let b = try await emulator.signUp(.init(email: "b@example.com", password: "secret-pw"))
        #expect(await serviceError { try await emulator.revokeToken(.init(token: b.refreshToken, idToken: a.idToken)) }?.code == .invalidRefreshToken)
        _ = try await emulator.revokeToken(.init(token: a.refreshToken, idToken: a.idToken))
        #expect(await serviceError { try await emulator.refresh(.init(refreshToken: a.refreshToken)) }?.code == .tokenExpired)
        _ = try await emulator.refresh(.init(refreshToken: a2.refreshToken))
        _ = try await emulator.refresh(.init(refreshToken: b.refreshToken))
    }

    @Test("custom tokens: unsigned JWT or JSON; developer claims ride every ID token of the session")
    func customToken() async throws {
        let emulator = try await makeEmulator()
        func jwt(_ payload: String) -> String {
            Base64URL.encode(Array(#"{"alg":"none","typ":"JWT"}"#.utf8)) + "." + Base64URL.encode(Array(payload.utf8)) + "."
        }
        let audience = AuthEmulator.customTokenAudience
        let signedIn = try await emulator.signInWithCustomToken(
            .init(token: jwt(#"{"aud":"\#(audience)","uid":"svc-1","claims":{"plan":"gold"}}"#), returnSecureToken: true))
        #expect(signedIn.isNewUser)
        let claims = try await emulator.verifyIDToken(signedIn.idToken)
        #expect(claims.userId == "svc-1" && claims.firebase.signInProvider == "custom" && claims.email == nil)
        #expect(claims.custom["plan"] == .string("gold"))
        let refreshed = try await emulator.refresh(.init(refreshToken: signedIn.refreshToken))
        #expect(try await emulator.verifyIDToken(refreshed.idToken).custom["plan"] == .string("gold"))
        let again = try await emulator.signInWithCustomToken(.init(token: #"{"uid":"svc-1"}"#, returnSecureToken: nil))
        #expect(!again.isNewUser)

        let cases: [(String, AuthErrorCode)] = [
            ("", .missingCustomToken), ("a.b", .invalidCustomToken), ("{oops", .invalidCustomToken),
            (jwt(#"{"aud":"https://example.com","uid":"x"}"#), .invalidCustomToken),
            (jwt(#"{"aud":"\#(audience)"}"#), .missingIdentifier),
            (jwt(#"{"aud":"\#(audience)","uid":"x","claims":[1]}"#), .invalidClaims),
            (jwt(#"{"aud":"\#(audience)","uid":"x","claims":{"auth_time":1}}"#), .forbiddenClaim),
        ]
        for (token, code) in cases {
            #expect(await serviceError { try await emulator.signInWithCustomToken(.init(token: token, returnSecureToken: nil)) }?.code == code, "\(token)")
        }
        try await emulator.store.setDisabled(uid: "svc-1", true)
        #expect(await serviceError { try await emulator.signInWithCustomToken(.init(token: #"{"uid":"svc-1"}"#, returnSecureToken: nil)) }?.code == .userDisabled)
    }

    @Test("session cookies: the ID token's claims, the session issuer, 5 minutes to 2 weeks")
    func sessionCookie() async throws {
        let clock = ManualAuthClock()
        let emulator = try await makeEmulator(clock: clock)
        let session = try await emulator.signUp(.init(email: "cookie@example.com", password: "secret-pw"))
        let cookie = try await emulator.createSessionCookie(.init(idToken: session.idToken, validDuration: WireInt64(600)))
        let claims = try await emulator.signer.verifyIDToken(
            cookie.sessionCookie, projectId: "demo-carchain", now: clock.now(),
            issuer: IDTokenClaims.sessionCookieIssuer(forProject: "demo-carchain"))
        #expect(claims.userId == session.localId && claims.expiresAt - claims.issuedAt == 600)
        for seconds: Int64 in [299, 1_209_601] {
            #expect(await serviceError { try await emulator.createSessionCookie(.init(idToken: session.idToken, validDuration: WireInt64(seconds))) }?.code == .invalidDuration)
        }
        #expect(await serviceError { try await emulator.createSessionCookie(.init(idToken: nil, validDuration: nil)) }?.code == .missingIDToken)
    }
}
