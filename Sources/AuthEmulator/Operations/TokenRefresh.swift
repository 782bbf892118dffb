import Crypto
import Foundation

extension AuthEmulator {
    /// Secure Token API `token` with `grant_type=refresh_token`: a new ID token and a new refresh token for the
    /// presented one's session. Refresh tokens rotate: the presented token is used up, and presenting it again
    /// revokes the whole session (someone else holds a copy). Errors: `MISSING_GRANT_TYPE`, `INVALID_GRANT_TYPE`,
    /// `MISSING_REFRESH_TOKEN`, `INVALID_REFRESH_TOKEN` (unknown, used up, or its account deleted),
    /// `TOKEN_EXPIRED` (expired, or revoked by sign-out, a password change or `revoke_refresh_tokens`),
    /// `USER_DISABLED`.
    public func refresh(_ request: AuthWire.TokenRequest) async throws(AuthServiceError) -> AuthWire.TokenResponse {
        guard let grantType = request.grantType, !grantType.isEmpty else { throw .badRequest(.missingGrantType) }
        guard grantType == "refresh_token" else { throw .badRequest(.invalidGrantType) }
        guard let refreshToken = request.refreshToken, !refreshToken.isEmpty else {
            throw .badRequest(.missingRefreshToken)
        }
        let digest = Array(SHA256.hash(data: Array(refreshToken.utf8)))
        let next = SecureRandom.refreshToken()
        let nextDigest = Array(SHA256.hash(data: Array(next.utf8)))
        let now = clock.now()
        let lifetime = TimeInterval(policy.refreshTokenLifetime)
        let exchange = try await storeCall {
            try await self.store.exchangeRefreshToken(digest, for: nextDigest, at: now, lifetime: lifetime)
        }
        switch exchange {
        case .unknown, .reused: throw .badRequest(.invalidRefreshToken)
        case .expired: throw .badRequest(.tokenExpired)
        case .disabled: throw .badRequest(.userDisabled)
        case .rotated(let session, let user, let realm):
            let idToken = try await self.realm(realm).signIDToken(for: user, session: session, now: now)
            return AuthWire.TokenResponse(
                accessToken: idToken, expiresIn: String(policy.idTokenLifetime), refreshToken: next, idToken: idToken,
                userId: user.uid, projectId: policy.projectNumber)
        }
    }

    /// `accounts:revokeToken` with `tokenType` `REFRESH_TOKEN` (sign-out): ends the session of the refresh token
    /// `token`, which must belong to the account of `idToken` (`INVALID_REFRESH_TOKEN` otherwise). Firebase's own
    /// service answers this operation for identity providers' tokens; here it is how a client signs out for good.
    public func revokeToken(_ request: AuthWire.RevokeTokenRequest) async throws(AuthServiceError) -> AuthWire.Empty {
        let (user, _) = try await account(presenting: request.idToken)
        guard request.tokenType == "REFRESH_TOKEN" else {
            throw .invalidArgument("tokenType must be REFRESH_TOKEN")
        }
        guard let token = request.token, !token.isEmpty else { throw .badRequest(.missingRefreshToken) }
        let digest = Array(SHA256.hash(data: Array(token.utf8)))
        guard try await storeCall({ try await self.store.endSession(tokenSHA256: digest, uid: user.uid) }) else {
            throw .badRequest(.invalidRefreshToken)
        }
        return AuthWire.Empty()
    }
}
