import EthereumPrimitives
import Foundation
import JWTKit

/// Verifies Firebase ID tokens the way a backend does against real Firebase: with the published public keys only
/// (the JWK set Google serves at `www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com`,
/// which the emulator serves at the same path), checking the RS256 signature with jwt-kit, then `iss`
/// (`https://securetoken.google.com/<projectId>`), `aud` (the project id), a non-empty `sub` equal to `user_id`,
/// `iat` not in the future (beyond ``TokenSigner/allowedClockSkew``) and `exp` after now. The emulator's own
/// checks (``TokenSigner/verifyIDToken(_:projectId:now:issuer:)``) run the same code with its key.
public struct IDTokenVerifier: Sendable {
    /// The Firebase project whose tokens are accepted.
    public let projectId: String
    private let keys: JWTKeyCollection

    /// A verifier for the keys of a JWK set document (as fetched; `{"keys":[…]}`). Throws
    /// ``IDTokenError/malformed(_:)`` when the document holds no usable RS256 key.
    public init(jwksJSON: String, projectId: String) async throws(IDTokenError) {
        let keys = JWTKeyCollection()
        do {
            try await keys.add(jwksJSON: jwksJSON)
        } catch {
            throw .malformed("the JWK set does not load: \(error)")
        }
        self.keys = keys
        self.projectId = projectId
    }

    /// A verifier for `keySet`.
    public init(keySet: AuthWire.JSONWebKeySet, projectId: String) async throws(IDTokenError) {
        let json: String
        do {
            json = String(decoding: try JSONEncoder().encode(keySet), as: UTF8.self)
        } catch {
            throw .malformed("the JWK set does not encode: \(error)")
        }
        try await self.init(jwksJSON: json, projectId: projectId)
    }

    /// The token's claims when it verifies at `now`; ``IDTokenError`` says why not (never quoting the token).
    public func verify(_ token: String, now: Date = Date(), issuer: String? = nil) async throws(IDTokenError) -> IDTokenClaims {
        try await Self.verify(token, keys: keys, projectId: projectId, now: now, issuer: issuer)
    }

    /// The checks, with `keys` (public keys here, the signer's private key in the emulator).
    static func verify(_ token: String, keys: JWTKeyCollection, projectId: String, now: Date, issuer: String?)
        async throws(IDTokenError) -> IDTokenClaims
    {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .malformed("expected 3 dot-separated parts, found \(parts.count)") }
        guard let headerBytes = Base64URL.decode(parts[0]),
            let header = try? JSONDecoder().decode(JWTHeaderFields.self, from: Data(headerBytes))
        else { throw .malformed("header is not base64url JSON") }
        guard header.alg == "RS256" else { throw .unsupportedAlgorithm(header.alg ?? "(none)") }

        let claims: IDTokenClaims
        do {
            claims = try await keys.verify(token, as: SignedClaims.self).claims
        } catch let error as JWTError where error.errorType == .signatureVerificationFailed {
            throw .badSignature
        } catch {
            throw .malformed(String(describing: error))
        }

        let expectedIssuer = issuer ?? IDTokenClaims.issuer(forProject: projectId)
        guard claims.issuer == expectedIssuer else {
            throw .wrongClaim("iss is \(claims.issuer), expected \(expectedIssuer)")
        }
        guard claims.audience == projectId else {
            throw .wrongClaim("aud is \(claims.audience), expected \(projectId)")
        }
        guard !claims.subject.isEmpty, claims.subject.count <= 128, claims.subject == claims.userId else {
            throw .wrongClaim("sub must be a non-empty uid equal to user_id")
        }
        let nowSeconds = now.timeIntervalSince1970
        guard TimeInterval(claims.issuedAt) <= nowSeconds + TokenSigner.allowedClockSkew else { throw .issuedInFuture }
        guard nowSeconds < TimeInterval(claims.expiresAt) else { throw .expired(at: claims.expirationDate) }
        return claims
    }
}

/// The JWT header fields read before verification.
struct JWTHeaderFields: Decodable {
    var alg: String?
    var kid: String?
}

/// jwt-kit's payload wrapper: claim checks are done by `verifyIDToken` against the injected clock, so jwt-kit
/// only checks the signature.
struct SignedClaims: JWTPayload {
    var claims: IDTokenClaims

    init(claims: IDTokenClaims) {
        self.claims = claims
    }

    init(from decoder: any Decoder) throws {
        claims = try IDTokenClaims(from: decoder)
    }

    func encode(to encoder: any Encoder) throws {
        try claims.encode(to: encoder)
    }

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
