import Foundation

extension AuthEmulator {
    /// Session cookie lifetimes Firebase accepts: 5 minutes to 2 weeks (the default).
    public static let sessionCookieDurations: ClosedRange<Int64> = 300...1_209_600

    /// `projects/{p}:createSessionCookie` (the Admin SDK's `create_session_cookie`): a cookie with the ID token's
    /// claims, issuer `https://session.firebase.google.com/<project>`, lasting `validDuration` seconds, signed with
    /// the service's key (published at the session cookie key address too). Errors: `MISSING_ID_TOKEN`,
    /// `INVALID_DURATION`, and the ID token errors.
    public func createSessionCookie(_ request: AuthWire.CreateSessionCookieRequest) async throws(AuthServiceError)
        -> AuthWire.CreateSessionCookieResponse
    {
        guard let idToken = request.idToken, !idToken.isEmpty else { throw .badRequest(.missingIDToken) }
        let duration = request.validDuration?.value ?? Self.sessionCookieDurations.upperBound
        guard Self.sessionCookieDurations.contains(duration) else { throw .badRequest(.invalidDuration) }
        let (_, claims) = try await account(presenting: idToken)
        var cookie = claims
        let now = seconds(clock.now())
        cookie.issuer = IDTokenClaims.sessionCookieIssuer(forProject: projectId)
        cookie.issuedAt = now
        cookie.expiresAt = now + duration
        do {
            return AuthWire.CreateSessionCookieResponse(sessionCookie: try await signer.sign(cookie))
        } catch {
            throw .internalFailure("session cookie signing failed")
        }
    }
}
