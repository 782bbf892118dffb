import Crypto
import CryptoExtras
import EthereumPrimitives
import Foundation
import JWTKit

/// Why an ID token was refused.
public enum IDTokenError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not three base64url parts, or a header/payload that does not decode.
    case malformed(String)
    /// The header's `alg` is not RS256.
    case unsupportedAlgorithm(String)
    /// The signature does not verify with this key.
    case badSignature
    /// A claim does not match (issuer, audience, subject).
    case wrongClaim(String)
    /// `iat` is in the future.
    case issuedInFuture
    /// `exp` has passed.
    case expired(at: Date)

    /// Whether the token failed only because it expired (Firebase's `TOKEN_EXPIRED` rather than
    /// `INVALID_ID_TOKEN`).
    public var isExpiry: Bool {
        if case .expired = self { return true }
        return false
    }

    /// What is wrong with the token (never the token itself).
    public var description: String {
        switch self {
        case .malformed(let reason): return "malformed ID token: \(reason)"
        case .unsupportedAlgorithm(let alg): return "ID token algorithm \(alg) is not RS256"
        case .badSignature: return "ID token signature does not verify"
        case .wrongClaim(let reason): return "ID token claim mismatch: \(reason)"
        case .issuedInFuture: return "ID token is issued in the future"
        case .expired(let date): return "ID token expired at \(date)"
        }
    }
}

/// Errors from loading or creating the signing key.
public enum TokenSignerError: Error, Sendable, CustomStringConvertible {
    /// The PEM does not hold an RSA private key.
    case invalidKey(path: String?, reason: String)
    /// Key generation failed.
    case generationFailed(String)
    /// Reading or writing the key file failed.
    case file(SecureFileError)
    /// Signing failed.
    case signingFailed(String)

    /// What went wrong and where (never key material).
    public var description: String {
        switch self {
        case .invalidKey(let path, let reason):
            return "signing key\(path.map { " \($0)" } ?? "") is not an RSA private key in PEM: \(reason)"
        case .generationFailed(let reason): return "could not generate an RSA signing key: \(reason)"
        case .file(let error): return "signing key file: \(error)"
        case .signingFailed(let reason): return "could not sign the ID token: \(reason)"
        }
    }
}

/// Signs and verifies ID tokens with an RS256 key (RSA-2048, PKCS#1 v1.5, SHA-256), as Firebase does. The key is
/// generated on first use and kept in the data directory with mode 0600; its `kid` is derived from the public
/// key, so a token names the key that signed it. The public key is published the two ways Google publishes
/// Firebase's: an X.509 certificate per key id, and a JWK set.
public struct TokenSigner: Sendable {
    /// The file name of the key inside the data directory.
    public static let keyFileName = "auth-signing-key.pem"
    /// How far a token's `iat` may lie in the future (clock skew between hosts).
    public static let allowedClockSkew: TimeInterval = 300

    /// The key id placed in the JWT header: the first 20 bytes of SHA-256(public key DER), in hex.
    public let keyID: String
    /// The public key, PEM-encoded (SubjectPublicKeyInfo), for anyone who verifies tokens.
    public let publicKeyPEM: String
    /// A self-signed certificate of the public key (valid from a day before this signer was made, for a year).
    public let certificatePEM: String
    /// The public key as a JWK (`kty` RSA, `alg` RS256, `use` sig, `kid`, `n`, `e`).
    public let jwk: AuthWire.JSONWebKey
    private let keys: JWTKeyCollection

    /// Creates a signer from a PEM-encoded RSA private key.
    public init(privateKeyPEM: String) async throws(TokenSignerError) {
        let key: _RSA.Signing.PrivateKey
        do {
            key = try _RSA.Signing.PrivateKey(pemRepresentation: privateKeyPEM)
        } catch {
            throw .invalidKey(path: nil, reason: String(describing: error))
        }
        try await self.init(key: key)
    }

    private init(key: _RSA.Signing.PrivateKey) async throws(TokenSignerError) {
        let jwtKey: JWTKit.Insecure.RSA.PrivateKey
        let primitives: _RSA.Signing.PublicKey.Primitives
        let certificate: String
        do {
            jwtKey = try JWTKit.Insecure.RSA.PrivateKey(backing: key)
            primitives = try key.publicKey.getKeyPrimitives()
            let now = Date()
            certificate = try SigningCertificate.pem(
                key: key, notBefore: now.addingTimeInterval(-86_400), notAfter: now.addingTimeInterval(365 * 86_400))
        } catch {
            throw .invalidKey(path: nil, reason: String(describing: error))
        }
        let digest = SHA256.hash(data: key.publicKey.derRepresentation)
        let keyID = digest.prefix(20).map { String(format: "%02x", $0) }.joined()
        self.keyID = keyID
        self.publicKeyPEM = key.publicKey.pemRepresentation
        self.certificatePEM = certificate
        self.jwk = AuthWire.JSONWebKey(
            kid: keyID, n: Base64URL.encode(primitives.modulus), e: Base64URL.encode(primitives.publicExponent))
        self.keys = await JWTKeyCollection().add(rsa: jwtKey, digestAlgorithm: .sha256, kid: JWKIdentifier(string: keyID))
    }

    /// Generates a fresh 2048-bit key held only in memory (for `--ephemeral` and tests); returns the signer and
    /// the private key's PEM.
    public static func generate() async throws(TokenSignerError) -> (signer: TokenSigner, privateKeyPEM: String) {
        let key: _RSA.Signing.PrivateKey
        do {
            key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        } catch {
            throw .generationFailed(String(describing: error))
        }
        return (try await TokenSigner(key: key), key.pemRepresentation)
    }

    /// Loads the key at `path`, or generates one and writes it there with mode 0600 when the file is absent.
    /// Refuses a key file that group or others can read.
    public static func loadOrCreate(keyFile path: String) async throws(TokenSignerError) -> TokenSigner {
        let existing: [UInt8]?
        do {
            existing = try SecureFile.read(path)
        } catch {
            throw .file(error)
        }
        if let existing {
            do {
                return try await TokenSigner(privateKeyPEM: String(decoding: existing, as: UTF8.self))
            } catch {
                if case .invalidKey(_, let reason) = error { throw .invalidKey(path: path, reason: reason) }
                throw error
            }
        }
        let (signer, pem) = try await generate()
        do {
            try SecureFile.write(Array(pem.utf8), to: path)
        } catch {
            throw .file(error)
        }
        return signer
    }

    /// Signs `claims` as a JWT with header `{"alg":"RS256","kid":<keyID>,"typ":"JWT"}`.
    public func sign(_ claims: IDTokenClaims) async throws(TokenSignerError) -> String {
        do {
            var header = JWTHeader()
            header.typ = "JWT"
            return try await keys.sign(SignedClaims(claims: claims), kid: JWKIdentifier(string: keyID), header: header)
        } catch {
            throw .signingFailed(String(describing: error))
        }
    }

    /// Verifies an ID token as Firebase's Admin SDK does, with this signer's key (``IDTokenVerifier``'s checks).
    public func verifyIDToken(_ token: String, projectId: String, now: Date, issuer: String? = nil)
        async throws(IDTokenError) -> IDTokenClaims
    {
        try await IDTokenVerifier.verify(token, keys: keys, projectId: projectId, now: now, issuer: issuer)
    }
}
