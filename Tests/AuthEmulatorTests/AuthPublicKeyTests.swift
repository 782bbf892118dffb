import AuthEmulator
import Foundation
import JWTKit
import Testing

/// The published keys, read the way a backend reads them: jwt-kit loads the JWK set and, separately, the X.509
/// certificate (parsed by swift-certificates inside jwt-kit), and verifies our ID tokens with either.
@Suite("published keys: JWKS and x509 document")
struct AuthPublicKeyTests {
    @Test("a backend verifies ID tokens with the served JWK set (jwt-kit)")
    func jwks() async throws {
        // jwt-kit checks `exp` against the wall clock: issue the token now.
        let emulator = try await makeEmulator(clock: ManualAuthClock(start: Date()))
        let session = try await emulator.signUp(.init(email: "jw@example.com", password: "secret-pw"))
        let response = await emulator.handle(AuthHTTPRequest(method: "GET", path: AuthRoute.jwksPath))
        #expect(response.status == 200)
        #expect(response.headers["cache-control"] == "public, max-age=3600")
        let keys = JWTKeyCollection()
        try await keys.add(jwksJSON: String(decoding: response.body, as: UTF8.self))
        let claims = try await keys.verify(session.idToken, as: BackendClaims.self)
        #expect(claims.sub.value == session.localId && claims.aud.value == ["demo-carchain"])
        #expect(claims.iss.value == "https://securetoken.google.com/demo-carchain")
    }

    @Test("a backend verifies ID tokens with the served certificate; the certificate is self-signed by the key")
    func x509() async throws {
        let emulator = try await makeEmulator(clock: ManualAuthClock(start: Date()))
        let session = try await emulator.signUp(.init(email: "cert@example.com", password: "secret-pw"))
        let response = await emulator.handle(AuthHTTPRequest(method: "GET", path: AuthRoute.x509CertificatesPath))
        let document = try JSONDecoder().decode([String: String].self, from: Data(response.body))
        #expect(Array(document.keys) == [emulator.signer.keyID])
        let pem = try #require(document[emulator.signer.keyID])
        #expect(pem.hasPrefix("-----BEGIN CERTIFICATE-----\n") && pem.hasSuffix("-----END CERTIFICATE-----\n"))
        let certificateKey = try Insecure.RSA.PublicKey(certificatePEM: pem)
        #expect(certificateKey.pemRepresentation == emulator.signer.publicKeyPEM)
        let keys = await JWTKeyCollection().add(rsa: certificateKey, digestAlgorithm: .sha256, kid: JWKIdentifier(string: emulator.signer.keyID))
        let claims = try await keys.verify(session.idToken, as: BackendClaims.self)
        #expect(claims.sub.value == session.localId)
        let cookies = await emulator.handle(AuthHTTPRequest(method: "GET", path: AuthRoute.sessionCookieCertificatesPath))
        #expect(cookies.body == response.body)
        #expect(await emulator.handle(AuthHTTPRequest(method: "POST", path: AuthRoute.jwksPath)).status == 404)
    }

    @Test("the certificate's DER: version 1, sha256WithRSAEncryption, the common name, a positive serial")
    func certificateStructure() async throws {
        let emulator = try await makeEmulator()
        let base64 = emulator.signer.certificatePEM.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        let der = try #require(Data(base64Encoded: base64))
        let bytes = [UInt8](der)
        #expect(bytes.first == 0x30)
        let sha256WithRSA: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x0B]
        #expect(bytes.count > 600 && contains(bytes, sha256WithRSA))
        #expect(contains(bytes, Array("securetoken.system.gserviceaccount.com".utf8)))
    }

    private func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains { Array(haystack[$0..<($0 + needle.count)]) == needle }
    }
}

/// What a backend checks, with jwt-kit's own claim types (not the service's).
private struct BackendClaims: JWTPayload {
    var sub: SubjectClaim
    var aud: AudienceClaim
    var iss: IssuerClaim
    var exp: ExpirationClaim

    func verify(using algorithm: some JWTAlgorithm) async throws {
        try exp.verifyNotExpired()
        try aud.verifyIntendedAudience(includes: "demo-carchain")
    }
}
